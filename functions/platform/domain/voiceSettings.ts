import { z } from "zod";
import type { StoredVoiceSettings } from "../stores/voices.js";
export { DEFAULT_VOICE_SETTINGS } from "../../media/engine/port.js";
import { ApiError } from "../http/errors.js";
import { VOLUME_DB_MAX, VOLUME_DB_MIN } from "../../media/audio/gain.js";
export { VOLUME_DB_MAX, VOLUME_DB_MIN };

export const volumeMessage = `Volume must be between ${VOLUME_DB_MIN} dB and +${VOLUME_DB_MAX} dB.`;

const unit = z.number().min(0).max(1);

/** VoiceSettings on the wire: every field optional or null; ranges as the sliders allow. */
export const VoiceSettingsInput = z.object({
  stability: unit.nullish(),
  similarity_boost: unit.nullish(),
  style: unit.nullish(),
  use_speaker_boost: z.boolean().nullish(),
  speed: z.number().min(0.7).max(1.2).nullish(),
  /** Output gain in dB (Timbre's field; docs/decisions/2026-11-29-volume-in-voice-settings.md). */
  //  Its range is checked in mergeSettings (a 400 with volumeMessage), before any synthesis.
  volume: z.number().nullish(),
  /** Timbre's own: the voice isolator over the generated audio (capabilities/speech/generate.ts). Per request, never stored. */
  remove_background_noise: z.boolean().nullish(),
});
export type VoiceSettingsInput = z.infer<typeof VoiceSettingsInput>;

/** Fills what the caller left out from `base`. */
export function mergeSettings(base: StoredVoiceSettings, input: VoiceSettingsInput | null | undefined): StoredVoiceSettings {
  const v = input?.volume;
  if (v !== null && v !== undefined && !(v >= VOLUME_DB_MIN && v <= VOLUME_DB_MAX)) throw new ApiError(400, "invalid_volume", volumeMessage);
  return {
    stability: input?.stability ?? base.stability,
    similarity_boost: input?.similarity_boost ?? base.similarity_boost,
    style: input?.style ?? base.style,
    use_speaker_boost: input?.use_speaker_boost ?? base.use_speaker_boost,
    speed: input?.speed ?? base.speed,
    ...((input?.volume ?? base.volume) ? { volume: (input?.volume ?? base.volume)! } : {}),
    ...(input?.remove_background_noise ? { remove_background_noise: true } : {}),
  };
}
