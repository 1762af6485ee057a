/**
 * Frame features for speaker separation: one pass of 25 ms frames every 10 ms over the 16 kHz
 * signal gives each frame's level, its cepstrum (MFCC c1..c19: the vocal tract, i.e. who is
 * speaking) and, on voiced frames, its pitch. Everything later (activity, window embeddings,
 * resegmentation) reads these arrays, so the audio is transformed once.
 */
import { ANALYSIS_SAMPLE_RATE } from "../audio/decode/rate.js";
import { applyFilterbank, dbOf, dctMatrix, hamming, melFilterbank, powerSpectrum } from "../voice-analysis/dsp.js";
import { PITCH_RATE, toPitchRate, YinTracker } from "../voice-analysis/pitch.js";

export const SR = ANALYSIS_SAMPLE_RATE;
export const FRAME = 400;
export const HOP = 160;
/** Seconds per frame step. */
export const FRAME_SECS = HOP / SR;
const NFFT = 512;
const MEL_BANDS = 40;
/** c1..c19 (c0, the level, says nothing about the speaker). */
export const CEPS = 19;

const WINDOW = hamming(FRAME);
const MEL = melFilterbank(MEL_BANDS, NFFT, SR, 60, 7600);
const DCT = dctMatrix(CEPS + 1, MEL_BANDS);

export interface FrameFeatures {
  count: number;
  energyDb: Float64Array;
  /** count x CEPS, row-major. */
  ceps: Float32Array;
  /** Hz, 0 on unvoiced frames (computed on every second frame, held for the next). */
  f0: Float32Array;
}

/** Frame features of a 16 kHz signal. `active` (optional) limits the costly pitch to speech frames. */
export function frameFeatures(x: Float32Array, opts: { pitch?: boolean } = {}): FrameFeatures {
  const count = x.length >= FRAME ? Math.floor((x.length - FRAME) / HOP) + 1 : 0;
  const energyDb = new Float64Array(count);
  const ceps = new Float32Array(count * CEPS);
  const f0 = new Float32Array(count);
  const frame = new Float64Array(FRAME);
  const re = new Float64Array(NFFT);
  const im = new Float64Array(NFFT);
  const power = new Float64Array(NFFT / 2 + 1);
  const mel = new Float64Array(MEL_BANDS);
  for (let f = 0; f < count; f++) {
    const s = f * HOP;
    let e = 0;
    for (let i = 0; i < FRAME; i++) {
      const v = x[s + i];
      e += v * v;
      frame[i] = v * WINDOW[i];
    }
    energyDb[f] = e > 0 ? dbOf(e / FRAME) : -120;
    powerSpectrum(frame, NFFT, re, im, power);
    applyFilterbank(MEL, power, mel);
    for (let m = 0; m < MEL_BANDS; m++) mel[m] = Math.log(mel[m] + 1e-10);
    for (let k = 1; k <= CEPS; k++) {
      const row = DCT[k];
      let acc = 0;
      for (let m = 0; m < MEL_BANDS; m++) acc += row[m] * mel[m];
      ceps[f * CEPS + k - 1] = acc;
    }
  }
  if (opts.pitch !== false && count) {
    const yin = new YinTracker(toPitchRate(x, SR));
    const ratio = PITCH_RATE / SR;
    for (let f = 0; f < count; f += 2) {
      const hz = yin.at(Math.round(f * HOP * ratio));
      f0[f] = hz;
      if (f + 1 < count) f0[f + 1] = hz;
    }
  }
  return { count, energyDb, ceps, f0 };
}
