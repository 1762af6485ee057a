import { z } from "zod";
import { v1Fetch, v1Json, ApiCallError, apiCallError } from "../tts/client.js";
import { announceVoicesChanged } from "../../lib/voiceEvents.js";
import { verificationMessages } from "../../../../functions/platform/contract/voiceCreation.js";

/**
 * The browser's calls for voice creation (same origin, the session's bearer token): the answers
 * are parsed by these schemas, and failures become ApiCallError with the server's message.
 */
export { ApiCallError };

export const SubscriptionWire = z.object({
  tier: z.string(),
  character_count: z.number(),
  character_limit: z.number(),
  voice_slots_used: z.number(),
  voice_limit: z.number(),
  can_use_instant_voice_cloning: z.boolean(),
});
export type Subscription = z.infer<typeof SubscriptionWire>;

export const PreviewWire = z.object({
  audio_base_64: z.string(),
  generated_voice_id: z.string(),
  media_type: z.string(),
  duration_secs: z.number(),
  language: z.string().nullish(),
});
export type Preview = z.infer<typeof PreviewWire>;
export const DesignWire = z.object({ previews: z.array(PreviewWire), text: z.string() });

export const VoiceWire = z.object({
  voice_id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  labels: z.record(z.string()).nullish(),
  samples: z.array(z.object({ sample_id: z.string(), file_name: z.string(), duration_secs: z.number().nullish() })).nullish(),
  category: z.string(),
  voice_verification: z.object({ requires_verification: z.boolean(), is_verified: z.boolean() }).nullish(),
});
export type VoiceInfo = z.infer<typeof VoiceWire>;

export const ClonePreviewWire = PreviewWire.extend({
  samples: z.array(z.object({ sample_id: z.string(), file_name: z.string(), duration_secs: z.number().nullish() })),
  kept_sample_ids: z.array(z.string()),
});

export const VerificationWire = z.object({
  text: z.string().nullable(),
  language: z.string().nullable(),
  requires_verification: z.boolean(),
  is_verified: z.boolean(),
  attempts_left: z.number(),
  max_attempts: z.number(),
  next_attempts_reset_unix: z.number().nullable(),
  // The attempt the server is still deciding (null once decided, or once it is 300 s old and counted as lost).
  pending_attempt_id: z.string().nullish(),
  last_attempt: z
    .object({ status: z.string(), reasons: z.array(z.string()).default([]), alternatives: z.array(z.lazy(() => AlternativeWire)).default([]) })
    .nullish(),
});
export type VerificationState = z.infer<typeof VerificationWire>;

export const AlternativeWire = z.object({ voice_id: z.string(), public_owner_id: z.string(), name: z.string(), similarity: z.number() });
export type Alternative = z.infer<typeof AlternativeWire>;

const ModelsWire = z.array(z.object({ model_id: z.string(), languages: z.array(z.object({ language_id: z.string(), name: z.string() })).nullish() }));
const AccentsWire = z.object({ accents: z.array(z.object({ accent: z.string(), language: z.string(), name: z.string() })) });

export const getSubscription = () => v1Json("/v1/user/subscription", SubscriptionWire);
export const getTextLimits = () => v1Json("/v1/text-to-voice/text-limits", z.object({ minimum_characters: z.number(), maximum_characters: z.number() }));
export const generatePreviewText = (description: string, model: string) =>
  v1Json("/v1/text-to-voice/generate-preview-text", z.object({ text: z.string() }), { method: "POST", json: { voice_description: description, model_id: model } });
export const designVoice = (body: Record<string, unknown>) => v1Json("/v1/text-to-voice/design?output_format=mp3_44100_128", DesignWire, { method: "POST", json: body });
export const saveDesignedVoice = (body: Record<string, unknown>) => v1Json("/v1/text-to-voice/create-voice-from-preview", VoiceWire, { method: "POST", json: body }).then(announced);
export const getVoice = (voiceId: string) => v1Json(`/v1/voices/${encodeURIComponent(voiceId)}`, VoiceWire);
export const myVoices = () => v1Json("/v2/voices?voice_type=personal&page_size=100", z.object({ voices: z.array(VoiceWire) }));

/** Languages the engine speaks, and each one's accents, for the label editor. */
export async function languagesAndAccents(): Promise<Array<{ id: string; name: string; accents: Array<{ id: string; name: string }> }>> {
  const [models, accents] = await Promise.all([v1Json("/v1/models", ModelsWire), v1Json("/v1/voices/accents", AccentsWire)]);
  const langs = models.find((m) => m.model_id === "eleven_multilingual_v2")?.languages ?? [];
  return langs.map((l) => ({ id: l.language_id, name: l.name, accents: accents.accents.filter((a) => a.language === l.language_id).map((a) => ({ id: a.accent, name: a.name })) }));
}

export async function clonePreview(form: FormData) {
  const res = await v1Fetch("/v1/voices/ivc/preview", { method: "POST", body: form });
  if (!res.ok) throw await apiCallError(res);
  return ClonePreviewWire.parse(await res.json());
}
export const saveClone = (body: Record<string, unknown>) =>
  v1Json("/v1/voices/ivc/save", VoiceWire.extend({ requires_verification: z.boolean() }), { method: "POST", json: body }).then(announced);

/** A saved voice: lists on screen (My Voices) load again. */
function announced<T>(voice: T): T {
  announceVoicesChanged();
  return voice;
}
export const getVerification = (voiceId: string) => v1Json(`/v1/voices/${encodeURIComponent(voiceId)}/verification`, VerificationWire);

export type VerificationOutcome =
  | { kind: "verified" }
  | { kind: "failed"; message: string; reasons: string[]; attemptsLeft: number; alternatives: Alternative[] }
  | { kind: "max_attempts"; message: string }
  | { kind: "already_verified" }
  | { kind: "pending" };

const FailureDetail = z.object({
  status: z.string(),
  message: z.string(),
  reasons: z.array(z.string()).default([]),
  attempts_left: z.number().default(0),
  alternatives: z.array(AlternativeWire).default([]),
});

/** Submits a recording; the API waits a few seconds for the workflow's decision (the UI polls after). */
export async function submitVerification(voiceId: string, recording: Blob, fileName: string): Promise<VerificationOutcome> {
  const form = new FormData();
  form.append("recording", recording, fileName);
  const res = await v1Fetch(`/v1/voices/${encodeURIComponent(voiceId)}/verification?wait=15`, { method: "POST", body: form });
  if (res.status === 200) return { kind: "verified" };
  if (res.status === 202) return { kind: "pending" };
  const body = (await res.clone().json().catch(() => undefined)) as { detail?: unknown } | undefined;
  const detail = FailureDetail.safeParse(body?.detail);
  if (detail.success) {
    if (detail.data.status === "verification_failed") return { kind: "failed", message: detail.data.message, reasons: detail.data.reasons, attemptsLeft: detail.data.attempts_left, alternatives: detail.data.alternatives };
    if (detail.data.status === "max_verification_attempts_reached") return { kind: "max_attempts", message: detail.data.message };
    if (detail.data.status === "already_verified") return { kind: "already_verified" };
  }
  throw await apiCallError(res);
}

/**
 * A submitted attempt's outcome as the verification state shows it: still pending while the server
 * has the attempt pending, else what the attempt ended as (a rejection or an error with its reasons).
 */
export function outcomeOfState(s: VerificationState): VerificationOutcome {
  if (s.is_verified || !s.requires_verification) return { kind: "verified" };
  if (s.pending_attempt_id) return { kind: "pending" };
  if (s.attempts_left <= 0) return { kind: "max_attempts", message: verificationMessages.maxAttempts };
  const a = s.last_attempt;
  if (!a || a.status === "pending") return { kind: "pending" };
  return { kind: "failed", message: verificationMessages.attemptFailed, reasons: a.reasons.length ? a.reasons : [verificationMessages.unknownError], attemptsLeft: s.attempts_left, alternatives: a.alternatives };
}

/** How long the dialog waits for a decision: the server counts a pending attempt as lost after 300 s. */
export const DECISION_WAIT_MS = 310_000;

/**
 * Asks for the verification state every `pollMs` until the submitted attempt is decided, or
 * `waitMs` has passed (then still `pending`). The server's decision takes longer than the
 * submission's own wait on a loaded machine; a fixed number of polls gave up on attempts the
 * server was still deciding, and showed them as "Failed due to an unknown error".
 */
export async function awaitDecision(
  first: VerificationOutcome,
  state: () => Promise<VerificationState>,
  o: { pollMs?: number; waitMs?: number; sleep?: (ms: number) => Promise<void>; now?: () => number } = {},
): Promise<VerificationOutcome> {
  const { pollMs = 1000, waitMs = DECISION_WAIT_MS, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)), now = Date.now } = o;
  const until = now() + waitMs;
  let r = first;
  while (r.kind === "pending" && now() < until) {
    await sleep(pollMs);
    r = outcomeOfState(await state());
  }
  return r;
}

export function audioUrl(b64: string, mediaType: string): string {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return URL.createObjectURL(new Blob([bytes], { type: mediaType }));
}
