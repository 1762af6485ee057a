import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Home } from "../../components/home/Home.js";
import { requireAuth } from "../../lib/session.server.js";
import { loadHome } from "./home.server.js";

export const meta: MetaFunction = () => [{ title: "Home · Timbre" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  return loadHome(context, request, auth);
}

export default function HomeRoute() {
  const data = useLoaderData<typeof loader>();
  return <Home data={data} />;
}
