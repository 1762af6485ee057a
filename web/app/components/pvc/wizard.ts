import { z } from "zod";
import { PVC, pvcMessages } from "../../../../functions/platform/contract/pvc.js";

/**
 * The professional voice clone wizard's state and rules (professional-voice-clone.md §4, §5;
 * voice-creation.md §2.4), pure so they are tested without a browser. Messages and limits come
 * from functions/platform/contract/pvc.ts, the ones the API checks with.
 */
export { PVC, pvcMessages };

export const PvcSampleWire = z.object({
  sample_id: z.string(),
  file_name: z.string(),
  size_bytes: z.number().nullish(),
  duration_secs: z.number().nullish(),
  remove_background_noise: z.boolean().nullish(),
  /** The kept part, in milliseconds (null: from the start / to the end). */
  trim_start: z.number().nullish(),
  trim_end: z.number().nullish(),
  /** Timbre: the language the sample was added in (the voice's then); null for older samples. */
  language: z.string().nullish(),
});
export type PvcSample = z.infer<typeof PvcSampleWire>;

export const PvcVoiceWire = z.object({
  voice_id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  category: z.string().nullish(),
  created_at_unix: z.number().nullish(),
  labels: z.record(z.string()).nullish(),
  samples: z.array(PvcSampleWire).nullish(),
  fine_tuning: z
    .object({
      is_allowed_to_fine_tune: z.boolean().nullish(),
      state: z.record(z.string()).nullish(),
      language: z.string().nullish(),
    })
    .passthrough()
    .nullish(),
  voice_verification: z.object({ requires_verification: z.boolean().nullish(), is_verified: z.boolean().nullish() }).passthrough().nullish(),
});
export type PvcVoice = z.infer<typeof PvcVoiceWire>;
export const PvcVoicesWire = z.object({ voices: z.array(PvcVoiceWire) });

export const UploadTicketWire = z.object({
  upload_id: z.string(),
  /** When the URLs stop working (15 minutes): later parts need fresh ones (GET .../uploads/{id}). */
  expires_at_unix: z.number(),
  kind: z.enum(["single", "multipart"]),
  url: z.string().nullable(),
  headers: z.record(z.string()),
  parts: z.array(z.object({ part_number: z.number(), url: z.string(), size_bytes: z.number(), headers: z.record(z.string()) })),
  uploaded_parts: z.array(z.number()),
});
export type UploadTicketView = z.infer<typeof UploadTicketWire>;

/** The fine-tuning model the wizard's Finish starts. */
export const FINISH_MODEL_ID = "eleven_multilingual_v2";

/** The three points under the intro's title (written for Timbre). */
/** The intro's links: where the clone is used once trained, and the plans. */
export const INTRO_LINKS = {
  tts: "/app/speech-synthesis/text-to-speech",
  agents: "/app/conversational-ai",
  studio: "/app/studio",
  library: "/app/voice-library",
  subscribe: "/app/settings/subscription",
} as const;

export const INTRO_POINTS = [
  "Upload or record at least 10 minutes of your voice, ideally 30 minutes to 2 hours, in one language and one speaking style.",
  "Prove the voice is yours by reading a short sentence aloud, so nobody can clone a voice without its owner.",
  "Timbre then fine-tunes the voice on all of its audio: it takes a while, and you can use it as soon as it is ready.",
] as const;

/** 'Tips for the best results': eight tips, one about Enterprise permission (voice-creation.md §2.4). */
export const INTRO_TIPS = [
  "Record in a quiet room with soft furnishings; avoid echo, fans and street noise.",
  "Use a good microphone at a steady distance of about a hand's width, with a pop filter.",
  "Speak the way you want the clone to speak: the style of the samples is the style of the voice.",
  "Keep one language, one accent and one speaking style across all samples.",
  "Keep the level steady: no clipping at loud moments, no whispering at quiet ones.",
  "Remove music, sound effects and other speakers, or select only your voice with speaker separation.",
  "More clean audio is better: 30 minutes is good, one hour better, two hours best.",
  "Enterprise customers can clone any voice with written permission from its owner.",
] as const;

/**
 * The tips drawer's short video (issue 28 §7): the intro's tips read by Timbre's own voice over
 * the product's own screens, captioned. Made by `scripts/make-tips-video.ts` (ffmpeg), shipped small.
 */
export const TIPS_VIDEO = {
  src: "/media/pvc-tips.webm",
  poster: "/media/pvc-tips.jpg",
  captions: { src: "/media/pvc-tips.en.vtt", lang: "en", label: "English" },
  title: "Tips for a professional voice clone",
} as const;

/** The tips card beside the samples (professional-voice-clone.md §2): what makes a sample good. */
export const SAMPLE_TIPS_TITLE = "Tips for your samples";
export const SAMPLE_TIPS = [
  "One speaker, one language, one style.",
  "No music, effects or background noise.",
  "Steady level, no clipping.",
  "Long files are fine: up to 3 hours each.",
] as const;

/** The training-use notice, under the samples when the workspace opted out of training use. */
export const TRAINING_OPT_OUT_NOTICE =
  "Your workspace has opted out of training use: these samples train this voice only and are never used to improve any other model.";

/** The ring's marks: Good, Better, Best at 30 min, 1 h, 2 h of a 2.5 h ring. */
export const RING_MARKS = [
  { label: "Good", seconds: PVC.goodSeconds },
  { label: "Better", seconds: PVC.betterSeconds },
  { label: "Best", seconds: PVC.bestSeconds },
] as const;

export const ringShare = (seconds: number) => Math.max(0, Math.min(1, seconds / PVC.ringMaxSeconds));

export function totalSeconds(samples: readonly PvcSample[]): number {
  return samples.reduce((t, s) => t + (s.duration_secs ?? 0), 0);
}

/** "12 min 5 s", "1 h 2 min", "40 s". */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  if (h > 0) return m ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return r ? `${m} min ${r} s` : `${m} min`;
  return `${r} s`;
}

export type FileStage = "pending" | "uploading" | "processing" | "uploaded" | "error";

/** The file item's text (§4 File item): 'Uploading', then 'N% uploaded', then 'Processing'. */
export function fileStatusText(stage: FileStage, percent: number): string {
  if (stage === "pending" || (stage === "uploading" && percent <= 0)) return pvcMessages.uploading;
  if (stage === "uploading") return pvcMessages.uploaded(Math.min(100, Math.round(percent)));
  if (stage === "processing") return pvcMessages.processing;
  return "";
}

/** Next on Voice Data: disabled under 10 minutes (with the tooltip) or while a file is on its way. */
export function nextState(seconds: number, busy: boolean): { disabled: boolean; tooltip: string | null } {
  if (seconds < PVC.minTotalSeconds) return { disabled: true, tooltip: pvcMessages.needMoreAudio("10 minutes") };
  return { disabled: busy, tooltip: null };
}

/** A file on its way to becoming a sample, as the language rule sees it. */
export interface LanguageItem {
  stage: FileStage;
  /** The form's language when the file was added (§3 Local file item: language). */
  language: string;
}

const onItsWay = (stage: FileStage) => stage === "pending" || stage === "uploading" || stage === "processing" || stage === "uploaded";

/** The languages of the samples and of the files uploading or uploaded (older samples without one say nothing). */
export function sampleLanguages(samples: readonly { language?: string | null }[], items: readonly LanguageItem[]): Set<string> {
  const out = new Set<string>();
  for (const s of samples) if (s.language) out.add(s.language);
  for (const f of items) if (onItsWay(f.stage)) out.add(f.language);
  return out;
}

/**
 * §5 Language: every sample uploading or uploaded must be in the selected language; otherwise the
 * form is invalid ('All audio samples must be in the same language') and is neither saved nor
 * taken on by Next.
 */
export function languageError(selected: string, samples: readonly { language?: string | null }[], items: readonly LanguageItem[]): string | null {
  for (const l of sampleLanguages(samples, items)) if (l !== selected) return pvcMessages.sameLanguage;
  return null;
}

/** A file item's problem (§3 Local file item error): its type, code and message. */
export interface ItemProblem {
  type: "warning" | "error";
  code: string;
  message: string;
}

/**
 * The checks of a file being added that the browser can make before sending it, in the spec's
 * order (§5 Sample checks): 1. under 30 s (when its duration is known), 2. in another language
 * than the other samples (language-mismatch). The rest (duplicates, counts, sizes) follow.
 */
export function addedFileProblem(language: string, others: ReadonlySet<string>, durationSecs: number | null): ItemProblem | null {
  const mismatch = [...others].some((l) => l !== language);
  if (!mismatch) return null;
  if (durationSecs !== null && durationSecs < PVC.minSampleSeconds) return { type: "error", code: "min-duration", message: pvcMessages.minDuration };
  return { type: "error", code: "language-mismatch", message: pvcMessages.sameLanguage };
}

/** A clone still being set up: a draft, not verified yet, or never fine-tuned ('Return to a session'). */
export function isUnfinished(v: PvcVoice): boolean {
  if (v.category !== "professional") return false;
  const ft = v.fine_tuning;
  const draft = (ft as { is_draft?: unknown } | null | undefined)?.is_draft === true;
  const verification = v.voice_verification;
  const notVerified = verification?.requires_verification === true && verification.is_verified !== true;
  const states = Object.values(ft?.state ?? {});
  const notStarted = states.length === 0 || states.every((s) => s === "not_started");
  return draft || notVerified || notStarted;
}

/**
 * Form fields as the API checks them; the first problem per field. With `samples` (and the files
 * on their way), the language is checked against them too (§5 Language).
 */
export function formErrors(
  form: { name: string; description: string; language?: string },
  samples?: { samples: readonly { language?: string | null }[]; items: readonly LanguageItem[] },
): { name?: string; description?: string; language?: string } {
  const out: { name?: string; description?: string; language?: string } = {};
  if (!form.name.trim()) out.name = pvcMessages.nameRequired;
  if (form.description.length > PVC.descriptionMax) out.description = pvcMessages.descriptionTooLong;
  if (samples && form.language !== undefined) {
    const language = languageError(form.language, samples.samples, samples.items);
    if (language) out.language = language;
  }
  return out;
}

/** Auto-save waits this long after the last change (§4 Auto-save). */
export const AUTO_SAVE_MS = 1000;

/** Languages the form offers (the engine's and the recorder scripts'). */
export const PVC_LANGUAGES: ReadonlyArray<{ code: string; name: string }> = [
  { code: "en", name: "English" },
  { code: "zh", name: "Chinese" },
  { code: "es", name: "Spanish" },
  { code: "pt", name: "Portuguese" },
  { code: "fr", name: "French" },
  { code: "de", name: "German" },
  { code: "ru", name: "Russian" },
  { code: "ko", name: "Korean" },
  { code: "it", name: "Italian" },
  { code: "hr", name: "Croatian" },
];

/** A trim selection in milliseconds. */
export interface Trim {
  start: number;
  end: number;
}

/**
 * Moves one edge of a trim selection (§5 Trim): clamped to the audio, and at least a second long;
 * the edge being moved stops where the selection would get shorter than that. Audio shorter than
 * a second keeps all of it.
 */
export function moveTrimEdge(trim: Trim, edge: "start" | "end", ms: number, lengthMs: number): Trim {
  const length = Math.max(0, Math.round(lengthMs));
  if (length <= PVC.minTrimMs) return { start: 0, end: length };
  const at = Math.max(0, Math.min(length, Math.round(ms)));
  if (edge === "start") return { start: Math.min(at, trim.end - PVC.minTrimMs), end: trim.end };
  return { start: trim.start, end: Math.max(at, trim.start + PVC.minTrimMs) };
}

/** A sample's current trim, the whole audio where it has none. */
export function trimOf(sample: { trim_start?: number | null; trim_end?: number | null; duration_secs?: number | null }): Trim {
  const length = Math.round((sample.duration_secs ?? 0) * 1000);
  const start = Math.max(0, Math.min(length, sample.trim_start ?? 0));
  const end = Math.max(start, Math.min(length, sample.trim_end ?? length));
  return { start, end };
}

/** Only the edges that changed (§7 Update sample: only dirty fields are sent). */
export function trimChanges(before: Trim, after: Trim): { trim_start_time?: number; trim_end_time?: number } {
  const out: { trim_start_time?: number; trim_end_time?: number } = {};
  if (after.start !== before.start) out.trim_start_time = after.start;
  if (after.end !== before.end) out.trim_end_time = after.end;
  return out;
}

/** "1:05.3": the trim editor's times, to a tenth of a second. */
export function formatTrimTime(ms: number): string {
  const tenths = Math.round(ms / 100);
  const m = Math.floor(tenths / 600);
  const s = Math.floor((tenths % 600) / 10);
  return `${m}:${String(s).padStart(2, "0")}.${tenths % 10}`;
}
