import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { MyVoices } from "../../components/voices/MyVoices.js";
import ttsStyles from "../../styles/tts.css?url";
import voicesStyles from "../../styles/voices.css?url";
import { loadMyVoices } from "./voice-lab.server.js";

export const meta: MetaFunction = () => [{ title: "My Voices · Timbre" }];
// The detail panel reuses Text to Speech's voice settings sliders and their styles.
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: ttsStyles },
  { rel: "stylesheet", href: voicesStyles },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadMyVoices(request, context);
}

/** Search, filters, the open voice and the dialogs are all in the query string: the loader's data does not change with them. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
};

export default function MyVoicesRoute() {
  const data = useLoaderData<typeof loader>();
  return <MyVoices slots={data.slots} collections={data.collections} />;
}
