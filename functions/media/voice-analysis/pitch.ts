/**
 * Fundamental frequency by YIN (de Cheveigné & Kawahara, 2002): the difference function, its
 * cumulative-mean normalisation, an absolute threshold and parabolic interpolation. Run on an
 * 8 kHz copy of the signal (voice pitch lives far below 4 kHz), which quarters the work.
 */
import { Resampler } from "../audio/resample.js";
import { align16, lazyKernel, reserve, type KernelModule } from "../audio/wasm/kernels.js";
import { PITCH_KERNELS_WASM } from "./pitch-kernels.wasm.js";

interface PitchKernels extends KernelModule {
  difference(x: number, start: number, window: number, lags: number, d: number): void;
}
const kernels = lazyKernel<PitchKernels>(PITCH_KERNELS_WASM);
/** The tracker whose signal is in the kernels' memory (copied once per tracker, not per window). */
let signalLoaded: YinTracker | null = null;
/** Samples past a signal's end that the kernel's spare lanes may read. */
const SPARE = 4;

export const PITCH_RATE = 8000;
export const MIN_F0_HZ = 50;
export const MAX_F0_HZ = 500;
/** Window of the difference function: 30 ms holds 1.5 periods of the lowest pitch. */
const WINDOW = 240;
const MAX_LAG = Math.ceil(PITCH_RATE / MIN_F0_HZ);
const MIN_LAG = Math.floor(PITCH_RATE / MAX_F0_HZ);
/** A dip of the normalised difference under this is a period (the paper uses 0.1-0.15; synthetic rough voices need more). */
const THRESHOLD = 0.2;
/** Without a dip under the threshold, the deepest dip still counts when this clear. */
const FALLBACK = 0.45;

export function toPitchRate(samples16k: Float32Array, rate: number): Float32Array {
  if (rate === PITCH_RATE) return samples16k;
  const r = new Resampler(rate, PITCH_RATE);
  const a = r.process(samples16k);
  const b = r.flush();
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export class YinTracker {
  private readonly d = new Float64Array(MAX_LAG + 2);
  private readonly cmnd = new Float64Array(MAX_LAG + 2);

  /** `x` must not change while the tracker is in use (the kernel works on a copy). */
  constructor(private readonly x: Float32Array) {}

  /** d[1 .. MAX_LAG + 1] by the kernel; false when it is not available. */
  private differenceSimd(start: number): boolean {
    const k = kernels();
    if (!k) return false;
    const { x, d } = this;
    const dAt = 0;
    const xAt = align16(8 * d.length + 32);
    const mem = reserve(k, xAt + 4 * (x.length + SPARE));
    if (signalLoaded !== this) {
      new Float32Array(mem, xAt, x.length).set(x);
      new Float32Array(mem, xAt + 4 * x.length, SPARE).fill(0);
      signalLoaded = this;
    }
    k.difference(xAt, start, WINDOW, MAX_LAG + 1, dAt);
    d.set(new Float64Array(mem, dAt + 8, MAX_LAG + 1), 1);
    return true;
  }

  /** F0 in Hz of the window starting at `start` (8 kHz samples), or 0 when it is not periodic. */
  at(start: number): number {
    const { x, d, cmnd } = this;
    if (start < 0 || start + WINDOW + MAX_LAG + 1 > x.length) return 0;
    // Four lags per pass over the window: each x[i] is loaded once for all four, and each lag's
    // sum still adds its terms in the same order, so the values are exactly the one-lag loop's.
    // The SIMD kernel (pitch-kernels.wat) computes the same values, two lags per instruction.
    const end = start + WINDOW;
    let lag = this.differenceSimd(start) ? MAX_LAG + 2 : 1;
    for (; lag + 3 <= MAX_LAG + 1; lag += 4) {
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (let i = start; i < end; i++) {
        const v = x[i];
        const d0 = v - x[i + lag], d1 = v - x[i + lag + 1], d2 = v - x[i + lag + 2], d3 = v - x[i + lag + 3];
        s0 += d0 * d0;
        s1 += d1 * d1;
        s2 += d2 * d2;
        s3 += d3 * d3;
      }
      d[lag] = s0;
      d[lag + 1] = s1;
      d[lag + 2] = s2;
      d[lag + 3] = s3;
    }
    for (; lag <= MAX_LAG + 1; lag++) {
      let s = 0;
      for (let i = start; i < end; i++) {
        const diff = x[i] - x[i + lag];
        s += diff * diff;
      }
      d[lag] = s;
    }
    let running = 0;
    cmnd[0] = 1;
    for (let lag = 1; lag <= MAX_LAG + 1; lag++) {
      running += d[lag];
      cmnd[lag] = running > 0 ? (d[lag] * lag) / running : 1;
    }
    lag = 0;
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
    if (!lag) return 0;
    // Parabola through the dip and its neighbours refines the period below one sample.
    const a = cmnd[lag - 1];
    const b = cmnd[lag];
    const c = lag + 1 <= MAX_LAG + 1 ? cmnd[lag + 1] : b;
    const den = a - 2 * b + c;
    const shift = den > 0 ? (0.5 * (a - c)) / den : 0;
    const period = lag + Math.max(-0.5, Math.min(0.5, shift));
    return PITCH_RATE / period;
  }
}
