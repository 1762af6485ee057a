import type { MetaFunction } from "@remix-run/node";
import { NotAvailable } from "../components/NotAvailable.js";
import { Page } from "../components/Page.js";
import { useShell } from "../lib/shell.js";

export const meta: MetaFunction = () => [{ title: "Webhooks · Timbre" }];

/** Admins manage the workspace's webhooks; other members their personal ones. */
export default function Webhooks() {
  const shell = useShell();
  if (!shell) return null;
  const workspace = shell.workspace.isAdmin;
  return (
    <Page title={workspace ? "Workspace webhooks" : "Webhooks"} description={workspace ? "Endpoints that receive events for the whole workspace." : "Endpoints that receive events for your own jobs."}>
      <NotAvailable feature="Webhooks" />
    </Page>
  );
}
