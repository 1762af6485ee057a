import { resample } from "../resample.js";
import { isolateVoice } from "./isolate.js";
import type { FrameDenoiser } from "./rnnoise-fast.js";
import { RNNOISE_RATE } from "./rnnoise.js";

/**
 * How the voice isolator's quality is measured (scripts/sts-evaluate.ts --isolation, and
 * isolate.test.ts): clean speech at 22.05 kHz is mixed with noise at a given SNR, upsampled to
 * 48 kHz as the API does, isolated, and brought back. Four figures per clip:
 *
 * - `sampleGain`: output SNR sample for sample against the clean speech, 10 log10(sum s^2 /
 *   sum (y - s)^2), minus the input's. Any speech the filter removes counts as noise here.
 * - `scaleInvariantGain`: the same with the clean speech scaled by the least-squares fit to the
 *   output (SI-SNR), so a uniform level change is not counted as error.
 * - `outputSnrGain`: the output's speech-to-noise ratio by phase inversion (Hagerman and
 *   Olofsson's method for non-linear noise reduction): the isolator runs on s + n and on s - n;
 *   half their sum is what it made of the speech, half their difference what it let through of
 *   the noise. 10 log10(speech power / noise power) minus the input SNR.
 * - `speechComponentSnr`: the distortion: that speech component against the clean speech
 *   (least-squares gain), in dB. High means the speech came through unchanged.
 */
export interface IsolationFigures {
  inputSnr: number;
  sampleGain: number;
  scaleInvariantGain: number;
  outputSnrGain: number;
  speechComponentSnr: number;
}

export type NoiseKind = "white" | "pink" | "brown" | "hum";

/**
 * Noises made here, deterministic per seed: white, pink (filtered white), brown (a leaky random
 * walk) and 120 Hz mains hum with its harmonic over a little white noise. The white source is a
 * 32-bit LCG read from its high bits (a float LCG once fell into a 419-sample cycle: a buzz).
 */
export function noise(kind: NoiseKind, n: number, seed: number, fs = 22_050): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  let b0 = 0;
  let b1 = 0;
  let br = 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const w = s / 2 ** 31 - 1;
    if (kind === "white") out[i] = w;
    else if (kind === "pink") {
      b0 = 0.99765 * b0 + w * 0.099;
      b1 = 0.963 * b1 + w * 0.2965;
      out[i] = b0 + b1 + w * 0.18;
    } else if (kind === "brown") {
      br = 0.995 * br + w * 0.1;
      out[i] = br;
    } else out[i] = Math.sin((2 * Math.PI * 120 * i) / fs) + 0.5 * Math.sin((2 * Math.PI * 240 * i) / fs) + 0.3 * w;
  }
  return out;
}

/** Babble: several talkers summed, each at the same level, looped to `n` samples. */
export function babble(talkers: Float32Array[], n: number): Float32Array {
  const out = new Float32Array(n);
  for (const [t, x] of talkers.entries()) {
    let p = 0;
    for (const v of x) p += v * v;
    const g = 1 / Math.sqrt(p / x.length || 1);
    // Each talker starts at a different point so pauses do not line up.
    const offset = Math.floor((t * x.length) / talkers.length);
    for (let i = 0; i < n; i++) out[i] += x[(i + offset) % x.length] * g;
  }
  return out;
}

export function snrDb(clean: Float32Array, x: Float32Array): number {
  let s = 0;
  let e = 0;
  for (let i = 0; i < clean.length; i++) {
    s += clean[i] ** 2;
    e += (x[i] - clean[i]) ** 2;
  }
  return 10 * Math.log10(s / e);
}

/** SNR of `x` against `clean` scaled by the least-squares gain a = <x, clean> / <clean, clean>. */
export function scaleInvariantSnrDb(clean: Float32Array, x: Float32Array): number {
  let sx = 0;
  let ss = 0;
  for (let i = 0; i < clean.length; i++) {
    sx += clean[i] * x[i];
    ss += clean[i] * clean[i];
  }
  const a = sx / ss;
  let t = 0;
  let e = 0;
  for (let i = 0; i < clean.length; i++) {
    const c = a * clean[i];
    t += c * c;
    e += (x[i] - c) ** 2;
  }
  return 10 * Math.log10(t / e);
}

/** `clean` plus `n` scaled so that the mix has `db` SNR. Also returns the scaled noise. */
export function mixAt(clean: Float32Array, n: Float32Array, db: number): Float32Array {
  return mix(clean, n, db).noisy;
}

export function mix(clean: Float32Array, n: Float32Array, db: number): { noisy: Float32Array; noise: Float32Array } {
  let ps = 0;
  let pn = 0;
  for (let i = 0; i < clean.length; i++) {
    ps += clean[i] ** 2;
    pn += n[i] ** 2;
  }
  const g = Math.sqrt(ps / pn / 10 ** (db / 10));
  const scaled = n.map((v) => v * g);
  return { noisy: clean.map((v, i) => v + scaled[i]), noise: scaled };
}

/** The isolator as the API runs it on audio at `fs`: up to 48 kHz, isolated, back to `fs`. */
export function isolateAt(x: Float32Array, fs: number, rnnoise: FrameDenoiser): Float32Array {
  const at48 = fs === RNNOISE_RATE ? x : resample(x, fs, RNNOISE_RATE);
  const out = new Float32Array(at48.length);
  let o = 0;
  for (const b of isolateVoice(at48, rnnoise)) {
    out.set(b, o);
    o += b.length;
  }
  const back = fs === RNNOISE_RATE ? out : resample(out, RNNOISE_RATE, fs);
  return back.subarray(0, x.length);
}

/** The four figures for `clean` mixed with `noiseSamples` at `db` SNR. */
export function measureIsolation(clean: Float32Array, noiseSamples: Float32Array, db: number, fs: number, rnnoise: FrameDenoiser): IsolationFigures {
  const { noisy, noise: n } = mix(clean, noiseSamples, db);
  const inverted = clean.map((v, i) => v - n[i]);
  const inputSnr = snrDb(clean, noisy);
  const y = isolateAt(noisy, fs, rnnoise);
  const yInv = isolateAt(inverted, fs, rnnoise);
  const speech = new Float32Array(y.length);
  let ps = 0;
  let pn = 0;
  for (let i = 0; i < y.length; i++) {
    speech[i] = (y[i] + yInv[i]) / 2;
    const residual = (y[i] - yInv[i]) / 2;
    ps += speech[i] ** 2;
    pn += residual ** 2;
  }
  return {
    inputSnr,
    sampleGain: snrDb(clean, y) - inputSnr,
    scaleInvariantGain: scaleInvariantSnrDb(clean, y) - scaleInvariantSnrDb(clean, noisy),
    outputSnrGain: 10 * Math.log10(ps / pn) - inputSnr,
    speechComponentSnr: scaleInvariantSnrDb(clean, speech),
  };
}
