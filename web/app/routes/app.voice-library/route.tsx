import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { VoiceLibrary } from "../../components/voices/VoiceLibrary.js";
import ttsStyles from "../../styles/tts.css?url";
import voicesStyles from "../../styles/voices.css?url";
import { loadLibraryPage } from "./library.server.js";

export const meta: MetaFunction = () => [{ title: "Voice Library · Timbre" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: ttsStyles },
  { rel: "stylesheet", href: voicesStyles },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadLibraryPage(request, context);
}

/** Filters and dialogs live in the query string; only another ?voiceId needs the loader again. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname === nextUrl.pathname && currentUrl.searchParams.get("voiceId") === nextUrl.searchParams.get("voiceId")) return false;
  return defaultShouldRevalidate;
};

export default function VoiceLibraryRoute() {
  const data = useLoaderData<typeof loader>();
  return <VoiceLibrary opened={data.opened} missing={data.missing} slots={data.slots} />;
}
