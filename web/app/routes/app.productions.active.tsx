import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Page } from "../components/Page.js";
import { HOME_TABS, ProductionList } from "../components/productions/ProductionList.js";
import { loadProductions, productionAction } from "../components/productions/productions.server.js";

export const meta: MetaFunction = () => [{ title: "Producer Mode · Timbre" }];
export const loader = (args: LoaderFunctionArgs) => loadProductions(args, "active");
export const action = (args: ActionFunctionArgs) => productionAction(args);

export default function ProducerHomeActive() {
  const { productions } = useLoaderData<typeof loader>();
  return (
    <Page title="Producer Mode" description="Review what needs a person: manual verification requests of professional voice clones." tabs={HOME_TABS}>
      <ProductionList productions={productions} view="active" empty="You hold no productions. Claim one from the unclaimed queue." />
    </Page>
  );
}
