import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Page } from "../components/Page.js";
import { ProductionList } from "../components/productions/ProductionList.js";
import { loadProductions } from "../components/productions/productions.server.js";

export const meta: MetaFunction = () => [{ title: "Production history · Timbre" }];
export const loader = (args: LoaderFunctionArgs) => loadProductions(args, "history");

export default function ProducerHistory() {
  const { productions } = useLoaderData<typeof loader>();
  return (
    <Page title="History" description="The productions you reviewed, newest first.">
      <ProductionList productions={productions} view="history" empty="You have not reviewed a production yet." />
    </Page>
  );
}
