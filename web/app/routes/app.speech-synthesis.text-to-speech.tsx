import type { MetaFunction } from "@remix-run/node";
import { SpeechSynthesisPage } from "../components/SpeechSynthesisPage.js";

export const meta: MetaFunction = () => [{ title: "Text to Speech · Timbre" }];

export default function TextToSpeech() {
  return <SpeechSynthesisPage tab="tts" />;
}
