import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { SpeechSynthesisPage } from "../../components/SpeechSynthesisPage.js";
import { VoiceChanger } from "../../components/sts/VoiceChanger.js";
import { requireAuth } from "../../lib/session.server.js";
import ttsStyles from "../../styles/tts.css?url";
import stsStyles from "../../styles/sts.css?url";
import { loadTextToSpeech } from "../app.speech-synthesis.text-to-speech/tts.server.js";

export const meta: MetaFunction = () => [{ title: "Voice Changer · Timbre" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: ttsStyles },
  { rel: "stylesheet", href: stsStyles },
];

/** The same models and starting voice as Text to Speech (?voice_id is kept when switching tabs). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  const { models, voice } = await loadTextToSpeech(context, request, auth);
  return { models, voice };
}

/** The queue lives in the page: a credit refresh after a conversion must not reload the voice. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname === nextUrl.pathname && currentUrl.searchParams.get("voice_id") === nextUrl.searchParams.get("voice_id")) return false;
  return defaultShouldRevalidate;
};

export default function SpeechToSpeechRoute() {
  const data = useLoaderData<typeof loader>();
  return (
    <SpeechSynthesisPage tab="sts">
      <VoiceChanger models={data.models} voice={data.voice} />
    </SpeechSynthesisPage>
  );
}
