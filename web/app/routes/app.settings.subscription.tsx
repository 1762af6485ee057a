import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { CsrfInput } from "../components/Csrf.js";
import { FormError } from "../components/Field.js";
import { useToast } from "../components/ui/Toast.js";
import { refusal, v1Form, type ActionFailure } from "../lib/v1.server.js";
import { TIER_IDS, TIERS, type Tier } from "../../../functions/platform/domain/tiers.js";
import { CreditUsage } from "../components/CreditUsage.js";
import { Page } from "../components/Page.js";
import { formatNumber } from "../lib/format.js";
import { useShell } from "../lib/shell.js";

export const meta: MetaFunction = () => [{ title: "Subscription · Timbre" }];

function limits(t: Tier): string[] {
  return [
    `${formatNumber(t.characterLimit)} credits a month`,
    `${formatNumber(t.voiceLimit)} custom voices`,
    t.canUseProfessionalVoiceCloning ? `Professional voice cloning (${t.professionalVoiceLimit} ${t.professionalVoiceLimit === 1 ? "voice" : "voices"})` : t.canUseInstantVoiceCloning ? "Instant voice cloning" : "No voice cloning",
    `${t.concurrency} generations at once`,
    `${t.maxSeats} ${t.maxSeats === 1 ? "seat" : "seats"}`,
    t.canExtendCharacterLimit ? "Usage beyond the credits (where the operator allows it)" : "Stops at the monthly credits",
  ];
}

/** What a payment provider would report; a server administrator sets it to try the billing messages (app-shell.md §8). */
const STATUS_NAMES: Record<string, string> = {
  free: "free",
  free_disabled: "free tier disabled",
  trialing: "trialing",
  active: "active",
  incomplete: "incomplete payment",
  past_due: "payment past due",
};
const statusesFor = (tier: string) => (tier === "free" ? ["free", "free_disabled"] : ["trialing", "active", "incomplete", "past_due"]);

/** A server administrator sets the workspace's plan (no payment provider on a self-hosted server). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
  if (form.get("intent") === "status") {
    const status = String(form.get("status") ?? "");
    try {
      await client.call("/v1/workspace/subscription", { method: "PATCH", body: { status }, schema: z.object({ status: z.string() }) });
      return { ok: true as const, intent: "status", message: `The subscription's status is now ${STATUS_NAMES[status] ?? status}.` };
    } catch (e) {
      return refusal(e, "status");
    }
  }
  const tier = z.enum(TIER_IDS).safeParse(form.get("tier"));
  if (!tier.success) return data<ActionFailure>({ ok: false, intent: "tier", error: "Choose a plan." }, { status: 400 });
  try {
    await client.call("/v1/workspace/subscription", { method: "PATCH", body: { tier: tier.data }, schema: z.object({ status: z.string() }) });
    return { ok: true as const, intent: "tier", message: `The workspace is now on the ${TIERS[tier.data].name} plan.` };
  } catch (e) {
    return refusal(e, "tier");
  }
}

/**
 * The subscription page: the workspace's plan and usage, every plan of functions/platform/domain/tiers.ts
 * with its limits, and how a plan changes on a self-hosted server: there is no billing; a server
 * administrator sets it here. Every "Update subscription?" link leads here.
 */
export default function Subscription() {
  const shell = useShell();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const toast = useToast();
  useEffect(() => {
    if (result?.ok) toast.show({ message: result.message, kind: "success" });
  }, [result, toast]);
  if (!shell) return null;
  const { tier, status, used, limit, resetsAtUnix } = shell.subscription;
  const current = TIERS[tier as keyof typeof TIERS];
  return (
    <Page title="Subscription" description="Your workspace's plan, its credits and the plans this server offers.">
      <section className="card" aria-labelledby="plan-title">
        <div className="card-header">
          <h2 id="plan-title">
            {current?.name ?? tier} plan <span className="badge">{status}</span>
          </h2>
        </div>
        <CreditUsage used={used} limit={limit} resetsAtUnix={resetsAtUnix} />
        <p className="muted">{formatNumber(Math.max(0, limit - used))} credits left this period.</p>
      </section>

      <section className="card callout" aria-labelledby="change-plan-title">
        <h2 id="change-plan-title">Changing plans on a self-hosted server</h2>
        <p>
          This Timbre server takes no payments. A workspace's plan is set by whoever runs the server, and the plan decides its credits and limits; nothing
          here is charged.
        </p>
        <ul className="plain-list">
          <li>A server administrator changes a workspace's plan on this page; the new plan's credits and limits apply at once, and the credits already used this period stay used.</li>
          <li>
            Operators make someone a server administrator with <code>SERVER_ADMIN_EMAILS</code> or <code>npm run seed -- --email you@example.com --tier pro --server-admin</code> (plans: {TIER_IDS.join(", ")}).
          </li>
          {!shell.user.isServerAdmin && <li>{shell.workspace.isAdmin ? "Ask the server's administrator for the plan you need." : "Only workspace admins can ask for a plan change; ask yours."}</li>}
        </ul>
        {shell.user.isServerAdmin && (
          <Form method="post" className="plans-admin">
            <CsrfInput />
            <div className="field">
              <label htmlFor="tier-select">Plan of this workspace</label>
              <select id="tier-select" name="tier" defaultValue={tier}>
                {TIER_IDS.map((id) => (
                  <option key={id} value={id}>
                    {TIERS[id].name}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? "Changing…" : "Change plan"}
            </button>
            <FormError id="tier-error" message={result && !result.ok && result.intent === "tier" ? result.error : null} />
          </Form>
        )}
        {shell.user.isServerAdmin && (
          <Form method="post" className="plans-admin">
            <CsrfInput />
            <div className="field">
              <label htmlFor="status-select">Billing status</label>
              <select id="status-select" name="status" defaultValue={status}>
                {statusesFor(tier).map((s) => (
                  <option key={s} value={s}>
                    {STATUS_NAMES[s]}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" name="intent" value="status" className="button" disabled={busy}>
              Set status
            </button>
            <FormError id="status-error" message={result && !result.ok && result.intent === "status" ? result.error : null} />
          </Form>
        )}
        {shell.user.isServerAdmin && (
          <p>
            <Link to="/app/settings/administration">Server administration</Link>: post notifications to every user and read their feedback.
          </p>
        )}
        <p className="muted">
          Out of credits now? They reset on the date shown above. Meanwhile, <Link to="/app/speech-synthesis/text-to-speech?tab=history">your history</Link> keeps
          every clip you generated.
        </p>
      </section>

      <section aria-labelledby="plans-title">
        <h2 id="plans-title" className="section-title">
          Plans
        </h2>
        <ul className="plans">
          {TIER_IDS.map((id) => {
            const t = TIERS[id];
            return (
              <li key={id} className="plan" data-current={id === tier || undefined} aria-current={id === tier ? "true" : undefined}>
                <div className="plan-head">
                  <h3>{t.name}</h3>
                  {id === tier && <span className="badge badge-accent">Current plan</span>}
                </div>
                <ul className="plan-limits">
                  {limits(t).map((l) => (
                    <li key={l}>{l}</li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      </section>
    </Page>
  );
}
