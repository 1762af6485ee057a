import { z } from "zod";
import type { StoredVoiceSettings } from "../stores/voices.js";
export { DEFAULT_VOICE_SETTINGS } from "../../media/engine/port.js";

const unit = z.number().min(0).max(1);

/** VoiceSettings on the wire: every field optional or null; ranges as the sliders allow. */
export const VoiceSettingsInput = z.object({
  stability: unit.nullish(),
  similarity_boost: unit.nullish(),
  style: unit.nullish(),
  use_speaker_boost: z.boolean().nullish(),
  speed: z.number().min(0.7).max(1.2).nullish(),
});
export type VoiceSettingsInput = z.infer<typeof VoiceSettingsInput>;

/** Fills what the caller left out from `base`. */
export function mergeSettings(base: StoredVoiceSettings, input: VoiceSettingsInput | null | undefined): StoredVoiceSettings {
  return {
    stability: input?.stability ?? base.stability,
    similarity_boost: input?.similarity_boost ?? base.similarity_boost,
    style: input?.style ?? base.style,
    use_speaker_boost: input?.use_speaker_boost ?? base.use_speaker_boost,
    speed: input?.speed ?? base.speed,
  };
}
