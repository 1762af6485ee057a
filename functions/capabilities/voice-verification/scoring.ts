/**
 * The two checks of a verification attempt, as numbers and decisions. The sentence threshold was chosen on
 * the tune part of a pool of speech Timbre's engine did not make (flite and Festival voices, with
 * noise: test/support/outside-speech.ts) and measured on its held-out part
 * (scripts/voice-verification-outside.ts, scripts/voice-verification-speakers.ts; figures in
 * functions/media/voice-analysis/README.md).
 *
 * Same speaker: the recording's embedding is compared with the voice's samples (their stored analysis)
 * and with the engine's reading of the same sentence in the voice, each as a cosine in the speaker space
 * (./speaker-space.ts: a projection that discounts what varies within one speaker), and the score is the
 * mean of the two. The space and both thresholds were fitted and chosen on the tune part of a pool of
 * outside speakers with genuine variation (the browser's recording path among it) and engine speakers
 * (scripts/voice-verification-speaker-space.ts; docs/decisions/2026-12-07-speaker-space-browser.md;
 * docs/decisions/2026-11-29-speaker-check.md).
 *
 * The sentence: the recording is aligned with the engine's readings of the sentence and of four
 * decoys, each read by several voices of different gender and pitch (READING_VOICES plus the
 * voice's own profile) and aligned at three vocal-tract warps; each sentence's cost is its best fit,
 * and the margin is how much better the sentence fits than the best decoy, relative to it.
 */
import type { VoiceProfile } from "../../media/engine/port.js";
import { premadeVoiceRecords } from "../../platform/domain/premadeVoices.js";
import { SPACE_SAMPLES_ONLY_THRESHOLD, SPACE_SPEAKER_THRESHOLD, SPEAKER_SPACE } from "./speaker-space-data.js";
import { spaceSimilarity } from "./speaker-space.js";

/**
 * The workflow's speaker check scores in the fitted speaker space, at the thresholds chosen on its out-of-fold tune
 * scores. Since 2026-12-07 the pool it is fitted on holds the web app's recording path (48 kHz, Opus in WebM, the
 * server's decoder) among its genuine conditions; genuine readings recorded through Chromium's fake microphone score
 * 0.09-0.17 above the threshold (docs/decisions/2026-12-07-speaker-space-browser.md).
 */
export const SPEAKER_THRESHOLD = SPACE_SPEAKER_THRESHOLD;
export const SENTENCE_MARGIN_THRESHOLD = 0.05;
/**
 * A professional clone before fine-tuning: the engine's reading is not its speaker yet, so the
 * recording against its samples alone decides, against a threshold calibrated for that score.
 */
export const SAMPLES_ONLY_THRESHOLD = SPACE_SAMPLES_ONLY_THRESHOLD;

/** How alike two voice embeddings are as speakers, as the workflow scores them: their cosine in the speaker space. */
export function speakerSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return spaceSimilarity(SPEAKER_SPACE, a, b);
}

/** The speaker space's thresholds and score under their own names (the measuring scripts and tests use these). */
export const SPACE_THRESHOLDS = { fitted: SPACE_SPEAKER_THRESHOLD, samplesOnly: SPACE_SAMPLES_ONLY_THRESHOLD } as const;
export const spaceSpeakerSimilarity = speakerSimilarity;

export function speakerScore(toSamples: number, toSentenceReading: number): number {
  return (toSamples + toSentenceReading) / 2;
}

/** Premade voices that read the sentence for alignment, per language: both genders, low and high voices. */
const READERS: Record<string, string[]> = {
  en: ["Avery", "Marcus", "Harriet", "Desmond"],
};

/** The profiles the sentence and its decoys are read with: the voice's own, then the language's premade readers. */
export function readingVoices(language: string, own: VoiceProfile): VoiceProfile[] {
  const premade = premadeVoiceRecords();
  const names = READERS[language];
  const chosen = names ? premade.filter((r) => names.includes(r.name)) : premade.filter((r) => r.profile.language === language);
  const fallback = chosen.length >= 2 ? chosen : premade.filter((r) => READERS.en.includes(r.name));
  return [own, ...fallback.map((r) => ({ ...(r.profile as VoiceProfile), language: own.language }))];
}

/**
 * The margin of the sentence over its decoys. `costs` holds, for each candidate (the sentence first,
 * then the decoys), its alignment cost with each reading voice, `voices` costs per candidate; a
 * candidate's cost is its best one.
 */
export function sentenceMargin(costs: readonly number[], voices = 1): { cost: number; bestDecoy: number; margin: number } {
  const perCandidate: number[] = [];
  for (let i = 0; i < costs.length; i += voices) perCandidate.push(Math.min(...costs.slice(i, i + voices)));
  const [cost, ...decoys] = perCandidate;
  const bestDecoy = Math.min(...decoys);
  return { cost, bestDecoy, margin: bestDecoy > 0 ? (bestDecoy - cost) / bestDecoy : -1 };
}
