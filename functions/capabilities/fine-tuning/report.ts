/**
 * The dataset quality report a professional clone's fine-tuning writes (and the voice's detail
 * panel shows): how much speech there is, how clean and even it is, whether every sample sounds
 * like the same speaker, and what is wrong with which sample, in words a user can act on.
 */
import type { VoiceAnalysis } from "../../media/voice-analysis/port.js";

/** Thresholds of the per-sample problems. */
export const QUALITY = {
  minSnrDb: 15,
  maxClipping: 0.001,
  minLufs: -35,
  maxLufs: -10,
  minSpeakerSimilarity: 0.6,
  minSpeechShare: 0.5,
} as const;

export interface SampleQuality {
  sample_id: string;
  file_name: string;
  /** Audio used for training (after trim and speaker selection), seconds. */
  duration_secs: number;
  speech_secs: number;
  snr_db: number;
  clipping_ratio: number;
  loudness_lufs: number | null;
  f0_median_hz: number | null;
  speaking_rate: number;
  denoised: boolean;
  selected_speaker_ids: string[] | null;
  /** Cosine similarity to the dataset's pooled voice. */
  speaker_similarity: number;
  problems: string[];
}

export interface DatasetQualityReport {
  model_id: string;
  created_at_unix: number;
  total_duration_secs: number;
  speech_secs: number;
  samples: number;
  snr_db: { mean: number; min: number };
  clipping: { max_ratio: number; samples_clipping: number };
  loudness_lufs: { mean: number | null; min: number | null; max: number | null };
  speaker_consistency: { mean: number; min: number; outliers: string[] };
  /** Problems of the whole dataset (not enough speech, uneven loudness). */
  problems: string[];
  per_sample: SampleQuality[];
  fit: {
    similarity_before: number;
    similarity_after: number;
    target: Record<string, number | null>;
    achieved: Record<string, number | null>;
  } | null;
}

export interface AnalysedSample {
  sample_id: string;
  file_name: string;
  duration_secs: number;
  denoised: boolean;
  selected_speaker_ids: string[] | null;
  /** Measured on the audio as recorded (noise, clipping, loudness are the recording's). */
  raw: Pick<VoiceAnalysis, "snrDb" | "clippingRatio" | "loudnessLufs">;
  /** Measured on the audio training uses (after noise removal). */
  clean: VoiceAnalysis;
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

export function sampleProblems(s: Omit<SampleQuality, "problems">): string[] {
  const out: string[] = [];
  if (s.snr_db < QUALITY.minSnrDb) out.push(`Background noise is high (signal-to-noise ${round(s.snr_db, 1)} dB): record in a quieter place, or turn on background noise removal for this sample.`);
  if (s.clipping_ratio > QUALITY.maxClipping) out.push(`The audio clips (${round(s.clipping_ratio * 100, 2)}% of samples at full scale): lower the microphone's input level.`);
  if (s.loudness_lufs !== null && s.loudness_lufs < QUALITY.minLufs) out.push(`Very quiet (${round(s.loudness_lufs, 1)} LUFS): record closer to the microphone.`);
  if (s.loudness_lufs !== null && s.loudness_lufs > QUALITY.maxLufs) out.push(`Very loud (${round(s.loudness_lufs, 1)} LUFS): lower the input level.`);
  if (s.speaker_similarity < QUALITY.minSpeakerSimilarity) out.push("Does not sound like the same speaker as the other samples: remove it, or separate the speakers and select yours.");
  if (s.duration_secs > 0 && s.speech_secs / s.duration_secs < QUALITY.minSpeechShare) out.push(`Mostly silence (${Math.round((100 * s.speech_secs) / s.duration_secs)}% speech): trim the pauses.`);
  return out;
}

export function qualityReport(modelId: string, nowUnix: number, samples: AnalysedSample[], pooledEmbedding: number[]): DatasetQualityReport {
  const per: SampleQuality[] = samples.map((s) => {
    const sim = s.clean.embedding.reduce((acc, v, i) => acc + v * (pooledEmbedding[i] ?? 0), 0);
    const q = {
      sample_id: s.sample_id,
      file_name: s.file_name,
      duration_secs: round(s.duration_secs, 3),
      speech_secs: round(s.clean.speechSecs, 3),
      snr_db: s.raw.snrDb,
      clipping_ratio: s.raw.clippingRatio,
      loudness_lufs: s.raw.loudnessLufs,
      f0_median_hz: s.clean.f0MedianHz,
      speaking_rate: s.clean.speakingRate,
      denoised: s.denoised,
      selected_speaker_ids: s.selected_speaker_ids,
      speaker_similarity: round(sim, 3),
    };
    return { ...q, problems: sampleProblems(q) };
  });
  const total = per.reduce((t, s) => t + s.duration_secs, 0);
  const speech = per.reduce((t, s) => t + s.speech_secs, 0);
  const weighted = (pick: (s: SampleQuality) => number | null) => {
    let acc = 0, n = 0;
    for (const s of per) {
      const v = pick(s);
      if (v === null) continue;
      acc += v * s.speech_secs;
      n += s.speech_secs;
    }
    return n ? round(acc / n) : null;
  };
  const louds = per.map((s) => s.loudness_lufs).filter((x): x is number => x !== null);
  const problems: string[] = [];
  if (speech < 30 * 60) problems.push(`${Math.round(speech / 60)} minutes of speech: at least 30 minutes is recommended for a good clone, 2 hours for the best.`);
  if (louds.length > 1 && Math.max(...louds) - Math.min(...louds) > 10) problems.push("Loudness varies by more than 10 LU between samples: record at one level and distance.");
  const sims = per.map((s) => s.speaker_similarity);
  return {
    model_id: modelId,
    created_at_unix: nowUnix,
    total_duration_secs: round(total, 1),
    speech_secs: round(speech, 1),
    samples: per.length,
    snr_db: { mean: weighted((s) => s.snr_db) ?? 0, min: per.length ? Math.min(...per.map((s) => s.snr_db)) : 0 },
    clipping: { max_ratio: per.length ? Math.max(...per.map((s) => s.clipping_ratio)) : 0, samples_clipping: per.filter((s) => s.clipping_ratio > QUALITY.maxClipping).length },
    loudness_lufs: { mean: weighted((s) => s.loudness_lufs), min: louds.length ? Math.min(...louds) : null, max: louds.length ? Math.max(...louds) : null },
    speaker_consistency: {
      mean: sims.length ? round(sims.reduce((a, b) => a + b, 0) / sims.length, 3) : 0,
      min: sims.length ? Math.min(...sims) : 0,
      outliers: per.filter((s) => s.speaker_similarity < QUALITY.minSpeakerSimilarity).map((s) => s.sample_id),
    },
    problems,
    per_sample: per,
    fit: null,
  };
}
