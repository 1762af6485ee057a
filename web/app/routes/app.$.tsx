import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NotAvailable } from "../components/NotAvailable.js";
import { Page } from "../components/Page.js";
import { isVisible } from "../lib/nav.js";
import { findProductPage, PRODUCT_PAGES } from "../lib/pages.js";
import { getShell } from "../lib/shell.server.js";
import { navContext, useShell } from "../lib/shell.js";

/** Every product page in the navigation whose feature is not built yet (lib/pages.ts). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { shell } = await getShell(request, context);
  const page = findProductPage(new URL(request.url).pathname, navContext(shell));
  if (!page) throw data({ message: "Page not found" }, { status: 404 });
  return { pageId: page.id, title: page.title };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · Timbre` : "Timbre" }];

export default function ProductPage() {
  const { pageId } = useLoaderData<typeof loader>();
  const shell = useShell();
  const page = PRODUCT_PAGES.find((p) => p.id === pageId);
  if (!page || !shell) return null;
  const ctx = navContext(shell);
  return (
    <Page title={page.title} description={page.description} requiredPermission={page.permission} tabs={page.tabs?.filter((t) => isVisible(t.when, ctx))}>
      <NotAvailable feature={page.title}>{page.alternative && <p>{page.alternative}</p>}</NotAvailable>
    </Page>
  );
}
