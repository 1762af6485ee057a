import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NotAvailable } from "../components/NotAvailable.js";
import { Page } from "../components/Page.js";
import { isIsolated } from "../lib/nav.js";
import { getShell } from "../lib/shell.server.js";

export const meta: MetaFunction = () => [{ title: "Payouts · Timbre" }];

// Hidden in isolated data-residency environments.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { shell } = await getShell(request, context);
  if (isIsolated(shell)) throw data({ message: "Page not found" }, { status: 404 });
  return null;
}

export default function Payouts() {
  return (
    <Page title="Payouts" description="Earnings from voices you share in the library.">
      <NotAvailable feature="Payouts" />
    </Page>
  );
}
