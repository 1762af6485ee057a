import type { VoiceAnalysis } from "../../media/voice-analysis/port.js";

/**
 * What a clone keeps of its samples' analysis, on the voice record: the whole-voice analysis
 * (without the segment list; verification compares a recording with its embedding), which
 * samples it covers, and how the engine was fitted. Later engines (a neural one) start from the
 * samples and this.
 */
export interface StoredSampleAnalysis {
  sample_id: string;
  /** Decoded duration (what the limits were checked on). */
  duration_secs: number;
  denoised: boolean;
}

export interface StoredVoiceAnalysis {
  /** VoiceAnalysis.embeddingVersion: embeddings of another version are not compared. */
  embedding_version: number;
  analysed_at_unix: number;
  /** Background noise was removed (RNNoise) before analysis. */
  denoised: boolean;
  summary: Omit<VoiceAnalysis, "segments">;
  samples: StoredSampleAnalysis[];
  /** The fit's own figures (fitted vs measured), for support and the README's measurements. */
  fit: {
    renders: number;
    f0_median_hz: number | null;
    speaking_rate: number;
    similarity: number;
  } | null;
}
