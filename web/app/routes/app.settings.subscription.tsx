import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { TIER_IDS, TIERS, type Tier } from "../../../functions/domain/tiers.js";
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

/**
 * The subscription page: the workspace's plan and usage, every plan of functions/domain/tiers.ts
 * with its limits, and (plainly) how a plan changes on a self-hosted server: there is no
 * billing; the server's operator sets it. Every "Update subscription?" link leads here.
 */
export default function Subscription() {
  const shell = useShell();
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
          <li>
            Operators create an account on any plan with <code>npm run seed -- --email you@example.com --tier pro</code> (plans: {TIER_IDS.join(", ")}).
          </li>
          <li>Changing the plan of an existing workspace from this page is not available yet; until it is, the operator creates an account on the new plan.</li>
          <li>{shell.workspace.isAdmin ? "As a workspace admin, ask the server's operator for the plan you need." : "Only workspace admins can ask for a plan change; ask yours."}</li>
        </ul>
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
