/**
 * What the assistant knows about Timbre: short answers drawn from Timbre's own pages, specs' wording
 * and docs (the README, /docs pages, the error catalogue). The offline brain picks among them; the
 * LLM path gets them all as its context.
 */
import { permissionDeniedMessage } from "../../platform/domain/permissions.js";

export interface KnowledgeEntry {
  id: string;
  /** Words that point to this entry (lower case; all of one group must appear). */
  when: ReadonlyArray<readonly string[]>;
  answer: string;
  /** The route that shows it, offered with go_to_route. */
  route?: string;
  /** A control on that page to highlight once there (its label). */
  highlight?: string;
  doc?: "guides" | "api-reference" | "changelog";
}

export const KNOWLEDGE: readonly KnowledgeEntry[] = [
  {
    id: "clone",
    when: [["clone"], ["cloning"], ["my", "own", "voice"]],
    answer:
      "To clone a voice, open My Voices and choose Add a new voice, then Instant Voice Clone: upload or record one to a few minutes of clean speech, name the voice and confirm you have the right to use it. A Professional Voice Clone takes at least half an hour of recordings, a verification that the voice is yours, and a fine-tuning that runs for a while; it needs the Creator plan or above.",
    route: "my_voices",
  },
  {
    id: "generation-failed",
    when: [["fail"], ["failed"], ["error"], ["not", "work"], ["didn't", "work"], ["went", "wrong"]],
    answer:
      "A generation fails for a few reasons: your credits would be exceeded (quota exceeded — free plans are blocked, paid plans can extend), too many generations at once for your plan (too many concurrent requests), the system is busy (try again), or the voice needs its captcha verification or was blocked. When it fails you are not charged unless the result appears in the history. The error dialog names which one it was.",
    route: "subscription",
  },
  {
    id: "tiers",
    when: [["plan"], ["tier"], ["subscription"], ["upgrade"], ["allow"]],
    answer:
      "Plans differ in monthly credits, voice slots, professional clones, seats, concurrent generations and output formats: Free 10,000 credits and 3 voices without cloning; Starter 30,000 and instant cloning; Creator 100,000, professional cloning and 192 kbps MP3; Pro 500,000 and studio-quality PCM and WAV; Scale and Business add seats and more credits.",
    route: "subscription",
  },
  {
    id: "api-keys",
    when: [["api", "key"], ["api"]],
    answer: "API keys are under Settings, API Keys. The /v1 API follows the ElevenLabs contract, so the official SDKs work against this server with its address as their base URL.",
    route: "api_keys",
    doc: "api-reference",
  },
  {
    id: "two-factor",
    when: [["two", "factor"], ["2fa"], ["authenticator"]],
    answer: "Two-factor authentication is under Settings, Two-factor authentication: scan the code with an authenticator app and confirm with a first code; keep the backup codes it shows.",
    route: "two_factor_authentication",
  },
  {
    id: "webhooks",
    when: [["webhook"]],
    answer: "Webhooks are under Settings, Webhooks: add an HTTPS address and the events to send; each delivery is signed so your server can check it.",
    route: "webhooks",
  },
  {
    id: "text-to-speech",
    when: [["text", "speech"], ["generate"], ["tts"]],
    answer: "In Text to Speech pick a voice and a model, set the voice settings, write your text (or a dialogue with several speakers) and press Generate speech. The cost in credits shows beside the button.",
    route: "text_to_speech",
  },
  {
    id: "voice-changer",
    when: [["voice", "changer"], ["speech", "to", "speech"], ["convert"]],
    answer: "The Voice Changer (speech to speech) takes audio files into a queue and converts each into the voice you choose; each item can be converted, regenerated or removed.",
    route: "speech_to_speech",
  },
  {
    id: "voice-library",
    when: [["voice", "library"], ["library"], ["find", "voice"], ["voices"]],
    answer: "The Voice Library lists the voices you can use: search by name or description, filter by language, accent, gender, age and use case, and add one to My Voices.",
    route: "voice_library",
  },
  {
    id: "isolator",
    when: [["isolat"], ["background", "noise"]],
    answer: "The Voice Isolator removes background noise and music from a recording and keeps the voice.",
    route: "voice_isolator",
  },
  {
    id: "settings",
    when: [["setting"], ["profile"], ["name"], ["password"]],
    answer: "Your profile, workspace, usage, API keys, webhooks and two-factor authentication are under Settings, in the menu at the bottom of the sidebar.",
    route: "settings",
  },
];

/** Said plainly when nothing above answers the question. */
export const CANNOT_ANSWER =
  "I'm sorry, I can't answer that. I can help with cloning voices, generating speech, failed generations, plans and credits, and finding a page or setting. I can also open a support request for you.";

export { permissionDeniedMessage };

/** The whole knowledge as one text: the LLM's context. */
export function knowledgeText(): string {
  return KNOWLEDGE.map((k) => `- ${k.answer}${k.route ? ` (route: ${k.route})` : ""}`).join("\n");
}
