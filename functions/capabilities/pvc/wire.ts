import type { VoiceRecord, VoiceSampleRecord } from "../../platform/stores/voices.js";

/** A sample as the wire shows it (contract §2 `VoiceSample`, as `voices.get` lists them). */
export function sampleWire(v: VoiceRecord, s: VoiceSampleRecord) {
  return {
    sample_id: s.sample_id,
    file_name: s.file_name,
    mime_type: s.mime_type,
    size_bytes: s.size_bytes,
    hash: s.hash,
    duration_secs: s.duration_secs,
    remove_background_noise: s.remove_background_noise,
    has_isolated_audio: s.isolated_object_key !== null,
    has_isolated_audio_preview: s.isolated_object_key !== null,
    speaker_separation: s.speaker_separation ? { voice_id: v.voice_id, sample_id: s.sample_id, ...s.speaker_separation } : null,
    trim_start: s.trim_start,
    trim_end: s.trim_end,
    /** Timbre: the language the sample was added in (the voice's then); null when not known. */
    language: s.language ?? null,
  };
}
