/**
 * Frame features for aligning speech to speech: cepstrum c1..c12 and their deltas (how the
 * spectrum moves), every 10 ms at 16 kHz, normalised per recording (mean and spread over its
 * speech) so that two different voices reading the same words look alike: what remains is
 * mostly what is being said. Silent frames are marked so both sides can leave pauses out.
 */
import { CEPS, frameFeatures } from "../separation/features.js";
import { activityThreshold } from "../voice-analysis/vad.js";

export const ALIGN_DIM = 24;
const STATIC = 12;

export interface AlignFeatures {
  /** Frames kept (speech), ALIGN_DIM each, row-major. */
  x: Float32Array;
  count: number;
  /** Original frame index (10 ms steps from the start) of each kept frame. */
  frame: Int32Array;
  /** Frames in the recording, kept or not. */
  totalFrames: number;
}

/** Features of a 16 kHz recording, keeping only frames louder than its own silence. */
export function alignFeatures(x16k: Float32Array): AlignFeatures {
  const f = frameFeatures(x16k, { pitch: false });
  const threshold = f.count ? activityThreshold(f.energyDb) : 0;
  const keep: number[] = [];
  for (let i = 0; i < f.count; i++) if (f.energyDb[i] > threshold) keep.push(i);
  const stat = new Float32Array(f.count * STATIC);
  for (let i = 0; i < f.count; i++) for (let k = 0; k < STATIC; k++) stat[i * STATIC + k] = f.ceps[i * CEPS + k];
  return normalise(stat, keep, f.count);
}

function normalise(stat: Float32Array, keep: number[], total: number): AlignFeatures {
  const n = keep.length;
  const x = new Float32Array(n * ALIGN_DIM);
  const at = (i: number, k: number) => stat[Math.max(0, Math.min(total - 1, i)) * STATIC + k];
  for (let r = 0; r < n; r++) {
    const i = keep[r];
    for (let k = 0; k < STATIC; k++) {
      x[r * ALIGN_DIM + k] = at(i, k);
      // Delta by regression over +-2 frames of the original timeline.
      x[r * ALIGN_DIM + STATIC + k] = (2 * (at(i + 2, k) - at(i - 2, k)) + (at(i + 1, k) - at(i - 1, k))) / 10;
    }
  }
  for (let d = 0; d < ALIGN_DIM; d++) {
    let s = 0, s2 = 0;
    for (let r = 0; r < n; r++) {
      const v = x[r * ALIGN_DIM + d];
      s += v;
      s2 += v * v;
    }
    const m = n ? s / n : 0;
    const sd = n > 1 ? Math.sqrt(Math.max(1e-9, s2 / n - m * m)) : 1;
    for (let r = 0; r < n; r++) x[r * ALIGN_DIM + d] = (x[r * ALIGN_DIM + d] - m) / sd;
  }
  return { x, count: n, frame: Int32Array.from(keep), totalFrames: total };
}
