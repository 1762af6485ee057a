/**
 * The pitch track of the conversion: YIN (de Cheveigné & Kawahara, 2002) every 10 ms on an 8 kHz
 * copy, with the difference function computed through one FFT per frame (linear in the audio,
 * ~10x cheaper than the direct sum), then cleaned: short voiced blips dropped, one-frame gaps
 * bridged, octave jumps folded back to the local median, a 3-frame median on log F0.
 */
import { ComplexFFT } from "./fft.js";
import { resample } from "../audio/resample.js";

export const F0_RATE = 8000;
export const FRAME_SECONDS = 0.01;
export const MIN_F0 = 60;
export const MAX_F0 = 500;
const WINDOW = 240; // 30 ms at 8 kHz: 1.8 periods of the lowest pitch
const MAX_LAG = Math.ceil(F0_RATE / MIN_F0);
const MIN_LAG = Math.floor(F0_RATE / MAX_F0);
const N = 512; // >= WINDOW + MAX_LAG
const THRESHOLD = 0.2;
const FALLBACK = 0.4;

export interface F0Track {
  /** Hz per frame (frame i is centred at i * FRAME_SECONDS); 0 where unvoiced. */
  f0: Float32Array;
  /** YIN's normalised difference at the period (0 = perfectly periodic, 1 = noise). */
  dip: Float32Array;
  /** Frame level, dB (mean square of the 8 kHz window). */
  levelDb: Float32Array;
}

export function frameCount(samples: number, sampleRate: number): number {
  return Math.max(1, Math.ceil(samples / sampleRate / FRAME_SECONDS));
}

/** Raw per-frame YIN on an 8 kHz signal; frames [from, to). */
export class YinFft {
  private readonly fft = new ComplexFFT(N);
  private readonly re = new Float64Array(N);
  private readonly im = new Float64Array(N);
  private readonly cr = new Float64Array(N);
  private readonly ci = new Float64Array(N);
  private readonly cmnd = new Float64Array(MAX_LAG + 2);
  private readonly prefix: Float64Array;

  constructor(private readonly x: Float32Array) {
    this.prefix = new Float64Array(x.length + 1);
    for (let i = 0; i < x.length; i++) this.prefix[i + 1] = this.prefix[i] + x[i] * x[i];
  }

  private energy(a: number, b: number): number {
    const lo = Math.max(0, Math.min(this.x.length, a));
    const hi = Math.max(0, Math.min(this.x.length, b));
    return this.prefix[hi] - this.prefix[lo];
  }

  /** [f0 Hz or 0, dip, level dB] for the frame centred at `centre` (8 kHz samples). */
  frame(centre: number): [number, number, number] {
    const { x, re, im, cr, ci, cmnd } = this;
    const start = Math.round(centre - (WINDOW + MAX_LAG) / 2);
    const e1 = this.energy(start, start + WINDOW);
    const level = 10 * Math.log10(e1 / WINDOW + 1e-12);
    if (e1 <= 1e-10) return [0, 1, level];
    // a = window, b = window + lags; packed as re/im of one complex FFT.
    for (let i = 0; i < N; i++) {
      const j = start + i;
      const v = j >= 0 && j < x.length ? x[j] : 0;
      re[i] = i < WINDOW ? v : 0;
      im[i] = i < WINDOW + MAX_LAG ? v : 0;
    }
    this.fft.forward(re, im);
    // A = (Z[k] + conj Z[N-k]) / 2, B = (Z[k] - conj Z[N-k]) / 2j; cross spectrum conj(A) * B.
    for (let k = 0; k < N; k++) {
      const m = (N - k) & (N - 1);
      const ar = (re[k] + re[m]) / 2;
      const ai = (im[k] - im[m]) / 2;
      const br = (im[k] + im[m]) / 2;
      const bi = -(re[k] - re[m]) / 2;
      cr[k] = ar * br + ai * bi;
      ci[k] = ar * bi - ai * br;
    }
    // Inverse FFT by conjugation (only the real part is read, and the scale is applied below).
    for (let k = 0; k < N; k++) ci[k] = -ci[k];
    this.fft.forward(cr, ci);
    let running = 0;
    cmnd[0] = 1;
    for (let lag = 1; lag <= MAX_LAG + 1; lag++) {
      const r = cr[lag] / N;
      const e2 = this.energy(start + lag, start + lag + WINDOW);
      const d = Math.max(0, e1 + e2 - 2 * r);
      running += d;
      cmnd[lag] = running > 0 ? (d * lag) / running : 1;
    }
    let lag = 0;
    let best = MIN_LAG;
    for (let l = MIN_LAG; l <= MAX_LAG; l++) {
      if (cmnd[l] < cmnd[best]) best = l;
      if (cmnd[l] < THRESHOLD) {
        while (l + 1 <= MAX_LAG && cmnd[l + 1] < cmnd[l]) l++;
        lag = l;
        break;
      }
    }
    if (!lag && cmnd[best] < FALLBACK) lag = best;
    if (!lag) return [0, Math.min(1, cmnd[best]), level];
    const a = cmnd[lag - 1];
    const b = cmnd[lag];
    const c = cmnd[lag + 1];
    const den = a - 2 * b + c;
    const shift = den > 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / den)) : 0;
    return [F0_RATE / (lag + shift), Math.min(1, Math.max(0, b)), level];
  }
}

export function toF0Rate(samples: Float32Array, sampleRate: number): Float32Array {
  return sampleRate === F0_RATE ? samples : resample(samples, sampleRate, F0_RATE, { attenuationDb: 60 });
}

/** Frames of context each side that cleaning needs: results more than this from a window's edge are final. */
export const CLEAN_CONTEXT = Math.ceil(0.125 / FRAME_SECONDS);
const OCTAVE_SPAN = Math.round(0.1 / FRAME_SECONDS);

/**
 * The cleaned pitch track of a whole signal. `silenceDb` (relative to the loudest frame) marks
 * frames too quiet to be voiced.
 */
export function trackF0(samples: Float32Array, sampleRate: number, opts: { silenceDb?: number } = {}): F0Track {
  const x = toF0Rate(samples, sampleRate);
  const frames = frameCount(samples.length, sampleRate);
  const yin = new YinFft(x);
  const raw = new Float32Array(frames);
  const dip = new Float32Array(frames);
  const levelDb = new Float32Array(frames);
  let loudest = -Infinity;
  for (let i = 0; i < frames; i++) {
    const [f, d, l] = yin.frame(i * FRAME_SECONDS * F0_RATE);
    raw[i] = f;
    dip[i] = d;
    levelDb[i] = l;
    loudest = Math.max(loudest, l);
  }
  const f0 = cleanRange(raw, levelDb, loudest - (opts.silenceDb ?? 45), 0, frames, frames);
  return { f0, dip, levelDb };
}

/**
 * The cleaned track for frames [from, to), computed only from raw frames within CLEAN_CONTEXT
 * of that range, so a track cleaned block by block equals the track cleaned whole (`known` is
 * how many raw frames exist; the end of the signal is the only edge that may be nearer).
 * Stages, each from the previous one's values: quiet frames unvoiced; octave jumps folded back
 * to the median of voiced frames within ±100 ms; one-frame gaps bridged; voiced runs under
 * 15 ms dropped; a 3-frame median inside voiced runs.
 */
export function cleanRange(raw: Float32Array, levelDb: Float32Array, gateDb: number, from: number, to: number, known: number): Float32Array {
  const lo = Math.max(0, from - CLEAN_CONTEXT);
  const hi = Math.min(known, to + CLEAN_CONTEXT);
  const n = hi - lo;
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = levelDb[lo + i] < gateDb ? 0 : raw[lo + i];
  const b = new Float32Array(n);
  const near: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!(a[i] > 0)) continue;
    near.length = 0;
    for (let j = Math.max(0, i - OCTAVE_SPAN); j <= Math.min(n - 1, i + OCTAVE_SPAN); j++) if (a[j] > 0) near.push(Math.log2(a[j]));
    near.sort((x, y) => x - y);
    const diff = Math.log2(a[i]) - near[near.length >> 1];
    b[i] = diff > 0.75 ? a[i] / 2 : diff < -0.75 ? a[i] * 2 : a[i];
  }
  const c = b.slice();
  for (let i = 1; i < n - 1; i++) if (b[i] === 0 && b[i - 1] > 0 && b[i + 1] > 0) c[i] = Math.sqrt(b[i - 1] * b[i + 1]);
  const d = c.slice();
  for (let i = 0; i < n; ) {
    if (c[i] === 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < n && c[j] > 0) j++;
    if ((j - i) * FRAME_SECONDS < 0.015) d.fill(0, i, j);
    i = j;
  }
  const e = d.slice();
  for (let i = 1; i < n - 1; i++) {
    if (!(d[i - 1] > 0 && d[i] > 0 && d[i + 1] > 0)) continue;
    const x = d[i - 1], y = d[i], z = d[i + 1];
    e[i] = Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
  }
  return e.slice(from - lo, to - lo);
}
