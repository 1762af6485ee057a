/**
 * The two checks of a verification attempt, as numbers and decisions.
 *
 * Same speaker: the recording's embedding is compared with the voice's samples (their stored
 * analysis) and with the engine's reading of the same sentence in the voice (text-matched: the
 * words' own spectrum cancels out); the score is the mean of the two cosines. The threshold was
 * chosen by scripts/voice-verification-calibrate.ts on one set of unseen speakers and its error
 * rates measured on another (README of this folder).
 *
 * The sentence: the recording is aligned with the engine's readings of the sentence and of four
 * decoys; the margin is how much better the sentence fits than the best decoy, relative to it.
 */
export const SPEAKER_THRESHOLD = 0.61;
export const SENTENCE_MARGIN_THRESHOLD = 0.21;
/**
 * A professional clone before fine-tuning: the engine's reading is not its speaker yet, so the
 * cosine to its samples alone decides, against a threshold calibrated for that score.
 */
export const SAMPLES_ONLY_THRESHOLD = 0.54;

export function speakerScore(toSamples: number, toSentenceReading: number): number {
  return (toSamples + toSentenceReading) / 2;
}

export function sentenceMargin(costs: readonly number[]): { cost: number; bestDecoy: number; margin: number } {
  const [cost, ...decoys] = costs;
  const bestDecoy = Math.min(...decoys);
  return { cost, bestDecoy, margin: bestDecoy > 0 ? (bestDecoy - cost) / bestDecoy : -1 };
}
