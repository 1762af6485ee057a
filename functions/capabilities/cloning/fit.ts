/**
 * Fitting the engine to a speaker: choose VoiceProfile values so the engine's speech measures
 * like the recordings. Analysis by synthesis: render a calibration passage with a candidate
 * profile (render.ts), analyse it exactly as the recordings were analysed, and correct the
 * profile from the difference. Each step is one closed-form correction, so a fit is about ten
 * renders. The instant clone fits on its samples' joined analysis; the professional clone's
 * fine-tuning on the pooled analysis of all of its audio (poolAnalyses).
 *
 *   base     gender and age pick eSpeak's pitch base and formant table: the three bases whose
 *            pitch setting for the target F0 is most central are rendered; the nearest embedding wins
 *   pitch    F0 is exponential in the pitch setting: correct in log F0, twice
 *   range    p90/p10 of F0 in semitones, corrected linearly
 *   rate     measured syllable rate is near-proportional to words per minute: correct by the ratio
 *   timbre   formants scale by ±11.7% per unit timbre: correct by the geometric mean formant ratio
 *   envelope the LTAS difference that remains, per band, as the DSP's envelope correction
 *   quality  breathiness and roughness: the candidate whose embedding is nearest
 *   level    the recordings' speech level
 *
 * The renderer does the CPU work (engine and analyser workers); this file only decides.
 */
import type { Age, Gender, VoiceProfile } from "../../media/engine/port.js";
import type { VoiceAnalysis } from "../../media/voice-analysis/port.js";
import { similarity } from "../../media/voice-analysis/search.js";
import { FLITE_VOICES, type FliteVoiceName } from "../../media/engine/flite/voices.js";

export interface Renderer {
  /**
   * The engine speaking the calibration passage with `profile` at stability 1 (no seeded pitch
   * variation, so each render measures the profile itself), analysed.
   */
  render(profile: VoiceProfile): Promise<VoiceAnalysis>;
  /** Whether it can speak with flite's recorded speakers (profile.engine "flite"); eSpeak's bases always. */
  flite?: boolean;
}

/**
 * A clone speaks at the default stability (0.5), whose seeded variation raises the measured median
 * F0 by about 2%, the p10-p90 range by about 1.8 semitones and the syllable rate by about 1.5%
 * (six voices, three seeds each). Renders are made without it, so the targets allow for it.
 */
export const STABILITY_ALLOWANCE = { f0: 1.02, rangeSemitones: 1.8, rate: 1.015 };

/**
 * How much faster ordinary text measures than the language's calibration passage (passages.ts)
 * read at the same setting: the analyser's speaking rate (sonorant syllable nuclei per second of
 * speech) depends on the words. eSpeak at 170 words per minute, four bases, the three tuning
 * passages of functions/media/voice-analysis/fixtures/texts.ts against the calibration passage
 * (issue 26). Languages not measured take 1.03, the median.
 */
const PASSAGE_RATE: Record<string, number> = { en: 1.132, de: 1.101, fr: 1.018, es: 1.031, it: 1.021, pt: 0.937, pl: 0.989, nl: 0.908, sv: 1.061, hi: 1.073 };
/**
 * Speech from other sources measures this much slower than eSpeak on the same words: fitted on
 * issue 26's English tuning voices (flite slt, rms, kal; Festival slt HTS, kal diphone), each
 * clone compared with its source by speech time on a held-out passage.
 */
const OUTSIDE_RATE = 0.963;

/** The factor a target's measured rate is divided by to give the rate to reach on the calibration passage. */
export function rateCalibration(language: string, base?: FitBase): number {
  const passage = base?.engine === "flite" && base.engineVoice ? FLITE_PASSAGE_RATE[base.engineVoice] : (PASSAGE_RATE[language] ?? 1.03);
  return passage * OUTSIDE_RATE;
}

/**
 * PASSAGE_RATE for flite's speakers, which differ from eSpeak and from each other (the analyser
 * counts their syllable nuclei differently on the calibration passage): each at its native 175
 * words per minute, stability 1, the mean over the three English tuning passages divided by the
 * calibration passage (issue 26). Outside speech measures about 4% slower than the engine's own
 * on flite's speakers too (outside flite slt, rms, kal against the engine's), so OUTSIDE_RATE
 * applies to every base.
 */
const FLITE_PASSAGE_RATE: Record<FliteVoiceName, number> = { slt: 0.944, rms: 1.141, awb: 0.934, kal16: 1.166 };

/**
 * A base a fit may start from: one of eSpeak's gender/age tables, or one of flite's recorded
 * speakers (English only; engine-neutral profile fields, functions/media/engine/flite/voices.ts).
 */
export interface FitBase {
  gender: Gender;
  age: Age;
  pitch: number;
  engine?: "flite";
  engineVoice?: FliteVoiceName;
}

/** flite's pitch scale: semitones per unit away from 50 (functions/media/engine/flite/voices.ts). */
const FLITE_SEMITONES_PER_UNIT = 0.16;
/** A flite base is tried only when the target's F0 is within this many semitones of the speaker's own. */
const FLITE_MAX_SEMITONES = 7;

/** The pitch setting change that moves a base's median F0 by the ratio `ratio`. */
function pitchStep(base: FitBase, ratio: number): number {
  if (base.engine === "flite") return (12 * Math.log2(ratio)) / FLITE_SEMITONES_PER_UNIT;
  const [lo, hi] = BASE_F0[base.gender][base.age];
  return (99 * Math.log(ratio)) / Math.log(hi / lo);
}

/** flite's recorded speakers whose F0 is near the target's, for English targets (no labels contradicting them). */
export function fliteBases(target: BaseTarget): FitBase[] {
  if (target.language !== "en") return [];
  const f0 = target.analysis.f0MedianHz ?? 120;
  return (Object.keys(FLITE_VOICES) as FliteVoiceName[])
    .map((name) => {
      const v = FLITE_VOICES[name];
      const st = 12 * Math.log2(f0 / v.f0);
      return { st, base: { gender: v.gender, age: "middle_aged" as Age, pitch: 50 + st / FLITE_SEMITONES_PER_UNIT, engine: "flite" as const, engineVoice: name } };
    })
    .filter((x) => Math.abs(x.st) <= FLITE_MAX_SEMITONES && (!target.gender || x.base.gender === target.gender))
    .map((x) => x.base);
}

export interface FitTarget {
  analysis: VoiceAnalysis;
  language: string;
  accent?: string;
  /** Labels the user gave; they fix the base when present. */
  gender?: Gender;
  age?: Age;
  seed: number;
}

/** What choosing a base needs of a target: its median F0 and pace, besides the labels. */
export type BaseTarget = Omit<FitTarget, "analysis"> & { analysis: Pick<VoiceAnalysis, "f0MedianHz" | "speakingRate"> };

export interface FitReport {
  renders: number;
  base: { gender: Gender; age: Age; engineVoice?: string; similarity: number }[];
  target: { f0MedianHz: number | null; rangeSemitones: number | null; speakingRate: number; formantsHz: VoiceAnalysis["formantsHz"] };
  fitted: { f0MedianHz: number | null; rangeSemitones: number | null; speakingRate: number; formantsHz: VoiceAnalysis["formantsHz"]; similarity: number };
}

/**
 * F0 (Hz) of each base at pitch settings 0 and 99 on the calibration passage, stability 1
 * (measured with scripts/voice-clone-calibrate.ts; corrections absorb the residual error).
 */
export const BASE_F0: Record<Gender, Record<Age, readonly [number, number]>> = {
  male: { young: [77, 198], middle_aged: [68, 174], old: [62, 161] },
  female: { young: [142, 370], middle_aged: [133, 339], old: [119, 309] },
  neutral: { young: [106, 276], middle_aged: [97, 252], old: [89, 229] },
};
const GENDERS: Gender[] = ["male", "female", "neutral"];
const AGES: Age[] = ["young", "middle_aged", "old"];
/** Formant frequencies scale by this per unit timbre at the default similarity_boost (0.12 x 0.975). */
const TIMBRE_FORMANT_SLOPE = 0.117;
const MAX_ENVELOPE_DB = 12;

const clamp = (x: number, lo: number, hi: number) => (Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : lo);
const semitones = (a: VoiceAnalysis) => (a.f0P10Hz && a.f0P90Hz ? 12 * Math.log2(a.f0P90Hz / a.f0P10Hz) : null);

/** The pitch setting (0..99) that puts a base's median F0 at `hz`. */
export function pitchFor(gender: Gender, age: Age, hz: number): number {
  const [lo, hi] = BASE_F0[gender][age];
  return (99 * Math.log(hz / lo)) / Math.log(hi / lo);
}

function formantRatio(target: VoiceAnalysis, got: VoiceAnalysis): number | null {
  const logs: number[] = [];
  target.formantsHz.forEach((t, i) => {
    const g = got.formantsHz[i];
    if (t && g) logs.push(Math.log(t / g));
  });
  return logs.length ? Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length) : null;
}

/** Bases in order of plausibility for a target F0 (and the user's labels when given). */
export function candidateBases(target: BaseTarget, count = 3): Array<{ gender: Gender; age: Age; pitch: number }> {
  const f0 = target.analysis.f0MedianHz ?? 120;
  const all = GENDERS.flatMap((gender) => AGES.map((age) => ({ gender, age, pitch: pitchFor(gender, age, f0) })))
    .filter((b) => (!target.gender || b.gender === target.gender) && (!target.age || b.age === target.age));
  // A setting near the middle is how the base naturally sounds; the extremes stretch eSpeak.
  return all.sort((a, b) => Math.abs(a.pitch - 50) - Math.abs(b.pitch - 50)).slice(0, count);
}

function smoothEnvelope(e: number[]): number[] {
  return e.map((_, i) => {
    const a = e[Math.max(0, i - 1)], b = e[i], c = e[Math.min(e.length - 1, i + 1)];
    return (a + 2 * b + c) / 4;
  });
}

/** The profile a fit starts from: a base at the pitch of the target's median F0 and its pace. */
function startProfile(target: BaseTarget, gender: Gender, age: Age, pitch: number, base?: FitBase): VoiceProfile {
  const targetRate = target.analysis.speakingRate / STABILITY_ALLOWANCE.rate / rateCalibration(target.language, base);
  return {
    ...(base?.engine ? { engine: base.engine, engineVoice: base.engineVoice } : {}),
    language: target.language,
    accent: target.accent,
    gender,
    age,
    pitch: Math.round(clamp(pitch, 0, 99)),
    pitchRange: 50,
    // About 4.0 measured sonorant syllable nuclei per second at 170 words per minute.
    rate: Math.round(clamp((170 * targetRate) / 4.0, 90, 400)),
    timbre: 0,
    breathiness: 0,
    seed: target.seed >>> 0,
  };
}

/**
 * A profile near the target without rendering anything: the most plausible base at its median
 * F0 and pace. What a voice that is not fitted yet (a professional clone before fine-tuning)
 * reads a verification sentence with, so the alignment compares like with like.
 */
export function estimateProfile(target: BaseTarget): VoiceProfile {
  const [b] = candidateBases(target, 1);
  return startProfile(target, b.gender, b.age, b.pitch);
}

/**
 * Pools the analyses of several recordings into one, each weighted by its speech (`weight`,
 * normally speechSecs), with every measure the fit reads: pitch on a log scale (semitones are
 * what the ear hears), formants likewise, the spectra averaged in dB (the mean log spectrum is
 * a mean over speech frames, so this is exact for it), levels averaged in power, and the
 * embedding as the normalised weighted sum. Segments are per recording and not pooled.
 */
export function poolAnalyses(items: Array<{ analysis: VoiceAnalysis; weight: number }>): VoiceAnalysis {
  const used = items.filter((i) => i.weight > 0 && Number.isFinite(i.weight));
  if (used.length === 0) throw new Error("no recording with speech to pool");
  const mean = (pick: (a: VoiceAnalysis) => number | null) => {
    let s = 0, n = 0;
    for (const { analysis, weight } of used) {
      const v = pick(analysis);
      if (v === null || !Number.isFinite(v)) continue;
      s += v * weight;
      n += weight;
    }
    return n > 0 ? s / n : null;
  };
  const logMean = (pick: (a: VoiceAnalysis) => number | null) => {
    const m = mean((a) => {
      const v = pick(a);
      return v && v > 0 ? Math.log(v) : null;
    });
    return m === null ? null : Math.exp(m);
  };
  const powerMean = (pick: (a: VoiceAnalysis) => number | null) => {
    const m = mean((a) => {
      const v = pick(a);
      return v === null ? null : 10 ** (v / 10);
    });
    return m === null || m <= 0 ? null : 10 * Math.log10(m);
  };
  const bands = (pick: (a: VoiceAnalysis) => number[]) => pick(used[0].analysis).map((_, i) => mean((a) => pick(a)[i] ?? null) ?? 0);
  const dim = used[0].analysis.embedding.length;
  const emb = new Array<number>(dim).fill(0);
  for (const { analysis, weight } of used) analysis.embedding.forEach((v, d) => (emb[d] += v * weight));
  const norm = Math.sqrt(emb.reduce((s, v) => s + v * v, 0)) || 1;
  const f0P10Hz = logMean((a) => a.f0P10Hz);
  const f0P90Hz = logMean((a) => a.f0P90Hz);
  return {
    embeddingVersion: used[0].analysis.embeddingVersion,
    embedding: emb.map((v) => v / norm),
    durationSecs: used.reduce((s, i) => s + i.analysis.durationSecs, 0),
    speechSecs: used.reduce((s, i) => s + i.analysis.speechSecs, 0),
    segments: [],
    f0MedianHz: logMean((a) => a.f0MedianHz),
    f0RangeHz: f0P10Hz !== null && f0P90Hz !== null ? f0P90Hz - f0P10Hz : null,
    f0P10Hz,
    f0P90Hz,
    voicedRatio: mean((a) => a.voicedRatio) ?? 0,
    speakingRate: mean((a) => (a.speakingRate > 0 ? a.speakingRate : null)) ?? 0,
    loudnessLufs: powerMean((a) => a.loudnessLufs),
    rmsDbfs: powerMean((a) => a.rmsDbfs) ?? -100,
    peakDbfs: Math.max(...used.map((i) => i.analysis.peakDbfs)),
    snrDb: mean((a) => a.snrDb) ?? 0,
    clippingRatio: mean((a) => a.clippingRatio) ?? 0,
    ltasDb: bands((a) => a.ltasDb),
    logSpectrumDb: bands((a) => a.logSpectrumDb),
    spectralCentroidHz: mean((a) => a.spectralCentroidHz) ?? 0,
    spectralTiltDbPerOctave: mean((a) => a.spectralTiltDbPerOctave) ?? 0,
    formantsHz: [0, 1, 2].map((i) => logMean((a) => a.formantsHz[i] ?? null)) as VoiceAnalysis["formantsHz"],
  };
}

/** Geometric mean of F1..F3 when all three were found, Hz (what a fine-tuning report shows). */
export function formantMean(formants: VoiceAnalysis["formantsHz"]): number | null {
  const f = formants.filter((x): x is number => x !== null && x > 0);
  return f.length === 3 ? Math.exp(f.reduce((s, x) => s + Math.log(x), 0) / 3) : null;
}

export async function fitProfile(target: FitTarget, renderer: Renderer): Promise<{ profile: VoiceProfile; report: FitReport }> {
  const t = target.analysis;
  let renders = 0;
  const render = async (p: VoiceProfile) => {
    renders++;
    return renderer.render(p);
  };
  const targetF0 = (t.f0MedianHz ?? 120) / STABILITY_ALLOWANCE.f0;
  const measuredSt = semitones(t);
  const targetSt = measuredSt === null ? null : Math.max(0.5, measuredSt - STABILITY_ALLOWANCE.rangeSemitones);
  const start = (b: FitBase) => startProfile(target, b.gender, b.age, b.pitch, b);

  // 1. The base: render the most plausible eSpeak bases and flite's speakers near the target's
  // F0, keep the nearest by the embedding (ties, in the order tried: deterministic).
  const bases: FitBase[] = [...candidateBases(target), ...(renderer.flite ? fliteBases(target) : [])];
  const tried = await Promise.all(bases.map(async (b) => ({ b, a: await render(start(b)) })));
  const ranked = [...tried].sort((x, y) => similarity(y.a.embedding, t.embedding) - similarity(x.a.embedding, t.embedding));
  const chosen = ranked[0].b;
  const targetRate = t.speakingRate / STABILITY_ALLOWANCE.rate / rateCalibration(target.language, chosen);
  let profile = start(chosen);
  let got = ranked[0].a;

  // 2. Pitch, range, rate and timbre: two rounds of corrections. The formant estimate is the
  // noisy one, so its step is damped and kept only when the voice did not move away.
  const sim = (a: VoiceAnalysis) => similarity(a.embedding, t.embedding);
  for (let round = 0; round < 2; round++) {
    const next = { ...profile };
    if (got.f0MedianHz) next.pitch = Math.round(clamp(profile.pitch + pitchStep(chosen, targetF0 / got.f0MedianHz), 0, 99));
    const st = semitones(got);
    if (targetSt !== null && st !== null && st > 0.1) next.pitchRange = Math.round(clamp(profile.pitchRange * (targetSt / st), 0, 100));
    if (got.speakingRate > 0 && targetRate > 0) next.rate = Math.round(clamp(profile.rate * (targetRate / got.speakingRate), 80, 450));
    const fr = formantRatio(t, got);
    // flite's timbre is a spectral tilt, not a formant scale: there the envelope step does that work.
    if (fr !== null && chosen.engine !== "flite") next.timbre = Math.round(clamp(profile.timbre + clamp((0.7 * (fr - 1)) / TIMBRE_FORMANT_SLOPE, -0.4, 0.4), -1, 1) * 100) / 100;
    const a = await render(next);
    if (next.timbre !== profile.timbre && sim(a) < sim(got) - 0.02) {
      profile = { ...next, timbre: profile.timbre };
      got = await render(profile);
    } else {
      profile = next;
      got = a;
    }
  }

  // 3. The spectral envelope that is left (in the mean log spectrum, which a filter shifts by
  // exactly its gain), then once more on what that left.
  let envelope = smoothEnvelope(t.logSpectrumDb.map((v, i) => v - got.logSpectrumDb[i]));
  for (let round = 0; round < 2; round++) {
    const withEnv = { ...profile, envelope: envelope.map((g) => Math.round(clamp(g, -MAX_ENVELOPE_DB, MAX_ENVELOPE_DB) * 10) / 10) };
    const a = await render(withEnv);
    if (sim(a) >= sim(got) || round === 0) {
      profile = withEnv;
      got = a;
    }
    envelope = profile.envelope!.map((g, i) => g + 0.8 * (t.logSpectrumDb[i] - got.logSpectrumDb[i]));
  }

  // 4. Voice quality: breathiness and roughness, by the nearest embedding.
  const qualities = [
    { breathiness: 0.2, roughness: 0 },
    { breathiness: 0.45, roughness: 0 },
    { breathiness: 0, roughness: 0.35 },
  ];
  const q = await Promise.all(qualities.map(async (v) => ({ v, a: await render({ ...profile, ...v }) })));
  let best = { v: { breathiness: 0, roughness: 0 }, a: got };
  for (const c of q) if (sim(c.a) > sim(best.a)) best = c;
  profile = { ...profile, ...best.v };
  got = best.a;

  // 5. Level: the samples' own, within what the DSP normalises to sensibly.
  profile.levelDb = Math.round(clamp(t.rmsDbfs, -30, -12) * 10) / 10;

  return {
    profile,
    report: {
      renders,
      base: tried.map((x) => ({ gender: x.b.gender, age: x.b.age, ...(x.b.engineVoice ? { engineVoice: x.b.engineVoice } : {}), similarity: Math.round(similarity(x.a.embedding, t.embedding) * 1000) / 1000 })),
      target: { f0MedianHz: t.f0MedianHz, rangeSemitones: measuredSt, speakingRate: t.speakingRate, formantsHz: t.formantsHz },
      fitted: { f0MedianHz: got.f0MedianHz, rangeSemitones: semitones(got), speakingRate: got.speakingRate, formantsHz: got.formantsHz, similarity: similarity(got.embedding, t.embedding) },
    },
  };
}
