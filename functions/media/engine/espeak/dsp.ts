/**
 * Post-processing for what eSpeak has no knob for: a spectral tilt (timbre), a presence EQ with
 * compression (speaker boost), a spectral envelope correction (a clone's fitted spectrum) and
 * loudness normalisation. Pure float math in a fixed order: deterministic, and each chunk is
 * processed on its own (chunks start and end in silence).
 */
import { roundToInt16 } from "../../audio/resample.js";
import { filter, highPass, highShelf, peaking } from "./biquad.js";
import { applyQuality, type QualityParams } from "./quality.js";

export interface DspParams {
  /** High-shelf gain above ~2 kHz, dB (negative = darker). */
  tiltDb: number;
  /** High-pass, presence peak and compression. */
  speakerBoost: boolean;
  /** Level of the active (non-silent) part, dBFS RMS. */
  targetRmsDb: number;
  /** dB per ENVELOPE_BANDS_HZ band (empty or absent: none), applied after the other filters. */
  envelopeDb?: readonly number[];
  /** Voice-quality shaping (breath noise, rough phonation, nasality, softness), applied first: ./quality.ts. */
  quality?: QualityParams;
}

/** The envelope bands: 16 log-spaced bands, 80 Hz to 7.6 kHz (the same as the voice analysis' LTAS bands). */
export const ENVELOPE_BANDS_HZ: ReadonlyArray<readonly [number, number]> = Array.from({ length: 16 }, (_, i) => {
  const edge = (k: number) => 80 * (7600 / 80) ** (k / 16);
  return [Math.round(edge(i)), Math.round(edge(i + 1))] as const;
});
/** Each band's correction is bounded, so a bad fit can colour the voice but never blow it up. */
export const ENVELOPE_MAX_DB = 12;
const FIR_TAPS = 255;

/** Feed-forward compressor on a peak envelope: 3:1 above -24 dBFS, 5 ms attack, 60 ms release. */
function compress(x: Float64Array, fs: number): void {
  const threshold = 10 ** (-24 / 20);
  const attack = Math.exp(-1 / (0.005 * fs));
  const release = Math.exp(-1 / (0.06 * fs));
  let env = 0;
  for (let i = 0; i < x.length; i++) {
    const level = Math.abs(x[i]);
    env = level > env ? attack * env + (1 - attack) * level : release * env + (1 - release) * level;
    // Output level threshold * (env / threshold)^(1/3): cube root is the 3:1 ratio.
    if (env > threshold) x[i] *= (threshold * Math.cbrt(env / threshold)) / env;
  }
}

/** RMS of the frames within 35 dB of the loudest one: speech level, ignoring pauses. */
export function activeRms(x: ArrayLike<number>, fs: number): number {
  const frame = Math.max(1, Math.round(fs * 0.01));
  const powers: number[] = [];
  for (let i = 0; i + frame <= x.length; i += frame) {
    let s = 0;
    for (let j = i; j < i + frame; j++) s += x[j] * x[j];
    powers.push(s / frame);
  }
  const peak = Math.max(0, ...powers);
  const gate = Math.max(peak * 10 ** (-35 / 10), 1e-9);
  let sum = 0, n = 0;
  for (const p of powers) {
    if (p >= gate) {
      sum += p;
      n++;
    }
  }
  return n ? Math.sqrt(sum / n) : 0;
}

/**
 * A linear-phase FIR whose magnitude follows the band gains (interpolated in dB along log
 * frequency between band centres, flat beyond the outer ones): frequency sampling on a dense
 * grid, inverse DFT, Hann window. Symmetric, so its delay is (taps - 1) / 2 samples exactly.
 */
export function envelopeFir(gainsDb: readonly number[], fs: number, taps = FIR_TAPS): Float64Array {
  const centres = ENVELOPE_BANDS_HZ.map(([lo, hi]) => Math.log(Math.sqrt(lo * hi)));
  const gains = gainsDb.map((g) => Math.max(-ENVELOPE_MAX_DB, Math.min(ENVELOPE_MAX_DB, Number.isFinite(g) ? g : 0)));
  const gainAt = (hz: number) => {
    if (hz <= 0) return gains[0];
    const l = Math.log(hz);
    if (l <= centres[0]) return gains[0];
    for (let i = 1; i < centres.length; i++) {
      if (l <= centres[i]) {
        const t = (l - centres[i - 1]) / (centres[i] - centres[i - 1]);
        return gains[i - 1] + t * (gains[i] - gains[i - 1]);
      }
    }
    return gains[gains.length - 1];
  };
  const grid = 1024;
  const mags = new Float64Array(grid + 1);
  for (let k = 0; k <= grid; k++) mags[k] = 10 ** (gainAt((k / grid) * (fs / 2)) / 20);
  const h = new Float64Array(taps);
  const mid = (taps - 1) / 2;
  for (let n = 0; n < taps; n++) {
    // Zero-phase real response sampled at 2 * grid points: h[n] = (1/N) sum_k H_k cos(2 pi k (n - mid) / N).
    let s = mags[0] + mags[grid] * Math.cos(Math.PI * (n - mid));
    for (let k = 1; k < grid; k++) s += 2 * mags[k] * Math.cos((Math.PI * k * (n - mid)) / grid);
    const w = 0.5 - 0.5 * Math.cos((2 * Math.PI * (n + 0.5)) / taps);
    h[n] = (s / (2 * grid)) * w;
  }
  return h;
}

const FFT_SIZE = 1024;
/** e^(-2 pi i k / FFT_SIZE) for k < FFT_SIZE / 2, and the bit-reversal permutation: computed once. */
const TWIDDLE_RE = new Float64Array(FFT_SIZE / 2);
const TWIDDLE_IM = new Float64Array(FFT_SIZE / 2);
const BIT_REVERSED = new Uint16Array(FFT_SIZE);
for (let k = 0; k < FFT_SIZE / 2; k++) {
  TWIDDLE_RE[k] = Math.cos((-2 * Math.PI * k) / FFT_SIZE);
  TWIDDLE_IM[k] = Math.sin((-2 * Math.PI * k) / FFT_SIZE);
}
for (let i = 1, j = 0; i < FFT_SIZE; i++) {
  let bit = FFT_SIZE >> 1;
  for (; j & bit; bit >>= 1) j ^= bit;
  j ^= bit;
  BIT_REVERSED[i] = j;
}

/**
 * In-place iterative radix-2 FFT of FFT_SIZE points; `inverse` conjugates the twiddles and does
 * not divide by the size (the envelope's spectrum carries that factor).
 */
function fft(re: Float64Array, im: Float64Array, inverse: boolean): void {
  const n = FFT_SIZE;
  for (let i = 1; i < n; i++) {
    const j = BIT_REVERSED[i];
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  const sign = inverse ? -1 : 1;
  for (let len = 2, step = n >> 1; len <= n; len <<= 1, step >>= 1) {
    const half = len >> 1;
    for (let i = 0; i < n; i += len) {
      for (let k = 0, t = 0; k < half; k++, t += step) {
        const wr = TWIDDLE_RE[t];
        const wi = sign * TWIDDLE_IM[t];
        const a = i + k, b = a + half;
        const tr = re[b] * wr - im[b] * wi;
        const ti = re[b] * wi + im[b] * wr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
      }
    }
  }
}

const firCache = new Map<string, { re: Float64Array; im: Float64Array; taps: number }>();

/**
 * Convolves in place with the envelope FIR (overlap-add over 1024-point FFTs, linear in the
 * length), delay removed, so times (alignment) are unchanged. The filter is real, so two blocks
 * go through one complex FFT, one as its real part and the next as its imaginary part: the
 * convolution of each comes back in the same part.
 */
export function applyEnvelope(x: Float64Array, gainsDb: readonly number[], fs: number): void {
  const key = `${fs}:${gainsDb.map((g) => g.toFixed(3)).join(",")}`;
  let H = firCache.get(key);
  if (!H) {
    const h = envelopeFir(gainsDb, fs);
    const re = new Float64Array(FFT_SIZE);
    const im = new Float64Array(FFT_SIZE);
    re.set(h);
    fft(re, im, false);
    // The inverse transform's 1/N, once here instead of on every block.
    for (let k = 0; k < FFT_SIZE; k++) {
      re[k] /= FFT_SIZE;
      im[k] /= FFT_SIZE;
    }
    H = { re, im, taps: h.length };
    if (firCache.size > 64) firCache.clear();
    firCache.set(key, H);
  }
  const block = FFT_SIZE - H.taps + 1;
  const delay = (H.taps - 1) / 2;
  const out = new Float64Array(x.length + H.taps);
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  for (let start = 0; start < x.length; start += 2 * block) {
    const second = start + block;
    re.fill(0);
    im.fill(0);
    const n1 = Math.min(block, x.length - start);
    const n2 = Math.max(0, Math.min(block, x.length - second));
    for (let i = 0; i < n1; i++) re[i] = x[start + i];
    for (let i = 0; i < n2; i++) im[i] = x[second + i];
    fft(re, im, false);
    for (let k = 0; k < FFT_SIZE; k++) {
      const r = re[k] * H.re[k] - im[k] * H.im[k];
      im[k] = re[k] * H.im[k] + im[k] * H.re[k];
      re[k] = r;
    }
    fft(re, im, true);
    const m1 = Math.min(FFT_SIZE, out.length - start);
    for (let i = 0; i < m1; i++) out[start + i] += re[i];
    if (n2 > 0) {
      const m2 = Math.min(FFT_SIZE, out.length - second);
      for (let i = 0; i < m2; i++) out[second + i] += im[i];
    }
  }
  for (let i = 0; i < x.length; i++) x[i] = out[i + delay];
}

export function processVoice(pcm: Int16Array, p: DspParams, fs: number): Int16Array {
  const x = new Float64Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) x[i] = pcm[i] / 32768;
  if (p.quality) applyQuality(x, p.quality, fs);
  if (Math.abs(p.tiltDb) >= 0.05) filter(x, highShelf(fs, 2000, p.tiltDb));
  if (p.speakerBoost) {
    filter(x, highPass(fs, 70, Math.SQRT1_2));
    filter(x, peaking(fs, 3000, 4, 1));
    compress(x, fs);
  }
  if (p.envelopeDb && p.envelopeDb.some((g) => Math.abs(g) >= 0.05)) applyEnvelope(x, p.envelopeDb, fs);
  const level = activeRms(x, fs);
  let peak = 0;
  for (let i = 0; i < x.length; i++) peak = Math.max(peak, Math.abs(x[i]));
  // Normalise speech to the target level, but never push a peak past -0.5 dBFS.
  const gain = level > 0 ? Math.min(10 ** (p.targetRmsDb / 20) / level, 0.944 / Math.max(peak, 1e-9)) : 1;
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = roundToInt16(x[i] * gain * 32768);
  return out;
}
