/**
 * What the conversion changes, frame by frame: pitch moved to the target's register and range
 * (keeping the input's intonation shape), and the spectral envelope warped in frequency toward
 * the target's vocal-tract length and then equalised toward the target's long-term timbre.
 *
 * Both voices are summarised the same way (`measureVoice`): pitch percentiles over voiced frames
 * and the mean log envelope of voiced frames, analysed every 20 ms. The warp factor is the one
 * that best lines up the two mean envelopes (250 Hz - 5.5 kHz); the equaliser is what is left
 * between them, smoothed over about a twentieth of an octave and bounded to ±12 dB.
 */
import { FRAME_SECONDS, YinFft, frameCount, toF0Rate, F0_RATE } from "./f0.js";
import { BINS, FFT_SIZE, SpectralAnalyzer, AP_BANDS, WORK_RATE } from "./spectral.js";
import type { SynthFrame } from "./synth.js";
import { hashSeed, prng } from "../engine/prng.js";

/** Bumped whenever `measureVoice` changes meaning, so cached target measurements are redone. */
export const VOICE_STATS_VERSION = 1;

export interface VoiceStats {
  version: number;
  f0MedianHz: number | null;
  f0P10Hz: number | null;
  f0P90Hz: number | null;
  /** Mean natural-log envelope power per bin over voiced frames (BINS values), at WORK_RATE. */
  meanLogEnv: number[];
  voicedFrames: number;
  /** The same over unvoiced frames that are not silence (fricatives, breath). */
  meanLogEnvUnvoiced: number[];
  unvoicedFrames: number;
  /** Mean logit of the aperiodicity per band over voiced frames (breathiness, roughness). */
  meanApLogit: number[];
  /** RMS change of the log envelope (250 Hz - 5.5 kHz) between speech frames 20 ms apart: how much the timbre moves. */
  dynamics: number;
  /** RMS of the frames within 35 dB of the loudest (the speech, not the pauses). */
  activeRms: number;
  /** Loudest 8 kHz frame level, dB: the reference for the silence gate of the pitch track. */
  loudestDb: number;
}

const LOG_DB = Math.log(10) / 10; // dB of power -> natural-log power
const FIT_LO_HZ = 250;
const FIT_HI_HZ = 5500;
const df = WORK_RATE / FFT_SIZE;

/** Linear interpolation of a per-bin curve at fractional bin `pos`, held flat beyond the ends. */
function at(curve: ArrayLike<number>, pos: number): number {
  if (pos <= 0) return curve[0];
  if (pos >= BINS - 1) return curve[BINS - 1];
  const i = Math.floor(pos);
  const f = pos - i;
  return curve[i] * (1 - f) + curve[i + 1] * f;
}

function fitWeights(): Float64Array {
  const w = new Float64Array(BINS);
  for (let k = 0; k < BINS; k++) {
    const f = k * df;
    // Equal weight per octave: 1/f per bin.
    w[k] = f >= FIT_LO_HZ && f <= FIT_HI_HZ ? 1 / f : 0;
  }
  return w;
}
const WEIGHTS = fitWeights();

/** Stats every STATS_STRIDE-th frame (20 ms): plenty for averages, a quarter of the work. */
const STATS_STRIDE = Math.round(0.02 / FRAME_SECONDS);

export interface ConversionSettings {
  stability: number;
  similarity_boost: number;
  style: number;
  use_speaker_boost: boolean;
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const i = Math.floor(pos);
  const f = pos - i;
  return i + 1 < sorted.length ? sorted[i] * (1 - f) + sorted[i + 1] * f : sorted[i];
}

export function activeRms(x: ArrayLike<number>, fs: number): number {
  const frame = Math.max(1, Math.round(fs * 0.01));
  const powers: number[] = [];
  for (let i = 0; i + frame <= x.length; i += frame) {
    let s = 0;
    for (let j = i; j < i + frame; j++) s += x[j] * x[j];
    powers.push(s / frame);
  }
  let peak = 0;
  for (const p of powers) peak = Math.max(peak, p);
  const gate = Math.max(peak * 10 ** (-35 / 10), 1e-12);
  let sum = 0;
  let n = 0;
  for (const p of powers) {
    if (p >= gate) {
      sum += p;
      n++;
    }
  }
  return n ? Math.sqrt(sum / n) : 0;
}

/** Pitch and timbre summary of speech at WORK_RATE. */
export function measureVoice(samples: Float32Array, fs = WORK_RATE, x8 = toF0Rate(samples, fs)): VoiceStats {
  const frames = frameCount(samples.length, fs);
  const yin = new YinFft(x8);
  const idx: number[] = [];
  for (let i = 0; i < frames; i += STATS_STRIDE) idx.push(i);
  const f0 = new Float32Array(idx.length);
  const level = new Float32Array(idx.length);
  for (let j = 0; j < idx.length; j++) {
    const [f, , l] = yin.frame(idx[j] * FRAME_SECONDS * F0_RATE);
    f0[j] = f;
    level[j] = l;
  }
  let loudestDb = -Infinity;
  for (const l of level) loudestDb = Math.max(loudestDb, l);
  cleanStrided(f0, level, loudestDb);
  const analyzer = new SpectralAnalyzer(fs);
  const sum = new Float64Array(BINS);
  const sumU = new Float64Array(BINS);
  const apSum = new Float64Array(AP_BANDS);
  const frame = { logEnv: new Float32Array(BINS), ap: new Float32Array(AP_BANDS) };
  const voiced: number[] = [];
  let unvoiced = 0;
  const previous = new Float32Array(BINS);
  let previousIndex = -2;
  let dynSum = 0;
  let dynCount = 0;
  for (let j = 0; j < idx.length; j++) {
    const isVoiced = f0[j] > 0;
    // Unvoiced frames count when they are speech (within 35 dB of the loudest), not pauses.
    if (!isVoiced && !(level[j] >= loudestDb - 35)) continue;
    analyzer.analyze(samples, idx[j] * FRAME_SECONDS * fs, f0[j], frame);
    if (previousIndex === j - 1) {
      let sw = 0;
      let sd = 0;
      for (let k = 0; k < BINS; k++) {
        const d = frame.logEnv[k] - previous[k];
        sw += WEIGHTS[k];
        sd += WEIGHTS[k] * d * d;
      }
      dynSum += Math.sqrt(sd / sw);
      dynCount++;
    }
    previous.set(frame.logEnv);
    previousIndex = j;
    if (isVoiced) {
      voiced.push(f0[j]);
      for (let k = 0; k < BINS; k++) sum[k] += frame.logEnv[k];
      for (let b = 0; b < AP_BANDS; b++) apSum[b] += logit(frame.ap[b]);
    } else {
      unvoiced++;
      for (let k = 0; k < BINS; k++) sumU[k] += frame.logEnv[k];
    }
  }
  voiced.sort((a, b) => a - b);
  const n = voiced.length;
  return {
    version: VOICE_STATS_VERSION,
    f0MedianHz: n ? quantile(voiced, 0.5) : null,
    f0P10Hz: n ? quantile(voiced, 0.1) : null,
    f0P90Hz: n ? quantile(voiced, 0.9) : null,
    meanLogEnv: Array.from(sum, (s) => (n ? s / n : 0)),
    voicedFrames: n,
    meanLogEnvUnvoiced: Array.from(sumU, (s) => (unvoiced ? s / unvoiced : 0)),
    unvoicedFrames: unvoiced,
    meanApLogit: Array.from(apSum, (s) => (n ? s / n : 0)),
    dynamics: dynCount ? dynSum / dynCount : 0,
    activeRms: activeRms(samples, fs),
    loudestDb: Number.isFinite(loudestDb) ? loudestDb : -120,
  };
}

const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** The pitch-track cleaning for a track sampled every STATS_STRIDE frames: gate, octave folding, blips. */
function cleanStrided(f0: Float32Array, level: Float32Array, loudestDb: number): void {
  for (let i = 0; i < f0.length; i++) if (level[i] < loudestDb - 45) f0[i] = 0;
  const span = Math.round(0.1 / (FRAME_SECONDS * STATS_STRIDE));
  const folded = f0.slice();
  const near: number[] = [];
  for (let i = 0; i < f0.length; i++) {
    if (!(f0[i] > 0)) continue;
    near.length = 0;
    for (let j = Math.max(0, i - span); j <= Math.min(f0.length - 1, i + span); j++) if (f0[j] > 0) near.push(Math.log2(f0[j]));
    near.sort((a, b) => a - b);
    const diff = Math.log2(f0[i]) - near[near.length >> 1];
    folded[i] = diff > 0.75 ? f0[i] / 2 : diff < -0.75 ? f0[i] * 2 : f0[i];
  }
  // An isolated voiced frame (20 ms with nothing voiced either side) is more likely a glitch.
  for (let i = 0; i < f0.length; i++) f0[i] = folded[i] > 0 && (folded[i - 1] > 0 || folded[i + 1] > 0) ? folded[i] : 0;
}

export interface ConversionPlan {
  /** Frequency warp: the output's envelope at f is the input's at f / alpha. */
  alpha: number;
  /** Added to the warped log envelope, per bin: voiced and unvoiced frames. */
  eq: Float32Array;
  eqUnvoiced: Float32Array;
  /** Added to the aperiodicity's logit, per band (toward the target's breathiness). */
  apShift: Float32Array;
  /** log2 F0 mapping: out = targetLog + k * (in - sourceLog) + wander. */
  sourceLog: number;
  targetLog: number;
  k: number;
  /** Octaves of the seeded slow pitch wander (lower stability: more), and its seeded phases. */
  wander: number;
  wanderPhases: number[];
  /** Scale of the envelope's frame-to-frame movement around its local average (toward the target's). */
  dynamics: number;
  /** Linear gain to the output level before the post chain. */
  gain: number;
  seed: number;
  speakerBoost: boolean;
  /** What the plan was made from, for reports. */
  amount: number;
}



/**
 * The band a voice's recording carries: the frequency where its mean envelope falls off a cliff
 * (more than BAND_EDGE_DROP_DB between the kilohertz below and the kilohertz above) and stays
 * down, as a telephone line or an 8 kHz recording leaves it; the whole band when there is none.
 * Natural speech rolls off gently, never like that.
 */
const BAND_EDGE_DROP_DB = 40;
export function bandwidthHz(env: ArrayLike<number>): number {
  const span = Math.round(1000 / df);
  let best = WORK_RATE / 2;
  let bestDrop = BAND_EDGE_DROP_DB * LOG_DB;
  for (let e = Math.round(2000 / df); e + span < BINS; e++) {
    let below = 0;
    let above = 0;
    for (let j = 1; j <= span; j++) {
      below += env[e - j];
      above += env[e + j];
    }
    const drop = (below - above) / span;
    if (drop > bestDrop) {
      bestDrop = drop;
      best = e * df;
    }
  }
  return best;
}

/** Below this share of a recording's band, its envelope is trusted for the fit and the equaliser. */
const BAND_MARGIN = 0.9;

/** Mismatch of two mean envelopes when the source is warped by alpha, ignoring overall level (bins up to topHz). */
function mismatch(src: ArrayLike<number>, tgt: ArrayLike<number>, alpha: number, topHz = WORK_RATE / 2): number {
  let sw = 0;
  let sd = 0;
  let sdd = 0;
  for (let k = 0; k < BINS; k++) {
    const w = WEIGHTS[k];
    if (!w || k * df > topHz) continue;
    const d = tgt[k] - at(src, k / alpha);
    sw += w;
    sd += w * d;
    sdd += w * d * d;
  }
  if (!sw) return Infinity;
  const mean = sd / sw;
  return sdd / sw - mean * mean;
}

/** The widest warp a fit may choose, in octaves either way. */
const MAX_WARP_OCTAVES = 0.5;

/** The warp that best lines up the source's mean envelope with the target's. */
export function fitWarp(src: ArrayLike<number>, tgt: ArrayLike<number>): number {
  const srcBand = bandwidthHz(src);
  const tgtBand = bandwidthHz(tgt);
  // Only where both recordings carry sound (the same bins for every warp, so the errors compare):
  // a band edge would otherwise pull the warp to it. Up to a quarter octave down from the source's
  // edge, so the warps that matter read sound; a wider one meets the edge, which only counts against it.
  const topHz = Math.min(FIT_HI_HZ, BAND_MARGIN * Math.min(tgtBand, srcBand * 2 ** -0.25));
  let best = 1;
  let bestErr = Infinity;
  for (let e = -MAX_WARP_OCTAVES; e <= MAX_WARP_OCTAVES + 1e-9; e += 0.005) {
    const alpha = 2 ** e;
    const err = mismatch(src, tgt, alpha, topHz);
    if (err < bestErr) {
      bestErr = err;
      best = alpha;
    }
  }
  return best;
}

/** Gaussian smoothing along log frequency, sigma in octaves. */
function smoothLogFrequency(x: Float64Array, sigmaOct: number): Float64Array {
  const out = new Float64Array(BINS);
  const logf = new Float64Array(BINS);
  for (let k = 0; k < BINS; k++) logf[k] = Math.log2(Math.max(k, 0.5) * df);
  for (let k = 0; k < BINS; k++) {
    let s = 0;
    let w = 0;
    for (let j = 0; j < BINS; j++) {
      const d = (logf[j] - logf[k]) / sigmaOct;
      if (d < -3 || d > 3) continue;
      const g = Math.exp(-0.5 * d * d);
      s += g * x[j];
      w += g;
    }
    out[k] = s / w;
  }
  return out;
}

const EQ_LIMIT = 12 * LOG_DB;
/** Output level of the speech before the post chain, dBFS RMS (the engine normalises to -18). */
export const OUTPUT_RMS_DB = -18;

/**
 * How far the timbre moves toward the target: 80% at similarity_boost 0, all the way at 1
 * (the default 0.75 goes 95% of the way).
 */
/** Constants chosen on the tuning set (scripts/sts-evaluate.ts --tuning). */
const EQ_SMOOTHING_OCTAVES = 0.05;
const AMOUNT_AT_ZERO_SIMILARITY = 0.8;
// 1.5 was enough between eSpeak voices; flite speech moves its envelope about half as much as
// eSpeak's (Marcus on flite into Lena on eSpeak asks for 2.05), so the bound is 2.5.
const DYNAMICS_LIMIT = 2.5;

export function timbreAmount(similarity: number): number {
  return AMOUNT_AT_ZERO_SIMILARITY + (1 - AMOUNT_AT_ZERO_SIMILARITY) * Math.min(1, Math.max(0, similarity));
}

/** The equaliser from the source's (warped) mean envelope to the target's, centred and bounded. */
function equaliser(src: ArrayLike<number>, tgt: ArrayLike<number>, alpha: number, amount: number): Float32Array {
  // Above the source's band (a telephone line, an 8 kHz file) there is no sound to shape, only its
  // floor: nothing is boosted there, and the level is centred on what the source carries.
  const srcBand = BAND_MARGIN * bandwidthHz(src);
  const inBand = (k: number) => (k / alpha) * df <= srcBand;
  const diff = new Float64Array(BINS);
  for (let k = 0; k < BINS; k++) diff[k] = tgt[k] - at(src, k / alpha);
  // The level is set separately: centre the correction on the fitted band.
  let sw = 0;
  let sd = 0;
  for (let k = 0; k < BINS; k++) {
    if (!inBand(k)) continue;
    sw += WEIGHTS[k];
    sd += WEIGHTS[k] * diff[k];
  }
  const centre = sw ? sd / sw : 0;
  for (let k = 0; k < BINS; k++) diff[k] -= centre;
  const smooth = smoothLogFrequency(diff, EQ_SMOOTHING_OCTAVES);
  const eq = new Float32Array(BINS);
  for (let k = 0; k < BINS; k++) eq[k] = amount * Math.max(-EQ_LIMIT, Math.min(inBand(k) ? EQ_LIMIT : 0, smooth[k]));
  return eq;
}

export function planConversion(src: VoiceStats, tgt: VoiceStats, settings: ConversionSettings, seed: number): ConversionPlan {
  const amount = timbreAmount(settings.similarity_boost);
  const voiced = src.voicedFrames > 0 && tgt.voicedFrames > 0;
  const fullAlpha = voiced ? fitWarp(src.meanLogEnv, tgt.meanLogEnv) : 1;
  const alpha = fullAlpha ** amount;
  const eq = voiced ? equaliser(src.meanLogEnv, tgt.meanLogEnv, alpha, amount) : new Float32Array(BINS);
  const eqUnvoiced = src.unvoicedFrames > 0 && tgt.unvoicedFrames > 0 ? equaliser(src.meanLogEnvUnvoiced, tgt.meanLogEnvUnvoiced, alpha, amount) : eq;
  const apShift = new Float32Array(AP_BANDS);
  if (voiced) for (let b = 0; b < AP_BANDS; b++) apShift[b] = amount * (tgt.meanApLogit[b] - src.meanApLogit[b]);

  const has = (s: VoiceStats) => s.f0MedianHz !== null && s.f0P10Hz !== null && s.f0P90Hz !== null;
  const sourceLog = has(src) ? Math.log2(src.f0MedianHz!) : 0;
  const targetLog = has(tgt) ? Math.log2(tgt.f0MedianHz!) : sourceLog;
  const range = (s: VoiceStats) => Math.max(0.05, Math.log2(s.f0P90Hz!) - Math.log2(s.f0P10Hz!));
  const ratio = has(src) && has(tgt) ? Math.min(1.6, Math.max(0.6, range(tgt) / range(src))) : 1;
  const style = Math.min(1, Math.max(0, settings.style));
  const k = ratio * (1 + 0.8 * style);
  const wander = 0.12 * (1 - Math.min(1, Math.max(0, settings.stability)));

  // Level: the mapped mean envelope's power against the source's predicts the change.
  let pIn = 0;
  let pOut = 0;
  for (let b = 1; b < BINS; b++) {
    pIn += Math.exp(src.meanLogEnv[b]);
    pOut += Math.exp(at(src.meanLogEnv, b / alpha) + eq[b]);
  }
  const change = pIn > 0 && pOut > 0 ? Math.sqrt(pOut / pIn) : 1;
  const gain = src.activeRms > 1e-6 ? 10 ** (OUTPUT_RMS_DB / 20) / (src.activeRms * change) : 1;
  const rand = prng(hashSeed("sts-wander", seed));
  const wanderPhases = [rand(), rand(), rand()];
  const dynamics = src.dynamics > 0 && tgt.dynamics > 0 ? Math.min(DYNAMICS_LIMIT, Math.max(1 / DYNAMICS_LIMIT, tgt.dynamics / src.dynamics)) ** amount : 1;
  return { alpha, eq, eqUnvoiced, apShift, dynamics, sourceLog, targetLog, k, wander, wanderPhases, gain, seed, speakerBoost: settings.use_speaker_boost, amount };
}

const WANDER_RATES = [0.43, 1.07, 2.19];
const WANDER_WEIGHTS = [0.55, 0.3, 0.15];

/**
 * Seeded slow pitch movement in octaves at time t: three incommensurate slow sines (0.4-2.2
 * Hz) with seeded phases, the same for the same seed.
 */
export function wanderAt(plan: ConversionPlan, t: number): number {
  if (plan.wander <= 0) return 0;
  let v = 0;
  for (let i = 0; i < 3; i++) v += WANDER_WEIGHTS[i] * Math.sin(2 * Math.PI * (WANDER_RATES[i] * t + plan.wanderPhases[i]));
  return plan.wander * v;
}

/** Maps one analysed frame into the target voice. */
export function mapFrame(plan: ConversionPlan, index: number, input: SynthFrame, out: SynthFrame): void {
  const voiced = input.f0 > 0;
  if (voiced) {
    const t = index * FRAME_SECONDS;
    const log = plan.targetLog + plan.k * (Math.log2(input.f0) - plan.sourceLog) + wanderAt(plan, t);
    out.f0 = Math.min(1000, Math.max(40, 2 ** log));
  } else out.f0 = 0;
  const { alpha } = plan;
  const eq = voiced ? plan.eq : plan.eqUnvoiced;
  for (let k = 0; k < BINS; k++) out.logEnv[k] = at(input.logEnv, k / alpha) + eq[k];
  for (let b = 0; b < AP_BANDS; b++) out.ap[b] = voiced ? Math.min(0.999, Math.max(0.001, sigmoid(logit(input.ap[b]) + plan.apShift[b]))) : input.ap[b];
}
