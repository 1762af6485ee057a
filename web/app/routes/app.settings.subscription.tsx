import type { MetaFunction } from "@remix-run/node";
import { CreditUsage } from "../components/CreditUsage.js";
import { NotAvailable } from "../components/NotAvailable.js";
import { Page } from "../components/Page.js";
import { useShell } from "../lib/shell.js";

export const meta: MetaFunction = () => [{ title: "Subscription · Timbre" }];

const TIER_NAMES: Record<string, string> = { free: "Free", starter: "Starter", creator: "Creator", pro: "Pro", scale: "Scale", business: "Business" };

export default function Subscription() {
  const shell = useShell();
  if (!shell) return null;
  const { tier, status } = shell.subscription;
  return (
    <Page title="Subscription" description="Your workspace's plan and credits.">
      <section className="card" aria-labelledby="plan-title">
        <h2 id="plan-title">
          {TIER_NAMES[tier] ?? tier} plan <span className="badge">{status}</span>
        </h2>
        <CreditUsage used={shell.subscription.used} limit={shell.subscription.limit} resetsAtUnix={shell.subscription.resetsAtUnix} />
      </section>
      <NotAvailable feature="Changing plans and billing">
        {!shell.workspace.isAdmin && <p>Only workspace administrators can change the subscription.</p>}
      </NotAvailable>
    </Page>
  );
}
