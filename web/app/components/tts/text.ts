import { dialogueMessages } from "../../../../functions/platform/domain/speechRules.js";
import { countCharacters, sliceCharacters } from "../../lib/characters.js";

/** Editor rules: limits, truncation and bracket warnings (speech-generation.md §5). */
export const textMessages = {
  tooManyCharacters: dialogueMessages.tooManyCharacters,
  brackets: "Your text contains curly braces or square brackets, which can degrade speech quality.",
  curlyBraces: "Your text contains curly braces, which can degrade speech quality.",
} as const;

/**
 * Curly braces and square brackets can degrade speech; the v3 dialogue model reads square
 * brackets as audio tags ([laughs]), so there only curly braces warn.
 */
export function bracketWarning(text: string, opts: { v3Dialogue: boolean }): string | null {
  if (opts.v3Dialogue) return /[{}]/.test(text) ? textMessages.curlyBraces : null;
  return /[{}[\]]/.test(text) ? textMessages.brackets : null;
}

/** Cuts text to the limit (in characters); `truncated` says whether anything was cut (the caller warns). */
export function limitText(text: string, limit: number): { text: string; truncated: boolean } {
  if (countCharacters(text) <= limit) return { text, truncated: false };
  return { text: sliceCharacters(text, limit), truncated: true };
}

/** Sample texts a new user can start from (one click fills the editor). */
export const SAMPLE_TEXTS = [
  { label: "Tell a story", text: "The lighthouse keeper had not seen a ship in forty years. Then, one foggy night, a bell rang out across the water." },
  { label: "Introduce a podcast", text: "Welcome back to the show. Today we talk about how sound shapes the way we remember places, and why a single voice can feel like home." },
  { label: "Explain a product", text: "Timbre turns your text into natural speech in seconds. Pick a voice, paste your script and press Generate." },
] as const;

/** The text a request sends: trimmed. */
export const requestText = (text: string) => text.trim();

const pad = (n: number) => String(n).padStart(2, "0");

/** "Avery_2026-11-23_10-15-02.mp3": the voice (or voices) and the date, safe for any file system. */
export function downloadFileName(voiceNames: readonly string[], date: Date, extension = "mp3"): string {
  const names = [...new Set(voiceNames.map((n) => n.replace(/[^\p{L}\p{N}_-]+/gu, "_").replace(/^_+|_+$/g, "")).filter(Boolean))];
  const who = (names.length ? names.slice(0, 3).join("-") : "speech").slice(0, 60);
  const stamp = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}_${pad(date.getUTCHours())}-${pad(date.getUTCMinutes())}-${pad(date.getUTCSeconds())}`;
  return `${who}_${stamp}.${extension}`;
}

const EXTENSIONS: Record<string, string> = { "audio/mpeg": "mp3", "audio/wav": "wav", "audio/ogg": "ogg", "audio/basic": "ulaw", "audio/pcm": "pcm" };
export const extensionForContentType = (contentType: string) => EXTENSIONS[contentType.split(";")[0]!.trim()] ?? "bin";

const dateTimes = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });

/** A unix-seconds time as "Nov 23, 2026, 10:15 UTC" (fixed locale and zone: no hydration mismatch). */
export const formatDateTime = (unixSeconds: number) => `${dateTimes.format(new Date(unixSeconds * 1000))} UTC`;
