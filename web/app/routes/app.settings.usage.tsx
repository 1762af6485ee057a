import type { MetaFunction } from "@remix-run/node";
import { CreditUsage } from "../components/CreditUsage.js";
import { NotAvailable } from "../components/NotAvailable.js";
import { Page } from "../components/Page.js";
import { useShell } from "../lib/shell.js";

export const meta: MetaFunction = () => [{ title: "Usage analytics · Timbre" }];

export default function Usage() {
  const shell = useShell();
  if (!shell) return null;
  return (
    <Page title="Usage analytics" description="Credits used by your workspace in this period.">
      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">This period</h2>
        <CreditUsage used={shell.subscription.used} limit={shell.subscription.limit} resetsAtUnix={shell.subscription.resetsAtUnix} />
      </section>
      <NotAvailable feature="Usage broken down by day, product and API key" />
    </Page>
  );
}
