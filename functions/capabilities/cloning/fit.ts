/**
 * Fitting the engine's voice profile to recorded speech, by analysis and synthesis: the target is
 * what the voice analysis measured on the recordings (pitch centre and range, speaking rate,
 * formants, spectrum); the engine reads a calibration passage with a candidate profile, the same
 * analysis measures it, and each profile parameter is moved (by bisection, each measure being
 * monotonic in its parameter) until the engine's reading measures like the recordings. More
 * recordings make the target steadier: the professional clone fits on all of its audio.
 *
 * `fitProfile` needs a way to hear a profile (`listen`): synthesis plus analysis, both on their
 * own worker pools, so the fit itself is light.
 */
import type { Age, Gender, VoiceProfile } from "../../media/engine/port.js";
import type { VoiceAnalysis } from "../../media/voice-analysis/port.js";

/** What the recordings measure, pooled over all of them (speech-weighted). */
export interface FitTarget {
  f0MedianHz: number | null;
  f0P10Hz: number | null;
  f0P90Hz: number | null;
  speakingRate: number;
  /** Geometric mean of F1..F3 where found, Hz. */
  formantMeanHz: number | null;
  spectralCentroidHz: number;
  embedding: number[];
}

export interface FitResult {
  profile: VoiceProfile;
  /** What the fitted profile's reading measures, beside the target. */
  achieved: { f0MedianHz: number | null; f0RangeSemitones: number | null; speakingRate: number; formantMeanHz: number | null };
  target: { f0MedianHz: number | null; f0RangeSemitones: number | null; speakingRate: number; formantMeanHz: number | null };
  /** Cosine similarity of the readings' embedding to the recordings': the default profile's and the fitted one's. */
  similarityBefore: number;
  similarityAfter: number;
  /** Readings the fit listened to. */
  evaluations: number;
}

export type Listen = (profile: VoiceProfile) => Promise<VoiceAnalysis>;

/** Pools analyses of several recordings, each weighted by its speech. */
export function poolAnalyses(items: Array<{ analysis: VoiceAnalysis; weight: number }>): FitTarget {
  const w = (pick: (a: VoiceAnalysis) => number | null) => {
    let s = 0, n = 0;
    for (const { analysis, weight } of items) {
      const v = pick(analysis);
      if (v === null || !Number.isFinite(v) || weight <= 0) continue;
      s += v * weight;
      n += weight;
    }
    return n > 0 ? s / n : null;
  };
  // Pitch is pooled on a log scale (semitones are what the ear hears).
  const logMean = (pick: (a: VoiceAnalysis) => number | null) => {
    const m = w((a) => {
      const v = pick(a);
      return v && v > 0 ? Math.log2(v) : null;
    });
    return m === null ? null : 2 ** m;
  };
  const dim = items[0]?.analysis.embedding.length ?? 0;
  const emb = new Array<number>(dim).fill(0);
  for (const { analysis, weight } of items) analysis.embedding.forEach((v, d) => (emb[d] += v * weight));
  const norm = Math.sqrt(emb.reduce((s, v) => s + v * v, 0)) || 1;
  return {
    f0MedianHz: logMean((a) => a.f0MedianHz),
    f0P10Hz: logMean((a) => a.f0P10Hz),
    f0P90Hz: logMean((a) => a.f0P90Hz),
    speakingRate: w((a) => (a.speakingRate > 0 ? a.speakingRate : null)) ?? 0,
    formantMeanHz: logMean(formantMean),
    spectralCentroidHz: w((a) => a.spectralCentroidHz) ?? 0,
    embedding: emb.map((v) => v / norm),
  };
}

export function formantMean(a: Pick<VoiceAnalysis, "formantsHz">): number | null {
  const f = a.formantsHz.filter((x): x is number => x !== null && x > 0);
  return f.length === 3 ? Math.exp(f.reduce((s, x) => s + Math.log(x), 0) / 3) : null;
}

const semitones = (lo: number | null, hi: number | null) => (lo && hi ? 12 * Math.log2(hi / lo) : null);

/** Gender from the pitch centre: under 165 Hz male, over 180 Hz female, in between neutral. */
export function genderFromPitch(f0: number | null, fallback: Gender): Gender {
  if (!f0) return fallback;
  return f0 < 165 ? "male" : f0 > 180 ? "female" : "neutral";
}

export interface FitOptions {
  language: string;
  gender?: Gender;
  age?: Age;
  seed: number;
  /** Start from this profile (the clone's current one). */
  start?: VoiceProfile;
  /** Bisection steps per parameter and passes over all parameters. */
  steps?: number;
  passes?: number;
}

const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * (b[i] ?? 0), 0);

export async function fitProfile(target: FitTarget, listen: Listen, opts: FitOptions): Promise<FitResult> {
  const gender = opts.gender ?? genderFromPitch(target.f0MedianHz, opts.start?.gender ?? "neutral");
  let profile: VoiceProfile = {
    language: opts.language,
    accent: opts.start?.accent,
    gender,
    age: opts.age ?? opts.start?.age ?? "middle_aged",
    pitch: 50,
    pitchRange: 50,
    rate: 170,
    timbre: 0,
    breathiness: opts.start?.breathiness ?? 0.05,
    seed: opts.seed,
  };
  let evaluations = 0;
  const hear = async (p: VoiceProfile) => {
    evaluations++;
    return listen(p);
  };
  const before = await hear(profile);
  const steps = opts.steps ?? 6;
  // Age changes the engine's voice beyond pitch (formants, flutter, rate): unless the labels say,
  // each age is tried with its pitch matched, and the reading most like the recordings wins.
  if (!opts.age && target.f0MedianHz) {
    let best = { sim: -Infinity, age: profile.age, pitch: profile.pitch };
    for (const age of ["young", "middle_aged", "old"] as const) {
      let lo = 0, hi = 99;
      for (let i = 0; i < 5; i++) {
        const mid = Math.round((lo + hi) / 2);
        const heard = await hear({ ...profile, age, pitch: mid });
        if (!heard.f0MedianHz) break;
        if (heard.f0MedianHz < target.f0MedianHz) lo = mid;
        else hi = mid;
      }
      const pitch = Math.round((lo + hi) / 2);
      const sim = cosine((await hear({ ...profile, age, pitch })).embedding, target.embedding);
      if (sim > best.sim) best = { sim, age, pitch };
    }
    profile = { ...profile, age: best.age, pitch: best.pitch };
  }
  type Param = { key: "pitch" | "pitchRange" | "rate" | "timbre"; lo: number; hi: number; want: number | null; measure: (a: VoiceAnalysis) => number | null; round: (x: number) => number };
  const params: Param[] = [
    { key: "pitch", lo: 0, hi: 99, want: target.f0MedianHz ? Math.log2(target.f0MedianHz) : null, measure: (a) => (a.f0MedianHz ? Math.log2(a.f0MedianHz) : null), round: Math.round },
    { key: "rate", lo: 80, hi: 400, want: target.speakingRate || null, measure: (a) => a.speakingRate || null, round: Math.round },
    // Range is the least steady measure (the engine moves sentence pitch too): kept within sane bounds.
    { key: "pitchRange", lo: 20, hi: 90, want: semitones(target.f0P10Hz, target.f0P90Hz), measure: (a) => semitones(a.f0P10Hz, a.f0P90Hz), round: Math.round },
    {
      key: "timbre",
      lo: -1,
      hi: 1,
      want: target.formantMeanHz ? Math.log2(target.formantMeanHz) : target.spectralCentroidHz ? Math.log2(target.spectralCentroidHz) : null,
      measure: (a) => {
        const f = formantMean(a);
        return target.formantMeanHz ? (f ? Math.log2(f) : null) : a.spectralCentroidHz ? Math.log2(a.spectralCentroidHz) : null;
      },
      round: (x) => Math.round(x * 100) / 100,
    },
  ];
  for (let pass = 0; pass < (opts.passes ?? 2); pass++) {
    for (const p of params) {
      if (p.want === null) continue;
      // Each measure grows with its parameter: bisect towards the target.
      let lo = p.lo;
      let hi = p.hi;
      // Later passes search near the current value.
      if (pass > 0) {
        const span = (p.hi - p.lo) / 4;
        lo = Math.max(p.lo, profile[p.key] - span);
        hi = Math.min(p.hi, profile[p.key] + span);
      }
      for (let i = 0; i < steps; i++) {
        const mid = p.round((lo + hi) / 2);
        const heard = p.measure(await hear({ ...profile, [p.key]: mid }));
        if (heard === null) break;
        if (heard < p.want) lo = mid;
        else hi = mid;
      }
      profile = { ...profile, [p.key]: p.round((lo + hi) / 2) };
    }
  }
  const after = await hear(profile);
  return {
    profile,
    achieved: { f0MedianHz: after.f0MedianHz, f0RangeSemitones: round2(semitones(after.f0P10Hz, after.f0P90Hz)), speakingRate: after.speakingRate, formantMeanHz: round0(formantMean(after)) },
    target: { f0MedianHz: round1(target.f0MedianHz), f0RangeSemitones: round2(semitones(target.f0P10Hz, target.f0P90Hz)), speakingRate: round2(target.speakingRate)!, formantMeanHz: round0(target.formantMeanHz) },
    similarityBefore: round3(cosine(before.embedding, target.embedding)),
    similarityAfter: round3(cosine(after.embedding, target.embedding)),
    evaluations,
  };
}

const r = (d: number) => (x: number | null) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);
const round0 = r(0);
const round1 = r(1);
const round2 = r(2);
const round3 = (x: number) => Math.round(x * 1000) / 1000;
