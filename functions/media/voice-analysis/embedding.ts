/**
 * The speaker embedding: a fixed-length vector of voice statistics, standardised against a
 * background population and L2-normalised, so that the cosine of two embeddings says how alike
 * two voices sound (1 identical, around 0 unrelated).
 *
 * Raw features (RAW_DIM = 60), all over the speech frames of the recording:
 *   0-18   mean of MFCC c1..c19 (40 mel bands, 60-7600 Hz): the spectral envelope, i.e. timbre
 *  19-37   standard deviation of c1..c19: how much the envelope moves while speaking
 *  38-49   standard deviation of delta c1..c12: articulation speed and extent
 *  50-53   log2 F0: median, 10th and 90th percentile, standard deviation (voiced frames)
 *  54-56   log2 spectral centroid, LTAS tilt (dB/octave), mean log spectral flatness
 *  57-59   log2 of the median F1, F2, F3 (LPC)
 * Each value is standardised with the background population's mean and spread and clipped at
 * +-5 (./background.ts, fitted by scripts/voice-analysis-calibrate.ts), then multiplied by a
 * per-feature gain that favours features which vary between voices more than within one voice
 * (the Fisher ratio, to a fitted power) and by its group's weight. A value the recording does
 * not have (no voiced frames) sits at the background mean.
 */
import { BACKGROUND } from "./background.js";

export { RAW_DIM, FEATURE_GROUPS, type FeatureGroup, type Background } from "./embedding-space.js";
import { RAW_DIM, FEATURE_GROUPS, type Background, type FeatureGroup } from "./embedding-space.js";

export const EMBEDDING_DIM = RAW_DIM;
/** Bumped whenever the features, the background or the weights change: stored embeddings of another version must be recomputed. */
export const EMBEDDING_VERSION = BACKGROUND.version;

const CLIP = 5;

/** Standardised, weighted features before normalisation (the calibration script uses it too). */
export function standardise(raw: ArrayLike<number>, bg: Background = BACKGROUND): Float64Array {
  const out = new Float64Array(RAW_DIM);
  for (const [group, [a, b]] of Object.entries(FEATURE_GROUPS) as Array<[FeatureGroup, readonly [number, number]]>) {
    const w = bg.weights[group];
    for (let d = a; d < b; d++) {
      const v = raw[d];
      const z = Number.isFinite(v) ? (v - bg.mean[d]) / bg.scale[d] : 0;
      out[d] = w * bg.gain[d] * Math.max(-CLIP, Math.min(CLIP, z));
    }
  }
  return out;
}

export function embed(raw: ArrayLike<number>, bg: Background = BACKGROUND): number[] {
  const z = standardise(raw, bg);
  let norm = 0;
  for (let d = 0; d < z.length; d++) norm += z[d] * z[d];
  norm = Math.sqrt(norm);
  return Array.from(z, (v) => (norm > 0 ? v / norm : 0));
}
