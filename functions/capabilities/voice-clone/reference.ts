/**
 * A reference voice for voice design (eleven_ttv_v3): an uploaded or recorded clip, analysed and
 * fitted like a clone's samples (3 to 300 s, 20 MB), or one of the caller's own voices.
 */
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { VoiceProfile } from "../../media/engine/port.js";
import { AudioDecodeError, AudioLimitError, UNREADABLE_AUDIO_MESSAGE } from "../../media/audio/decode/errors.js";
import { ApiError } from "../../platform/http/errors.js";
import { designMessages, REFERENCE_MAX_BYTES, REFERENCE_MAX_SECONDS, REFERENCE_MIN_SECONDS } from "../../platform/contract/voiceCreation.js";
import { fitProfile } from "../cloning/fit.js";
import { engineRenderer } from "../cloning/render.js";
import { SAMPLE_RATE } from "./samples.js";

export async function referenceFromAudio(ctx: AppContext, bytes: Uint8Array, language: string, signal?: AbortSignal): Promise<VoiceProfile> {
  if (bytes.byteLength > REFERENCE_MAX_BYTES) throw new ApiError(413, "reference_too_large", designMessages.referenceTooLarge);
  const analyzer = ctx.analyzer();
  let decoded;
  try {
    decoded = await analyzer.decode(bytes, { maxBytes: REFERENCE_MAX_BYTES, maxSeconds: REFERENCE_MAX_SECONDS, sampleRate: SAMPLE_RATE, signal });
  } catch (e) {
    if (e instanceof AudioLimitError) {
      if (e.limit === "bytes") throw new ApiError(413, "reference_too_large", designMessages.referenceTooLarge);
      throw new ApiError(400, "reference_too_long", designMessages.referenceTooLong);
    }
    if (e instanceof AudioDecodeError) throw new ApiError(400, "reference_unreadable", UNREADABLE_AUDIO_MESSAGE);
    throw e;
  }
  if (decoded.durationSecs < REFERENCE_MIN_SECONDS) throw new ApiError(400, "reference_too_short", designMessages.referenceTooShort);
  const analysis = await analyzer.analyzeSamples(decoded.samples, SAMPLE_RATE, { signal });
  if (!analysis.speechSecs) throw new ApiError(400, "reference_no_speech", designMessages.referenceTooShort);
  const { profile } = await fitProfile({ analysis, language, seed: 1 }, engineRenderer(ctx, language, signal));
  return profile;
}

/** One of the caller's own voices (not premade, not a library copy). */
export async function referenceFromVoice(ctx: AppContext, caller: Caller, voiceId: string): Promise<VoiceProfile> {
  const v = await ctx.stores.voices.get(caller.workspaceId, voiceId);
  if (!v || v.sharing?.original_voice_id || (v.owner_user_id !== caller.userId && !(await caller.isAdmin()))) {
    throw new ApiError(403, "reference_not_owned", designMessages.referenceNotOwned);
  }
  return v.profile;
}
