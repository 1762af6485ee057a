/**
 * Verification attempts of a voice: the sentence to read (a new one per attempt), the attempt
 * limit (5 per window; the window resets 24 hours after its first attempt), taking a recording
 * and starting the voice-verification workflow, and waiting a few seconds for its decision.
 * Every change of the voice's verification is a compare-and-set (casVerification), so two
 * requests can never both take the last attempt.
 */
import type { AppContext } from "../../platform/context.js";
import { unixSeconds } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { VerificationAttemptRecord, VerificationRecord, VoiceRecord } from "../../platform/stores/voices.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { newId } from "../../platform/adapters/ids.js";
import { sniffAudioType } from "../../media/audio/sniff.js";
import { ApiError } from "../../platform/http/errors.js";
import type { MultipartFile } from "../../platform/http/multipart.js";
import { assertCanManage, isLibraryCopy, voiceNotFound } from "../voices/records.js";
import { VERIFICATION_MAX_BYTES, VERIFICATION_RECORDING_MAX_SECONDS, VERIFICATION_WINDOW_HOURS, verificationMessages } from "../../platform/contract/voiceCreation.js";
import { AudioDecodeError, AudioLimitError } from "../../media/audio/decode/errors.js";
import { challengeLanguage, newChallenge, wordsFor } from "./challenge.js";
import { canDraw } from "./captcha.js";

export type AttemptKind = "text" | "captcha";
const WINDOW_MS = VERIFICATION_WINDOW_HOURS * 3600 * 1000;
/** How long POST waits for the workflow's decision before answering 202 (the client then polls GET). */
export const DECISION_WAIT_MS = 8000;
const POLL_MS = 100;

export const maxAttemptsReached = () => new ApiError(403, "max_verification_attempts_reached", `${verificationMessages.maxAttempts} ${verificationMessages.maxAttemptsHint}`);
export const alreadyVerified = () => new ApiError(409, "already_verified", verificationMessages.alreadyVerified);

/** Attempts that count: in the current window and not failed by our own error. */
export function attemptWindow(v: VerificationRecord, nowMs: number): { used: number; left: number; resetMs: number | null } {
  const resetMs = v.next_attempts_reset_unix_ms !== null && v.next_attempts_reset_unix_ms > nowMs ? v.next_attempts_reset_unix_ms : null;
  const startSec = resetMs !== null ? Math.floor((resetMs - WINDOW_MS) / 1000) : Infinity;
  const used = resetMs === null ? 0 : v.attempts.filter((a) => a.date_unix >= startSec && a.status !== "error").length;
  return { used, left: Math.max(0, v.max_attempts - used), resetMs };
}

/** The caller's own voice that verification applies to. */
export async function ownVoice(ctx: AppContext, caller: Caller, voiceId: string): Promise<VoiceRecord> {
  const v = await ctx.stores.voices.get(caller.workspaceId, voiceId);
  if (!v || isLibraryCopy(v)) throw voiceNotFound(voiceId);
  await assertCanManage(caller, v);
  return v;
}

/** A pending attempt older than this lost its workflow: it no longer blocks a new one. */
const PENDING_STALE_SECONDS = 300;
const pendingOf = (v: VoiceRecord, nowMs = Date.now()) =>
  v.verification.attempts.find((a) => a.status === "pending" && a.date_unix > nowMs / 1000 - PENDING_STALE_SECONDS) ?? null;

/**
 * GET .../verification: the state, and the sentence for the next attempt (issued once, kept until used).
 * `captcha`: the sentence is for the professional clone's captcha image, so it must be in a
 * language the captcha's font draws (English otherwise).
 */
export async function verificationState(ctx: AppContext, caller: Caller, voiceId: string, opts: { captcha?: boolean } = {}) {
  for (let tries = 0; tries < 5; tries++) {
    const v = await ownVoice(ctx, caller, voiceId);
    const ver = v.verification;
    const now = ctx.now();
    const w = attemptWindow(ver, now);
    let challenge = ver.challenge ?? null;
    if (opts.captcha && challenge && !canDraw(challenge.text)) challenge = null;
    const needsSentence = ver.requires_verification && !ver.is_verified && w.left > 0 && !challenge;
    if (needsSentence) {
      let language = challengeLanguage(ver.language ?? v.labels.language ?? v.profile.language);
      if (opts.captcha && !canDraw(wordsFor(language).join(" "))) language = "en";
      challenge = { text: newChallenge(language, ctx.challengeRandom), language, issued_at_unix: unixSeconds(ctx) };
      if (!(await ctx.stores.voices.casVerification(caller.workspaceId, voiceId, v.verification_rev ?? 0, { ...ver, challenge }))) continue;
    }
    const last = ver.attempts.at(-1) ?? null;
    return {
      text: challenge?.text ?? null,
      language: challenge?.language ?? ver.language,
      requires_verification: ver.requires_verification,
      is_verified: ver.is_verified,
      attempts_left: w.left,
      max_attempts: ver.max_attempts,
      next_attempts_reset_unix: w.resetMs === null ? null : Math.ceil(w.resetMs / 1000),
      verification_attempts_count: ver.attempts.length,
      pending_attempt_id: pendingOf(v, now)?.attempt_id ?? null,
      last_attempt: last ? attemptView(last) : null,
    };
  }
  throw new ApiError(409, "voice_changed", "The voice was changed at the same time. Please try again.");
}

/** An attempt as the API shows it (no object keys). */
export function attemptView(a: VerificationAttemptRecord) {
  return {
    attempt_id: a.attempt_id ?? null,
    status: a.status ?? (a.accepted ? "accepted" : "rejected"),
    text: a.text,
    date_unix: a.date_unix,
    accepted: a.accepted,
    similarity: a.similarity,
    levenshtein_distance: a.levenshtein_distance,
    reasons: a.reasons ?? [],
    speaker: a.speaker ?? null,
    sentence: a.sentence ?? null,
    alternatives: a.alternatives ?? [],
  };
}

/** POST .../verification: stores the recording, records a pending attempt, starts the workflow. */
export async function submitAttempt(ctx: AppContext, caller: Caller, voiceId: string, file: MultipartFile | undefined, kind: AttemptKind): Promise<{ voice: VoiceRecord; attempt: VerificationAttemptRecord }> {
  if (!file || !file.data.byteLength) throw new ApiError(422, "recording_required", "Send the recording as the multipart field 'recording'.");
  if (file.truncated || file.data.byteLength > VERIFICATION_MAX_BYTES) throw new ApiError(413, "recording_too_large", `The recording exceeds the ${VERIFICATION_MAX_BYTES / 1024 / 1024}mb limit.`);
  const type = sniffAudioType(file.data.subarray(0, 64));
  if (!type) throw new ApiError(400, "unsupported_audio", `File "${file.filename}" is not supported. Please choose an audio file.`);
  await checkRecording(ctx, file.data);
  for (let tries = 0; tries < 5; tries++) {
    const v = await ownVoice(ctx, caller, voiceId);
    const ver = v.verification;
    if (!ver.requires_verification || ver.is_verified) throw alreadyVerified();
    const now = ctx.now();
    const w = attemptWindow(ver, now);
    if (w.left <= 0) throw maxAttemptsReached();
    if (pendingOf(v, now)) throw new ApiError(409, "verification_in_progress", "A verification of this voice is already running. Please wait for its result.");
    if (!ver.challenge) throw new ApiError(400, "no_verification_sentence", "Ask for the sentence to read first (GET /v1/voices/{voice_id}/verification).");
    const attemptId = newId();
    const key = workspaceKey(caller.workspaceId, "voices", voiceId, "verification", `${attemptId}.${type}`);
    const attempt: VerificationAttemptRecord = {
      text: ver.challenge.text,
      date_unix: Math.floor(now / 1000),
      accepted: false,
      similarity: 0,
      levenshtein_distance: 0,
      recording: { recording_id: attemptId, object_key: key, mime_type: file.contentType, size_bytes: file.data.byteLength, upload_date_unix: Math.floor(now / 1000), transcription: "" },
      attempt_id: attemptId,
      status: "pending",
      reasons: [],
      speaker: null,
      sentence: null,
      kind,
      alternatives: [],
    };
    const next: VerificationRecord = {
      ...ver,
      attempts: [...ver.attempts, attempt],
      challenge: null,
      next_attempts_reset_unix_ms: w.resetMs ?? now + WINDOW_MS,
      language: ver.language ?? ver.challenge.language,
    };
    await ctx.blobs.put(key, file.data, file.contentType || "application/octet-stream");
    if (!(await ctx.stores.voices.casVerification(caller.workspaceId, voiceId, v.verification_rev ?? 0, next))) {
      await ctx.blobs.deleteMany([key]);
      continue;
    }
    await ctx.workflows.start("voice-verification", { workspace_id: caller.workspaceId, voice_id: voiceId, attempt_id: attemptId, language: ver.challenge.language }, attemptId);
    return { voice: v, attempt };
  }
  throw new ApiError(409, "voice_changed", "The voice was changed at the same time. Please try again.");
}

/**
 * A recording the workflow could not read, or one past the 15 s, is the caller's mistake, not an
 * attempt: it is decoded here (on the analysis workers, bounded by the 5 MB and the duration, which
 * the decoder checks in the headers first and again while decoding) before an attempt is taken.
 */
async function checkRecording(ctx: AppContext, bytes: Uint8Array): Promise<void> {
  try {
    await ctx.analyzer().decode(bytes, { maxBytes: VERIFICATION_MAX_BYTES, maxSeconds: VERIFICATION_RECORDING_MAX_SECONDS + 0.5, sampleRate: 16_000 });
  } catch (e) {
    if (e instanceof AudioLimitError) {
      if (e.limit === "bytes") throw new ApiError(413, "recording_too_large", `The recording exceeds the ${VERIFICATION_MAX_BYTES / 1024 / 1024}mb limit.`);
      throw new ApiError(400, "recording_too_long", verificationMessages.tooLong);
    }
    if (e instanceof AudioDecodeError) throw new ApiError(400, "audio_unreadable", e.message);
    throw e;
  }
}

/** The attempt once the workflow has decided, or null after `waitMs`. */
export async function waitForDecision(ctx: AppContext, ws: string, voiceId: string, attemptId: string, waitMs = DECISION_WAIT_MS): Promise<{ voice: VoiceRecord; attempt: VerificationAttemptRecord } | null> {
  const until = Date.now() + waitMs;
  for (;;) {
    const v = await ctx.stores.voices.get(ws, voiceId);
    const a = v?.verification.attempts.find((x) => x.attempt_id === attemptId);
    if (!v || !a) return null;
    if (a.status !== "pending") return { voice: v, attempt: a };
    if (Date.now() >= until) return null;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** 400 verification_failed, with the reasons, the attempts left and the alternatives beside the message. */
export class VerificationFailedError extends ApiError {
  constructor(readonly detail: Record<string, unknown> & { message: string }) {
    super(400, "verification_failed", detail.message);
  }
  override toBody(): unknown {
    return { detail: this.detail };
  }
}

/** A decided attempt as the API answers it: 200 when accepted, the spec's errors otherwise. */
export function decisionResponse(v: VoiceRecord, a: VerificationAttemptRecord, nowMs: number) {
  if (a.status === "accepted") return { status: "ok" as const, is_verified: true, attempt: attemptView(a) };
  const w = attemptWindow(v.verification, nowMs);
  const detail = {
    status: "verification_failed",
    message: verificationMessages.attemptFailed,
    reasons: a.reasons?.length ? a.reasons : [verificationMessages.unknownError],
    attempts_left: w.left,
    alternatives: a.alternatives ?? [],
    attempt: attemptView(a),
  };
  return { status: "failed" as const, detail };
}
