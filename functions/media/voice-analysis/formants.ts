/**
 * Formant estimate by linear prediction: autocorrelation of a pre-emphasised, windowed voiced
 * frame, Levinson-Durbin for the all-pole model, and the peaks of its envelope. Per frame it is
 * rough; the medians over many voiced frames are what the analysis reports.
 */
import { fft } from "./dsp.js";

const ORDER = 18;
const ENVELOPE_FFT = 512;

/** LPC coefficients a[0..order] (a[0] = 1), or null for a silent frame. */
export function lpc(frame: Float64Array, order = ORDER): Float64Array | null {
  const r = new Float64Array(order + 1);
  for (let lag = 0; lag <= order; lag++) {
    let s = 0;
    for (let i = lag; i < frame.length; i++) s += frame[i] * frame[i - lag];
    r[lag] = s;
  }
  if (!(r[0] > 1e-9)) return null;
  r[0] *= 1 + 1e-6; // a touch of white noise keeps the recursion stable
  const a = new Float64Array(order + 1);
  const tmp = new Float64Array(order + 1);
  a[0] = 1;
  let err = r[0];
  for (let i = 1; i <= order; i++) {
    let acc = r[i];
    for (let j = 1; j < i; j++) acc += a[j] * r[i - j];
    const k = -acc / err;
    tmp.set(a);
    for (let j = 1; j < i; j++) a[j] = tmp[j] + k * tmp[i - j];
    a[i] = k;
    err *= 1 - k * k;
    if (!(err > 0)) return null;
  }
  return a;
}

/** Peaks of the LPC envelope 1/|A(f)|^2 between 150 Hz and 4.5 kHz, ascending, in Hz. */
export function envelopePeaks(a: Float64Array, sampleRate: number): number[] {
  const re = new Float64Array(ENVELOPE_FFT);
  const im = new Float64Array(ENVELOPE_FFT);
  re.set(a);
  fft(re, im);
  const half = ENVELOPE_FFT / 2;
  const env = new Float64Array(half + 1);
  for (let k = 0; k <= half; k++) env[k] = 1 / Math.max(1e-12, re[k] * re[k] + im[k] * im[k]);
  const binHz = sampleRate / ENVELOPE_FFT;
  const peaks: number[] = [];
  for (let k = 1; k < half; k++) {
    const f = k * binHz;
    if (f < 150 || f > 4500) continue;
    if (env[k] > env[k - 1] && env[k] >= env[k + 1]) {
      const y0 = Math.log(env[k - 1]);
      const y1 = Math.log(env[k]);
      const y2 = Math.log(env[k + 1]);
      const den = y0 - 2 * y1 + y2;
      const shift = den < 0 ? (0.5 * (y0 - y2)) / den : 0;
      peaks.push((k + shift) * binHz);
    }
  }
  return peaks;
}

/** F1, F2, F3 from one frame's envelope peaks, each in its usual region; null where missing. */
export function pickFormants(peaks: number[]): [number | null, number | null, number | null] {
  const f1 = peaks.find((f) => f >= 200 && f <= 1100) ?? null;
  const f2 = peaks.find((f) => f > (f1 ?? 500) + 150 && f >= 550 && f <= 3000) ?? null;
  const f3 = peaks.find((f) => f > (f2 ?? 1500) + 200 && f >= 1500 && f <= 4200) ?? null;
  return [f1, f2, f3];
}
