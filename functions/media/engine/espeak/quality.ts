/**
 * Voice quality after synthesis, for the words voice design reads (breathy, raspy, nasal, soft;
 * "clear" is their absence). eSpeak's own breath and roughness knobs barely move the measured
 * harmonics-to-noise ratio (0.1-0.3 dB, issue 26), so the quality is shaped here, on the
 * engine's output, the same for eSpeak and flite:
 *
 *   breath  aspiration noise in the voiced band (400 Hz-6 kHz), following the speech's own
 *           envelope, at up to -3 dB under it: a lower harmonics-to-noise ratio, audibly airy.
 *   rough   irregular phonation: a seeded time warp that changes every 2.5 ms (period-to-period
 *           jitter, up to ±0.25 ms) and an amplitude flicker (±30%) on the same grid (shimmer).
 *   nasal   a nasal formant (a +9 dB peak at 250 Hz) and an anti-formant (a -12 dB dip near
 *           800 Hz), both scaled by the amount.
 *   soft    a gentler source: a steeper spectral tilt (a -18 dB shelf from 800 Hz).
 *
 * Amounts are 0..1. Seeded (the chunk's seed), so the same request gives the same samples.
 */
import type { VoiceProfile } from "../port.js";
import { hashSeed, prng } from "../prng.js";
import { filter, highPass, highShelf, lowPass, peaking } from "./biquad.js";

export interface QualityParams {
  breath: number;
  rough: number;
  nasal: number;
  soft: number;
  seed: number;
}

export const QUALITY = {
  /** Breath noise level under the speech envelope at amount 1, dB. */
  breathDb: -3,
  breathBandHz: [400, 6000] as const,
  /** Rough phonation: the warp grid, the largest delay swing at amount 1 (s), and the gain flicker. */
  roughGridS: 0.0025,
  roughDelayS: 0.00025,
  roughShimmer: 0.3,
  nasalPeak: { hz: 250, db: 9, q: 1.4 },
  nasalDip: { hz: 800, db: -12, q: 1.2 },
  softShelf: { hz: 800, db: -18 },
} as const;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** A chunk's quality parameters from the voice's `quality`; undefined when it changes nothing (voices without quality words are untouched). */
export function qualityFor(voice: Pick<VoiceProfile, "quality">, seed: number, index: number): QualityParams | undefined {
  const q = voice.quality;
  if (!q) return undefined;
  const p = { breath: clamp01(q.breath ?? 0), rough: clamp01(q.rough ?? 0), nasal: clamp01(q.nasal ?? 0), soft: clamp01(q.soft ?? 0) };
  if (Math.max(p.breath, p.rough, p.nasal, p.soft) <= 0.005) return undefined;
  return { ...p, seed: hashSeed("voice-quality", seed, index) };
}

export function applyQuality(x: Float64Array, q: QualityParams, fs: number): void {
  const rough = clamp01(q.rough);
  const nasal = clamp01(q.nasal);
  const soft = clamp01(q.soft);
  const breath = clamp01(q.breath);
  if (rough > 0.005) roughen(x, rough, fs, q.seed);
  if (nasal > 0.005) {
    filter(x, peaking(fs, QUALITY.nasalPeak.hz, QUALITY.nasalPeak.db * nasal, QUALITY.nasalPeak.q));
    filter(x, peaking(fs, QUALITY.nasalDip.hz, QUALITY.nasalDip.db * nasal, QUALITY.nasalDip.q));
  }
  if (breath > 0.005) breathe(x, breath, fs, q.seed);
  // Last, so the breath noise is softened too.
  if (soft > 0.005) filter(x, highShelf(fs, QUALITY.softShelf.hz, QUALITY.softShelf.db * soft));
}

/** Seeded values on a grid, linearly interpolated: a smooth random curve in [-1, 1]. */
function gridCurve(n: number, step: number, rand: () => number): Float64Array {
  const points = Math.ceil(n / step) + 2;
  const v = Array.from({ length: points }, () => 2 * rand() - 1);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / step;
    const k = Math.floor(t);
    const f = t - k;
    out[i] = v[k] * (1 - f) + v[k + 1] * f;
  }
  return out;
}

function roughen(x: Float64Array, amount: number, fs: number, seed: number): void {
  const step = Math.max(1, Math.round(QUALITY.roughGridS * fs));
  const delay = gridCurve(x.length, step, prng(hashSeed("quality-jitter", seed)));
  const gain = gridCurve(x.length, step, prng(hashSeed("quality-shimmer", seed)));
  const swing = QUALITY.roughDelayS * fs * amount;
  const src = Float64Array.from(x);
  for (let i = 0; i < x.length; i++) {
    // Read at a moving position: where it moves faster or slower, the periods shorten or lengthen.
    const at = i - swing * (1 + delay[i]);
    const k = Math.floor(at);
    const f = at - k;
    const a = k >= 0 && k < src.length ? src[k] : 0;
    const b = k + 1 >= 0 && k + 1 < src.length ? src[k + 1] : 0;
    x[i] = (a * (1 - f) + b * f) * (1 + QUALITY.roughShimmer * amount * gain[i]);
  }
}

function breathe(x: Float64Array, amount: number, fs: number, seed: number): void {
  const rand = prng(hashSeed("quality-breath", seed));
  const noise = new Float64Array(x.length);
  for (let i = 0; i < noise.length; i++) noise[i] = 2 * rand() - 1;
  const [lo, hi] = QUALITY.breathBandHz;
  filter(noise, highPass(fs, lo, Math.SQRT1_2));
  filter(noise, lowPass(fs, Math.min(hi, 0.45 * fs), Math.SQRT1_2));
  let p = 0;
  for (let i = 0; i < noise.length; i++) p += noise[i] * noise[i];
  const norm = p > 0 ? 1 / Math.sqrt(p / noise.length) : 0;
  // The speech's RMS envelope (10 ms attack and release) carries the noise: it breathes with the voice.
  const coef = Math.exp(-1 / (0.01 * fs));
  const level = 10 ** (QUALITY.breathDb / 20) * amount * norm;
  let env = 0;
  for (let i = 0; i < x.length; i++) {
    env = coef * env + (1 - coef) * x[i] * x[i];
    x[i] += noise[i] * Math.sqrt(env) * level;
  }
}
