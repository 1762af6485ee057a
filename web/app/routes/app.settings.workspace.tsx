import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NotAvailable } from "../components/NotAvailable.js";
import { Page } from "../components/Page.js";
import { getShell } from "../lib/shell.server.js";
import { useShell } from "../lib/shell.js";

export const meta: MetaFunction = () => [{ title: "Workspace settings · Timbre" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { shell } = await getShell(request, context);
  if (!shell.workspace.isAdmin) throw data({ message: "Only workspace administrators can open workspace settings." }, { status: 403 });
  return null;
}

export default function WorkspaceSettings() {
  const shell = useShell();
  if (!shell) return null;
  return (
    <Page title="Workspace settings" description={shell.workspace.name}>
      <NotAvailable feature="Managing members, groups and permissions" />
    </Page>
  );
}
