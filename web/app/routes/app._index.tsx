import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CreditUsage } from "../components/CreditUsage.js";
import { NotAvailable } from "../components/NotAvailable.js";
import { Page } from "../components/Page.js";
import { useShell } from "../lib/shell.js";

export const meta: MetaFunction = () => [{ title: "Home · Timbre" }];

export default function Home() {
  const shell = useShell();
  if (!shell) return null;
  const name = shell.user.displayName;
  return (
    <Page title={name ? `Welcome, ${name}` : "Welcome"} description={`Workspace: ${shell.workspace.name}`}>
      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">Usage this period</h2>
        <CreditUsage used={shell.subscription.used} limit={shell.subscription.limit} resetsAtUnix={shell.subscription.resetsAtUnix} />
      </section>
      <NotAvailable feature="The Home dashboard">
        <p>
          What works today: the API under /v1 with an API key from <Link to="/app/settings/api-keys">Settings → API Keys</Link>.
        </p>
      </NotAvailable>
    </Page>
  );
}
