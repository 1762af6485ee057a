/**
 * Did a recording say a given sentence? Alignment by synthesis: the engine reads the sentence
 * (and decoy sentences), and each reading is aligned with the recording by dynamic time warping
 * over cepstral frames (MFCC c1-c12 and their deltas, mean- and variance-normalised per utterance
 * so the channel, the speaker's average spectrum and how far the speaker's spectrum moves cancel).
 * The recording is analysed at several vocal-tract warps (WARPS) and the readings are made by
 * several voices (functions/capabilities/voice-verification/scoring.ts), so the fit does not depend
 * on the reader sounding like the engine. The sentence the recording fits best,
 * and by how much, is the answer. Linear in each utterance's length times the band width; run
 * in a worker.
 */
import { toAnalysisRate, ANALYSIS_SAMPLE_RATE } from "../audio/decode/rate.js";
import { applyFilterbank, dctMatrix, dbOf, hamming, melFilterbank, powerSpectrum } from "./dsp.js";
import { segmentsFrom } from "./vad.js";

const SR = ANALYSIS_SAMPLE_RATE;
const FRAME = 400;
const HOP = 160;
const NFFT = 512;
const MEL_BANDS = 26;
const CEPSTRA = 13; // c0..c12; c0 is left out
export const FEATURE_DIM = 24; // c1..c12 and their deltas
const WINDOW = hamming(FRAME);
/** Filterbanks by vocal-tract warp factor (the frequency axis scaled by it), made on first use. */
const MELS = new Map<number, ReturnType<typeof melFilterbank>>();
function melFor(warp: number) {
  let fb = MELS.get(warp);
  if (!fb) MELS.set(warp, (fb = melFilterbank(MEL_BANDS, NFFT, SR, 80 * warp, Math.min(7900, 7600 * warp))));
  return fb;
}
const DCT = dctMatrix(CEPSTRA, MEL_BANDS);


export interface Utterance {
  frames: number;
  /** frames x FEATURE_DIM, row-major. */
  features: Float32Array;
}

/** Cepstral frames of the speech in `samples` (leading and trailing silence cut), mean- and variance-normalised; `warp` scales the frequency axis. */
export function utteranceFeatures(samples: Float32Array, sampleRate: number, warp = 1): Utterance {
  return utteranceFeaturesAt(samples, sampleRate, [warp])[0];
}

/**
 * `utteranceFeatures` at each of `warps`, the frames' power spectra made once (only the
 * filterbank depends on the warp; each warp's features are the same to the bit as on its own).
 */
export function utteranceFeaturesAt(samples: Float32Array, sampleRate: number, warps: readonly number[]): Utterance[] {
  const x = toAnalysisRate(samples, sampleRate);
  const mels = warps.map(melFor);
  const count = x.length >= FRAME ? Math.floor((x.length - FRAME) / HOP) + 1 : 0;
  const energy = new Float64Array(count);
  const d = CEPSTRA - 1;
  const ceps = warps.map(() => new Float64Array(count * d));
  const frame = new Float64Array(FRAME);
  const re = new Float64Array(NFFT);
  const im = new Float64Array(NFFT);
  const power = new Float64Array(NFFT / 2 + 1);
  const mel = new Float64Array(MEL_BANDS);
  for (let f = 0; f < count; f++) {
    let e = 0;
    for (let i = 0; i < FRAME; i++) {
      const v = x[f * HOP + i];
      e += v * v;
      frame[i] = v * WINDOW[i];
    }
    energy[f] = e > 0 ? dbOf(e / FRAME) : -120;
    powerSpectrum(frame, NFFT, re, im, power);
    for (let w = 0; w < warps.length; w++) {
      applyFilterbank(mels[w], power, mel);
      const cep = ceps[w];
      for (let k = 1; k < CEPSTRA; k++) {
        let s = 0;
        for (let m = 0; m < MEL_BANDS; m++) s += DCT[k][m] * Math.log(mel[m] + 1e-10);
        cep[f * d + k - 1] = s;
      }
    }
  }
  const { segments } = segmentsFrom(energy, HOP / SR, FRAME / SR, x.length / SR);
  if (!segments.length) return warps.map(() => ({ frames: 0, features: new Float32Array(0) }));
  const first = Math.max(0, Math.floor(segments[0].start / (HOP / SR)));
  const last = Math.min(count - 1, Math.ceil(segments[segments.length - 1].end / (HOP / SR)));
  const n = Math.max(0, last - first + 1);
  return ceps.map((cep) => {
    const mean = new Float64Array(d);
    for (let f = first; f <= last; f++) for (let k = 0; k < d; k++) mean[k] += cep[f * d + k] / n;
    const sd = new Float64Array(d);
    for (let f = first; f <= last; f++) for (let k = 0; k < d; k++) sd[k] += (cep[f * d + k] - mean[k]) ** 2 / n;
    for (let k = 0; k < d; k++) sd[k] = Math.sqrt(sd[k]) + 1e-3;
    const out = new Float32Array(n * FEATURE_DIM);
    const at = (f: number, k: number) => (cep[Math.max(first, Math.min(last, f)) * d + k] - mean[k]) / sd[k];
    for (let i = 0; i < n; i++) {
      const f = first + i;
      for (let k = 0; k < d; k++) {
        out[i * FEATURE_DIM + k] = at(f, k);
        // Regression over +-2 frames: the spectral movement that spells the words.
        out[i * FEATURE_DIM + d + k] = (2 * (at(f + 2, k) - at(f - 2, k)) + (at(f + 1, k) - at(f - 1, k))) / 10;
      }
    }
    return { frames: n, features: out };
  });
}

/**
 * Dynamic time warping cost per step of the best path from start to end (steps: diagonal,
 * horizontal, vertical), inside a band around the diagonal wide enough for the two to differ in
 * pace by half. Infinity when either is empty or the lengths differ by more than 2.5 times.
 *
 * The inner loop is most of voice verification's CPU (every candidate reading by every reading
 * voice, at every warp): the frame distance is written out over the 24 features (same order of
 * additions, so the same result to the bit as a loop, about twice as fast), the features are read
 * as doubles, and each row resets only the band the row two before it wrote (not the whole row).
 */
export function dtwCost(a: Utterance, b: Utterance): number {
  const n = a.frames;
  const m = b.frames;
  if (!n || !m || Math.max(n, m) > 2.5 * Math.min(n, m)) return Infinity;
  const band = Math.ceil(Math.max(Math.abs(n - m), 0.25 * Math.max(n, m))) + 5;
  const A = Float64Array.from(a.features);
  const B = Float64Array.from(b.features);
  let prev = new Float64Array(m + 1).fill(Infinity);
  let prevLen = new Uint32Array(m + 1);
  let cur = new Float64Array(m + 1).fill(Infinity);
  let curLen = new Uint32Array(m + 1);
  prev[0] = 0;
  // Where `prev` holds a row's values (row 0: its start), and where `cur` still holds the row before that.
  let prevLo = 0;
  let prevHi = 0;
  let curLo = 1;
  let curHi = 0;
  for (let i = 1; i <= n; i++) {
    for (let j = curLo; j <= curHi; j++) cur[j] = Infinity;
    const centre = Math.round((i * m) / n);
    const lo = Math.max(1, centre - band);
    const hi = Math.min(m, centre + band);
    const ai = (i - 1) * FEATURE_DIM;
    for (let j = lo; j <= hi; j++) {
      const bj = (j - 1) * FEATURE_DIM;
      // Euclidean distance of frame i-1 of a and frame j-1 of b (FEATURE_DIM = 24), added in order.
      let v = A[ai] - B[bj];
      let s = v * v;
      v = A[ai + 1] - B[bj + 1]; s += v * v;
      v = A[ai + 2] - B[bj + 2]; s += v * v;
      v = A[ai + 3] - B[bj + 3]; s += v * v;
      v = A[ai + 4] - B[bj + 4]; s += v * v;
      v = A[ai + 5] - B[bj + 5]; s += v * v;
      v = A[ai + 6] - B[bj + 6]; s += v * v;
      v = A[ai + 7] - B[bj + 7]; s += v * v;
      v = A[ai + 8] - B[bj + 8]; s += v * v;
      v = A[ai + 9] - B[bj + 9]; s += v * v;
      v = A[ai + 10] - B[bj + 10]; s += v * v;
      v = A[ai + 11] - B[bj + 11]; s += v * v;
      v = A[ai + 12] - B[bj + 12]; s += v * v;
      v = A[ai + 13] - B[bj + 13]; s += v * v;
      v = A[ai + 14] - B[bj + 14]; s += v * v;
      v = A[ai + 15] - B[bj + 15]; s += v * v;
      v = A[ai + 16] - B[bj + 16]; s += v * v;
      v = A[ai + 17] - B[bj + 17]; s += v * v;
      v = A[ai + 18] - B[bj + 18]; s += v * v;
      v = A[ai + 19] - B[bj + 19]; s += v * v;
      v = A[ai + 20] - B[bj + 20]; s += v * v;
      v = A[ai + 21] - B[bj + 21]; s += v * v;
      v = A[ai + 22] - B[bj + 22]; s += v * v;
      v = A[ai + 23] - B[bj + 23]; s += v * v;
      const d = Math.sqrt(s);
      let best = prev[j - 1];
      let len = prevLen[j - 1];
      if (prev[j] < best) {
        best = prev[j];
        len = prevLen[j];
      }
      if (cur[j - 1] < best) {
        best = cur[j - 1];
        len = curLen[j - 1];
      }
      cur[j] = best + d;
      curLen[j] = len + 1;
    }
    curLo = prevLo;
    curHi = prevHi;
    prevLo = lo;
    prevHi = hi;
    [prev, cur] = [cur, prev];
    [prevLen, curLen] = [curLen, prevLen];
  }
  return Number.isFinite(prev[m]) ? prev[m] / prevLen[m] : Infinity;
}

/**
 * Vocal-tract warps the recording is analysed at (its frequency axis scaled): a reader whose vocal tract is
 * shorter or longer than every reading voice's still lines up with one of them.
 */
export const WARPS = [0.88, 1, 1.12] as const;

/** The recording's alignment cost against each candidate reading (lower fits better): its best over WARPS. */
export function sentenceCosts(recording: Float32Array, recordingRate: number, candidates: Float32Array[], candidateRate: number): number[] {
  return costsAgainst(recording, recordingRate, candidates.map((c) => utteranceFeatures(c, candidateRate)));
}

/**
 * `sentenceCosts` with the candidates' features already made (`utteranceFeatures(c, rate)` each), for a caller that
 * checks many recordings against the same readings (test/voice-verification/outside-measures.ts).
 */
export function costsAgainst(recording: Float32Array, recordingRate: number, candidates: readonly Utterance[]): number[] {
  const warped = utteranceFeaturesAt(recording, recordingRate, WARPS);
  return candidates.map((u) => {
    const cost = Math.min(...warped.map((r) => dtwCost(r, u)));
    return Number.isFinite(cost) ? Math.round(cost * 1000) / 1000 : 1e9;
  });
}
