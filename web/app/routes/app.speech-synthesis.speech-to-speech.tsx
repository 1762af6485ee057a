import type { MetaFunction } from "@remix-run/node";
import { SpeechSynthesisPage } from "../components/SpeechSynthesisPage.js";

export const meta: MetaFunction = () => [{ title: "Voice Changer · Timbre" }];

export default function SpeechToSpeech() {
  return <SpeechSynthesisPage tab="sts" />;
}
