import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useSubmit } from "@remix-run/react";
import { z } from "zod";
import { CreditUsage } from "../../components/CreditUsage.js";
import { Page } from "../../components/Page.js";
import { UsageChart } from "../../components/usage/UsageChart.js";
import { formatNumber } from "../../lib/format.js";
import { getShell } from "../../lib/shell.server.js";
import { useShell } from "../../lib/shell.js";
import { v1 } from "../../lib/v1.server.js";

export const meta: MetaFunction = () => [{ title: "Usage analytics · Timbre" }];

const PERIODS = { "7": "Last 7 days", "30": "Last 30 days", "90": "Last 90 days", "365": "Last 12 months" } as const;
const BREAKDOWNS = { none: "No breakdown", voice: "Voice", model: "Model", api_keys: "API key", user: "Member", product_type: "Product" } as const;
const METRICS = { credits: "Credits", tts_characters: "Characters", request_count: "Requests" } as const;

const Query = z.object({
  period: z.enum(Object.keys(PERIODS) as [keyof typeof PERIODS]).catch("30"),
  breakdown: z.enum(Object.keys(BREAKDOWNS) as [keyof typeof BREAKDOWNS]).catch("none"),
  metric: z.enum(Object.keys(METRICS) as [keyof typeof METRICS]).catch("credits"),
});
const StatsWire = z.object({ time: z.array(z.number()), usage: z.record(z.array(z.number())) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { shell } = await getShell(request, context);
  const { client } = await v1(request, context);
  const url = new URL(request.url);
  const q = Query.parse(Object.fromEntries(url.searchParams));
  // Members see their own usage; admins the workspace's (and may break it down by member).
  const workspace = shell.workspace.isAdmin;
  const breakdown = q.breakdown === "user" && !workspace ? "none" : q.breakdown;
  const days = Number(q.period);
  const end = Date.now();
  const start = end - days * 86_400_000;
  const interval = days > 90 ? "month" : days > 31 ? "week" : "day";
  const params = new URLSearchParams({ start_unix: String(start), end_unix: String(end), include_workspace_metrics: String(workspace), breakdown_type: breakdown, aggregation_interval: interval, metric: q.metric });
  const stats = await client.call(`/v1/usage/character-stats?${params}`, { schema: StatsWire });
  return { ...q, breakdown, interval, workspace, stats };
}

export default function Usage() {
  const shell = useShell();
  const { period, breakdown, metric, interval, workspace, stats } = useLoaderData<typeof loader>();
  const submit = useSubmit();
  if (!shell) return null;
  const rows = stats.time.map((t, i) => ({ t, values: Object.entries(stats.usage).map(([k, v]) => [k, v[i]] as const) }));
  return (
    <Page title="Usage analytics" description={workspace ? "Credits used by your workspace, over time and broken down." : "Credits you used, over time and broken down."}>
      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">This period</h2>
        <CreditUsage used={shell.subscription.used} limit={shell.subscription.limit} resetsAtUnix={shell.subscription.resetsAtUnix} />
      </section>

      <section className="card" aria-labelledby="history-title">
        <h2 id="history-title">Over time</h2>
        <Form method="get" className="usage-controls" onChange={(e) => submit(e.currentTarget, { preventScrollReset: true, replace: true })}>
          <div className="field">
            <label htmlFor="usage-period">Period</label>
            <select id="usage-period" name="period" defaultValue={period}>
              {Object.entries(PERIODS).map(([k, v]) => (
                <option key={k} value={k}>
                  {v}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="usage-breakdown">Breakdown</label>
            <select id="usage-breakdown" name="breakdown" defaultValue={breakdown}>
              {Object.entries(BREAKDOWNS)
                .filter(([k]) => workspace || k !== "user")
                .map(([k, v]) => (
                  <option key={k} value={k}>
                    {v}
                  </option>
                ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="usage-metric">Measure</label>
            <select id="usage-metric" name="metric" defaultValue={metric}>
              {Object.entries(METRICS).map(([k, v]) => (
                <option key={k} value={k}>
                  {v}
                </option>
              ))}
            </select>
          </div>
          <noscript>
            <button type="submit" className="button">
              Show
            </button>
          </noscript>
        </Form>
        <UsageChart time={stats.time} usage={stats.usage} interval={interval} metricLabel={METRICS[metric]} />
        <details>
          <summary>Show as a table</summary>
          <table className="table table-responsive">
            <thead>
              <tr>
                <th scope="col">{interval === "month" ? "Month" : interval === "week" ? "Week of" : "Day"}</th>
                {Object.keys(stats.usage).map((k) => (
                  <th key={k} scope="col">
                    {k}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.t}>
                  <td data-label="Date">{new Date(r.t).toISOString().slice(0, 10)}</td>
                  {r.values.map(([k, v]) => (
                    <td key={k} data-label={k}>
                      {formatNumber(v)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </section>
    </Page>
  );
}
