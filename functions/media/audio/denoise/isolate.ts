import type { FrameDenoiser } from "./rnnoise-fast.js";
import { RealFFT } from "../../voice-conversion/fft.js";
import { RNNOISE_FRAME, RNNOISE_RATE } from "./rnnoise.js";

/**
 * The voice isolator: RNNoise, then a Wiener post-filter on the noisy input. RNNoise alone keeps
 * some noise under speech and removes some speech; the post-filter takes the speech's spectrum as
 * the smaller of two estimates (RNNoise's output, and the input minus the noise), against a noise
 * spectrum measured where the input is quietest (the pauses), and applies the Wiener gain to the
 * input itself. The smaller estimate keeps RNNoise's judgement on broadband noise and the
 * subtraction's on steady tonal noise (hum), which RNNoise leaves in. Measured on engine speech in
 * noise at 5 dB SNR (functions/media/engine/README.md, scripts/sts-evaluate.ts --isolation).
 *
 * Streams: the noise spectrum comes from a cheap first pass over frame energies; RNNoise and
 * the filter then run block by block, each block final once produced. Deterministic.
 * Works at RNNoise's 48 kHz; output has exactly the input's length at 48 kHz.
 */
const N = 4096; // 85 ms at 48 kHz: resolves the harmonics of low voices
const HOP = N / 4;
const BINS = N / 2 + 1;
/** Frames with the quietest energies (this share) estimate the noise. */
const NOISE_QUANTILE = 0.15;
/**
 * Over-subtraction for fluctuating noise (issue 26, tuned on outside speech's tuning voices): the noise
 * power is weighted by 1 + 0.25 (F - 2), bounded to 1..2, where F is the noise frames' mean square
 * power over their mean power squared, averaged over 300 Hz-4 kHz: 2 for steady Gaussian noise (white: 1.96-2.03),
 * 2.1-5.4 for pink (speech leaks into its quiet frames), 4.6-8.8 for babble. Babble gains +0.6 dB
 * (tuning voices), pink loses 0.1.
 */
const FLUCTUATION_WEIGHT = 0.25;
const MAX_OVER_SUBTRACTION = 2;
/** Decision-directed smoothing of the speech estimate over frames. */
const SMOOTHING = 0.5;
const GAIN_FLOOR = 0.02;
/**
 * The instantaneous speech estimate is smoothed over neighbouring bins (0.25, 0.5, 0.25): less
 * musical noise, and a small gain on every noise of the tuning set (+0.05 to +0.3 dB).
 */
const BIN_SMOOTHING = 0.25;
/** RNNoise's output lags its input by two frames. */
const RNNOISE_LAG = 2 * RNNOISE_FRAME;

const WINDOW = Float64Array.from({ length: N }, (_, i) => Math.sin((Math.PI * (i + 0.5)) / N));

function windowed(x: Float32Array, start: number, out: Float64Array): number {
  let e = 0;
  for (let i = 0; i < N; i++) {
    const j = start + i;
    const v = j >= 0 && j < x.length ? x[j] * WINDOW[i] : 0;
    out[i] = v;
    e += v * v;
  }
  return e;
}

/** Mean power spectrum of the quietest frames of `x` (the noise), and how much their power fluctuates. */
export function noiseSpectrum(x: Float32Array, fft = new RealFFT(N)): { noise: Float64Array; fluctuation: number } {
  const frames = Math.ceil(x.length / HOP) + 3;
  const buf = new Float64Array(N);
  const energies: number[] = [];
  for (let f = 0; f < frames; f++) energies.push(windowed(x, f * HOP - N / 2, buf));
  const sorted = energies.filter((e) => e > 0).sort((a, b) => a - b);
  const noise = new Float64Array(BINS);
  if (!sorted.length) return { noise, fluctuation: 2 };
  const threshold = sorted[Math.floor((sorted.length - 1) * NOISE_QUANTILE)];
  const re = new Float64Array(BINS);
  const im = new Float64Array(BINS);
  let count = 0;
  for (let f = 0; f < frames; f++) {
    if (!(energies[f] > 0 && energies[f] <= threshold)) continue;
    windowed(x, f * HOP - N / 2, buf);
    fft.forward(buf, re, im);
    for (let k = 0; k < BINS; k++) noise[k] += re[k] * re[k] + im[k] * im[k];
    count++;
  }
  for (let k = 0; k < BINS; k++) noise[k] /= count;
  // Fluctuation: per bin, the mean square of the frames' power over the mean power squared (2 for steady Gaussian noise).
  const sq = new Float64Array(BINS);
  for (let f = 0; f < frames; f++) {
    if (!(energies[f] > 0 && energies[f] <= threshold)) continue;
    windowed(x, f * HOP - N / 2, buf);
    fft.forward(buf, re, im);
    for (let k = 0; k < BINS; k++) sq[k] += (re[k] * re[k] + im[k] * im[k]) ** 2;
  }
  let fluctuation = 0;
  const lo = Math.round((BINS * 300) / (RNNOISE_RATE / 2));
  const hi = Math.round((BINS * 4000) / (RNNOISE_RATE / 2));
  for (let k = lo; k < hi; k++) fluctuation += sq[k] / count / (noise[k] * noise[k] + 1e-30);
  return { noise, fluctuation: fluctuation / (hi - lo) };
}

/**
 * `x` at 48 kHz in, the isolated voice out in blocks of about `blockSeconds` (the first one
 * `firstBlockSeconds`), at 48 kHz, exactly x.length samples in total.
 */
export function* isolateVoice(x: Float32Array, rnnoise: FrameDenoiser, opts: { firstBlockSeconds?: number; blockSeconds?: number } = {}): Generator<Float32Array> {
  if (!x.length) return;
  const fft = new RealFFT(N);
  const { noise, fluctuation } = noiseSpectrum(x, fft);
  const over = Math.min(MAX_OVER_SUBTRACTION, Math.max(1, 1 + FLUCTUATION_WEIGHT * (fluctuation - 2)));
  const state = rnnoise.createDenoiseState();
  // RNNoise output, aligned with the input: rn[i] is the denoised x[i] (computed on demand).
  const rn = new Float32Array(x.length);
  let rnDone = 0; // input samples fed to RNNoise
  const frame = new Float32Array(RNNOISE_FRAME);
  const feed = (upTo: number) => {
    const want = Math.min(x.length + RNNOISE_LAG, upTo + RNNOISE_LAG);
    while (rnDone < want) {
      frame.fill(0);
      for (let i = 0; i < RNNOISE_FRAME && rnDone + i < x.length; i++) frame[i] = x[rnDone + i] * 32768;
      state.processFrame(frame);
      for (let i = 0; i < RNNOISE_FRAME; i++) {
        const j = rnDone + i - RNNOISE_LAG;
        if (j >= 0 && j < rn.length) rn[j] = frame[i] / 32768;
      }
      rnDone += RNNOISE_FRAME;
    }
  };

  const xb = new Float64Array(N);
  const rb = new Float64Array(N);
  const xr = new Float64Array(BINS);
  const xi = new Float64Array(BINS);
  const rr = new Float64Array(BINS);
  const ri = new Float64Array(BINS);
  const prevSpeech = new Float64Array(BINS);
  const instant = new Float64Array(BINS);
  const y = new Float64Array(N);
  // Overlap-add accumulator: acc[i] is output sample accStart + i.
  let acc = new Float64Array(N * 8);
  let accStart = -N;
  // Frame -1 too, so the first samples are covered by four frames like all the others.
  let nextFrame = -1;
  const frames = Math.ceil(x.length / HOP) + 3;

  const filterFrame = (f: number) => {
    const start = f * HOP - N / 2;
    feed(start + N);
    windowed(x, start, xb);
    windowed(rn, start, rb);
    fft.forward(xb, xr, xi);
    fft.forward(rb, rr, ri);
    for (let k = 0; k < BINS; k++) {
      const px = xr[k] * xr[k] + xi[k] * xi[k];
      const pr = rr[k] * rr[k] + ri[k] * ri[k];
      instant[k] = Math.min(pr, Math.max(px - noise[k], 0));
    }
    for (let k = 0; k < BINS; k++) {
      const px = xr[k] * xr[k] + xi[k] * xi[k];
      const near = k > 0 && k < BINS - 1 ? (1 - 2 * BIN_SMOOTHING) * instant[k] + BIN_SMOOTHING * (instant[k - 1] + instant[k + 1]) : instant[k];
      const speech = SMOOTHING * prevSpeech[k] + (1 - SMOOTHING) * near;
      const g = Math.max(GAIN_FLOOR, speech / (speech + over * noise[k] + 1e-20));
      xr[k] *= g;
      xi[k] *= g;
      prevSpeech[k] = g * g * px;
    }
    fft.inverse(xr, xi, y);
    const o = start - accStart;
    if (o + N > acc.length) {
      const bigger = new Float64Array(Math.max(acc.length * 2, o + N));
      bigger.set(acc);
      acc = bigger;
    }
    // Sine analysis and synthesis windows at 75% overlap sum to 2.
    for (let i = 0; i < N; i++) acc[o + i] += (y[i] * WINDOW[i]) / 2;
  };

  let done = 0;
  try {
    let blockSeconds = opts.firstBlockSeconds ?? 0.5;
    while (done < x.length) {
      const until = Math.min(x.length, done + Math.max(HOP, Math.round(blockSeconds * RNNOISE_RATE)));
      // Sample s is final once every frame starting at or before it has been added.
      while (nextFrame < frames && nextFrame * HOP - N / 2 < until) filterFrame(nextFrame++);
      const from = done - accStart;
      const out = new Float32Array(until - done);
      for (let i = 0; i < out.length; i++) out[i] = acc[from + i];
      // Drop what is out.
      const drop = until - accStart;
      acc.copyWithin(0, drop);
      acc.fill(0, acc.length - drop);
      accStart = until;
      done = until;
      blockSeconds = opts.blockSeconds ?? 2;
      yield out;
    }
  } finally {
    state.destroy();
  }
}
