import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { SpeechSynthesisPage } from "../../components/SpeechSynthesisPage.js";
import { TextToSpeech } from "../../components/tts/TextToSpeech.js";
import { requireAuth } from "../../lib/session.server.js";
import ttsStyles from "../../styles/tts.css?url";
import { loadTextToSpeech } from "./tts.server.js";

export const meta: MetaFunction = () => [{ title: "Text to Speech · Timbre" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: ttsStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  return loadTextToSpeech(context, request, auth);
}

/**
 * Models and the starting voice only change with ?voice_id: switching the history tab or
 * refreshing the shell's credit usage (a revalidation after each generation) does not reload them.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname === nextUrl.pathname && currentUrl.searchParams.get("voice_id") === nextUrl.searchParams.get("voice_id")) return false;
  return defaultShouldRevalidate;
};

export default function TextToSpeechRoute() {
  const data = useLoaderData<typeof loader>();
  return (
    <SpeechSynthesisPage tab="tts">
      <TextToSpeech models={data.models} voice={data.voice} starterVoices={data.starterVoices} />
    </SpeechSynthesisPage>
  );
}
