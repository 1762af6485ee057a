/**
 * Per-frame spectral analysis of the vocoder, WORLD-style (Morise's CheapTrick idea, written
 * here): a pitch-adaptive Hann window three periods long, so harmonics are resolved evenly at
 * any pitch; the power spectrum smoothed over two thirds of F0 in linear frequency; then
 * cepstral liftering that removes what is left of the harmonics while keeping formant peaks.
 * The result is the spectral envelope (log power per FFT bin) with the pitch taken out.
 *
 * Aperiodicity comes from the same windowed frame: per band, the normalised autocorrelation at
 * one period (read off the power spectrum) against what a perfectly periodic signal gives under
 * the same window. 0 = all harmonic, 1 = all noise.
 */
import { RealFFT } from "./fft.js";

export const WORK_RATE = 22_050;
export const FFT_SIZE = 1024;
export const BINS = FFT_SIZE / 2 + 1;
/** Lowest pitch whose three-period window still fits the FFT. */
export const ANALYSIS_MIN_F0 = Math.ceil((3 * WORK_RATE) / FFT_SIZE) + 1;
/** Unvoiced frames are analysed as if at this pitch: a short window for sharp fricatives. */
export const UNVOICED_F0 = 500;
/** Aperiodicity band edges, Hz. */
export const AP_EDGES = [0, 1000, 2000, 4000, 6000, WORK_RATE / 2];
export const AP_BANDS = AP_EDGES.length - 1;
const Q1 = -0.15;
const LAG_SPAN = 0.03;
const LAG_STEPS = 7;

/**
 * Autocorrelation of the analysis window at a lag of one period, relative to its energy: what a
 * perfectly periodic signal reads, so measured periodicity can be normalised by it.
 */
const WINDOW_SELF_CORRELATION = (() => {
  const steps = 3000;
  let num = 0;
  let den = 0;
  for (let i = 0; i <= steps; i++) {
    const x = -1.5 + (3 * i) / steps;
    const w = 0.5 + 0.5 * Math.cos((Math.PI * x) / 1.5);
    const y = x + 1;
    const w1 = y <= 1.5 ? 0.5 + 0.5 * Math.cos((Math.PI * y) / 1.5) : 0;
    num += w * w1;
    den += w * w;
  }
  return num / den;
})();

export interface FrameSpectrum {
  /** Natural log of the envelope's power per bin (BINS values). */
  logEnv: Float32Array;
  /** Aperiodicity per band (AP_BANDS values), 0..1. */
  ap: Float32Array;
}

/** Reusable buffers: one analyser per thread. */
export class SpectralAnalyzer {
  private readonly fft = new RealFFT(FFT_SIZE);
  private readonly frame = new Float64Array(FFT_SIZE);
  private readonly re = new Float64Array(BINS);
  private readonly im = new Float64Array(BINS);
  private readonly zeros = new Float64Array(BINS);
  private readonly ceps = new Float64Array(FFT_SIZE);
  private readonly power = new Float64Array(BINS);
  private readonly smooth = new Float64Array(BINS);
  private readonly cum = new Float64Array(BINS + 2);
  private readonly win = new Float64Array(FFT_SIZE);
  private readonly lagRe = new Float64Array(BINS);
  private readonly lagIm = new Float64Array(BINS);
  private readonly bandBest = new Float64Array(AP_BANDS);
  readonly fs: number;

  constructor(fs = WORK_RATE) {
    this.fs = fs;
  }

  /**
   * The frame centred at sample `centre` (may be fractional) of `x`, analysed at pitch `f0`
   * (0 = unvoiced). Writes into `out`.
   */
  analyze(x: Float32Array, centre: number, f0: number, out: FrameSpectrum): void {
    const { frame, re, im, power, fs, win } = this;
    const voiced = f0 > 0;
    const f = voiced ? Math.max(f0, ANALYSIS_MIN_F0) : UNVOICED_F0;
    const half = Math.round((1.5 * fs) / f);
    const base = Math.round(centre);
    const length = 2 * half + 1;
    let wsum = 0;
    let w2 = 0;
    let ysum = 0;
    for (let n = -half; n <= half; n++) {
      const w = 0.5 + 0.5 * Math.cos((Math.PI * (n + base - centre) * f) / (1.5 * fs));
      const i = base + n;
      const v = i >= 0 && i < x.length ? x[i] : 0;
      win[n + half] = w;
      frame[n + half] = v * w;
      wsum += w;
      w2 += w * w;
      ysum += v * w;
    }
    // Remove the window-weighted mean (DC would smear into the lowest bins), normalise window power.
    const dc = ysum / wsum;
    const norm = 1 / Math.sqrt(w2);
    for (let i = 0; i < length; i++) frame[i] = (frame[i] - dc * win[i]) * norm;
    frame.fill(0, length);
    this.fft.forward(frame, re, im);
    for (let k = 0; k < BINS; k++) power[k] = re[k] * re[k] + im[k] * im[k];

    this.aperiodicity(f0, out.ap);

    const df = fs / FFT_SIZE;
    // Fold what lies below F0 back up (the window's low end is not a formant).
    const limit = Math.floor(f / df);
    for (let k = 0; k <= limit && k < BINS; k++) {
      const pos = (f - k * df) / df;
      const i = Math.floor(pos);
      const frac = pos - i;
      power[k] += power[Math.min(BINS - 1, i)] * (1 - frac) + power[Math.min(BINS - 1, i + 1)] * frac;
    }
    this.linearSmooth((2 * f) / 3 / df);
    this.lifter(f, out.logEnv);
  }

  /** Rectangular smoothing over `width` bins, by a cumulative sum with mirrored edges. */
  private linearSmooth(width: number): void {
    const { power, smooth, cum } = this;
    const half = width / 2;
    // cum[i + 1] = sum of power[0..i]; values outside mirror around DC and Nyquist.
    cum[0] = 0;
    for (let k = 0; k < BINS; k++) cum[k + 1] = cum[k] + power[k];
    const at = (pos: number): number => {
      // Integral of the piecewise-constant spectrum from -inf... evaluated by mirroring.
      if (pos < 0) return -at(-pos);
      if (pos > BINS) return 2 * cum[BINS] - at(2 * BINS - pos);
      const i = Math.floor(pos);
      const frac = pos - i;
      return i >= BINS ? cum[BINS] : cum[i] + (cum[i + 1] - cum[i]) * frac;
    };
    for (let k = 0; k < BINS; k++) smooth[k] = Math.max(1e-16, (at(k + 0.5 + half) - at(k + 0.5 - half)) / width);
  }

  /** Cepstral smoothing with compensation (the sinc lifter and its recovery term). */
  private lifter(f: number, logEnv: Float32Array): void {
    const { re, im, smooth, fs, ceps, zeros } = this;
    for (let k = 0; k < BINS; k++) re[k] = Math.log(smooth[k] + 1e-16);
    // The log spectrum is real and even: its cepstrum is real and even too.
    this.fft.inverse(re, zeros, ceps);
    // sin(n x) and cos(n x) by rotation: two multiplications per quefrency instead of two calls.
    const step = (Math.PI * f) / fs;
    const cs = Math.cos(step);
    const sn = Math.sin(step);
    let c = 1;
    let s = 0;
    for (let n = 1; n <= FFT_SIZE / 2; n++) {
      const c1 = c * cs - s * sn;
      s = s * cs + c * sn;
      c = c1;
      const x = step * n;
      const cos2x = 2 * c * c - 1;
      const lift = (s / x) * (1 - 2 * Q1 + 2 * Q1 * cos2x);
      ceps[n] *= lift;
      if (n < FFT_SIZE / 2) ceps[FFT_SIZE - n] *= lift;
    }
    this.fft.forward(ceps, re, im);
    for (let k = 0; k < BINS; k++) logEnv[k] = re[k];
  }

  /**
   * Periodicity per band at the best lag within ±3% of the period: speech glides in pitch, and
   * over a three-period window even a small glide decorrelates the upper harmonics at exactly
   * one period, which would read as noise that is not there.
   */
  private aperiodicity(f0: number, ap: Float32Array): void {
    if (!(f0 > 0)) {
      ap.fill(1);
      return;
    }
    const { power, fs, lagRe, lagIm } = this;
    const period = fs / Math.max(f0, ANALYSIS_MIN_F0);
    const df = fs / FFT_SIZE;
    const best = this.bandBest;
    best.fill(-Infinity);
    for (let s = 0; s < LAG_STEPS; s++) {
      const lag = period * (1 + LAG_SPAN * ((2 * s) / (LAG_STEPS - 1) - 1));
      // cos(2 pi k lag / N) by rotation, k = 0, 1, 2, ...
      const w = (2 * Math.PI * lag) / FFT_SIZE;
      const cw = Math.cos(w);
      const sw = Math.sin(w);
      let c = 1;
      let sn = 0;
      for (let k = 0; k < BINS; k++) {
        lagRe[k] = c;
        const c2 = c * cw - sn * sw;
        sn = c * sw + sn * cw;
        c = c2;
      }
      for (let b = 0; b < AP_BANDS; b++) {
        const lo = Math.max(1, Math.ceil(AP_EDGES[b] / df));
        const hi = Math.min(BINS - 1, Math.floor(AP_EDGES[b + 1] / df));
        let num = 0;
        for (let k = lo; k <= hi; k++) num += power[k] * lagRe[k];
        if (num > best[b]) best[b] = num;
      }
    }
    for (let b = 0; b < AP_BANDS; b++) {
      const lo = Math.max(1, Math.ceil(AP_EDGES[b] / df));
      const hi = Math.min(BINS - 1, Math.floor(AP_EDGES[b + 1] / df));
      let den = 0;
      for (let k = lo; k <= hi; k++) den += power[k];
      const periodic = den > 0 ? best[b] / den / WINDOW_SELF_CORRELATION : 0;
      ap[b] = Math.min(0.999, Math.max(0.001, 1 - periodic));
    }
    void lagIm;
  }
}

/** Aperiodicity per bin from the band values (linear between band centres). */
export function apPerBin(ap: ArrayLike<number>, out: Float64Array, fs = WORK_RATE): void {
  const df = fs / FFT_SIZE;
  const centres = AP_EDGES.slice(0, -1).map((e, i) => (e + AP_EDGES[i + 1]) / 2);
  for (let k = 0; k < BINS; k++) {
    const f = k * df;
    let v: number;
    if (f <= centres[0]) v = ap[0];
    else if (f >= centres[AP_BANDS - 1]) v = ap[AP_BANDS - 1];
    else {
      let b = 0;
      while (f > centres[b + 1]) b++;
      const t = (f - centres[b]) / (centres[b + 1] - centres[b]);
      v = ap[b] * (1 - t) + ap[b + 1] * t;
    }
    out[k] = v;
  }
}
