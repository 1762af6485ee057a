/**
 * Measures speech to speech on engine speech, for functions/engine/README.md.
 *
 *   node --import tsx scripts/sts-evaluate.ts               # held-out figures
 *   node --import tsx scripts/sts-evaluate.ts --tuning      # the set the parameters were tuned on
 *   node --import tsx scripts/sts-evaluate.ts --isolation   # the voice isolator
 *
 * Tuning set (what the mapping's constants were chosen on): the 7 English premade voices, all
 * ordered pairs, reading TUNING_TEXTS. Held out (never used while tuning): the premade voices of
 * the other 9 languages, ordered pairs within each language, and 24 designed voices (seed 1212,
 * which neither the embedding's calibration nor the tuning used), each converted into 3 others,
 * all reading the first and third held-out passages of their language.
 *
 * Per pair: the source voice reads a text; the conversion turns it into the target (the target
 * measured as production measures it: the engine reading the reference passages); the output
 * is compared with the target voice reading the same text (default settings):
 * - duration: output samples / input samples;
 * - pitch: median F0 of the output against the target's reading (the analyzer's YIN);
 * - identity: the output's speaker embedding nearer the target's reading than the input.
 */
import { EspeakEngine } from "../functions/engine/espeak/engine.js";
import { analyzeVoice } from "../functions/voice-analysis/analyze.js";
import { similarity } from "../functions/voice-analysis/search.js";
import { PASSAGES } from "../functions/voice-analysis/fixtures/texts.js";
import { designedVoices, premadeVoices, speak, type NamedVoice } from "../functions/voice-analysis/fixtures/voices.js";
import { convertAll } from "../functions/voice-conversion/convert.js";
import { measureVoice, type VoiceStats } from "../functions/voice-conversion/mapping.js";
import { referenceText } from "../functions/voice-conversion/reference.js";
import { DEFAULT_VOICE_SETTINGS } from "../functions/engine/port.js";
import { hashSeed, prng } from "../functions/engine/prng.js";
import { resample } from "../functions/audio/resample.js";
import { denoise } from "../functions/audio/denoise/index.js";
import { isolateVoice } from "../functions/audio/denoise/isolate.js";
import { loadFastRnnoise } from "../functions/audio/denoise/rnnoise-fast.js";

export const TUNING_TEXTS = [
  PASSAGES.en.heldOut[1],
  "My sister keeps a small notebook in her coat pocket. She writes down every bird she sees on the way to work, even the pigeons.",
  "Turn left at the bakery and walk until you reach the blue door. If nobody answers, leave the parcel with the neighbour upstairs.",
];

export interface PairResult {
  source: string;
  target: string;
  durationRatio: number;
  pitchError: number;
  simTarget: number;
  simSource: number;
  rtf: number;
}

export interface EvaluationSummary {
  pairs: number;
  maxDurationError: number;
  pitchWithin10: number;
  medianAbsPitchError: number;
  maxAbsPitchError: number;
  nearerTarget: number;
  meanSimTarget: number;
  meanSimSource: number;
  medianRtf: number;
}

const quantile = (v: number[], q: number) => {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))];
};

export function summarise(results: PairResult[]): EvaluationSummary {
  const n = results.length;
  return {
    pairs: n,
    maxDurationError: Math.max(...results.map((r) => Math.abs(r.durationRatio - 1))),
    pitchWithin10: results.filter((r) => Math.abs(r.pitchError) <= 0.1).length / n,
    medianAbsPitchError: quantile(results.map((r) => Math.abs(r.pitchError)), 0.5),
    maxAbsPitchError: Math.max(...results.map((r) => Math.abs(r.pitchError))),
    nearerTarget: results.filter((r) => r.simTarget > r.simSource).length / n,
    meanSimTarget: results.reduce((s, r) => s + r.simTarget, 0) / n,
    meanSimSource: results.reduce((s, r) => s + r.simSource, 0) / n,
    medianRtf: quantile(results.map((r) => r.rtf), 0.5),
  };
}

/** Converts every pair reading each text; `settings` as a request would give them. */
export async function evaluatePairs(
  engine: EspeakEngine,
  pairs: Array<[NamedVoice, NamedVoice]>,
  textsFor: (v: NamedVoice) => string[],
  settings = { stability: DEFAULT_VOICE_SETTINGS.stability, similarity_boost: DEFAULT_VOICE_SETTINGS.similarity_boost, style: 0, use_speaker_boost: true },
  log = false,
): Promise<PairResult[]> {
  const fs = engine.sampleRate;
  const targets = new Map<string, VoiceStats>();
  const readings = new Map<string, Float32Array>();
  const reading = async (v: NamedVoice, text: string) => {
    const key = `${v.name}\u0000${text}`;
    let x = readings.get(key);
    if (!x) readings.set(key, (x = await speak(engine, v.profile, text)));
    return x;
  };
  const results: PairResult[] = [];
  for (const [s, t] of pairs) {
    let target = targets.get(t.name);
    if (!target) targets.set(t.name, (target = measureVoice(await speak(engine, t.profile, referenceText(t.profile.language)), fs)));
    for (const text of textsFor(s)) {
      const x = await reading(s, text);
      const started = performance.now();
      const y = convertAll(x, { target, settings, seed: 1 });
      const rtf = (performance.now() - started) / 1000 / (x.length / fs);
      const [ax, ay, at] = [analyzeVoice(x, fs), analyzeVoice(y, fs), analyzeVoice(await reading(t, text), fs)];
      const r: PairResult = {
        source: s.name,
        target: t.name,
        durationRatio: y.length / x.length,
        pitchError: ay.f0MedianHz && at.f0MedianHz ? ay.f0MedianHz / at.f0MedianHz - 1 : Number.NaN,
        simTarget: similarity(ay.embedding, at.embedding),
        simSource: similarity(ay.embedding, ax.embedding),
        rtf,
      };
      results.push(r);
      if (log) console.log(`${r.source} -> ${r.target}: pitch ${(r.pitchError * 100).toFixed(1)}%, target ${r.simTarget.toFixed(2)} vs source ${r.simSource.toFixed(2)}${r.simTarget > r.simSource ? "" : "  (nearer the source)"}`);
    }
  }
  return results;
}

export function tuningPairs(): Array<[NamedVoice, NamedVoice]> {
  const en = premadeVoices().filter((v) => v.profile.language === "en");
  return en.flatMap((s) => en.filter((t) => t !== s).map((t) => [s, t] as [NamedVoice, NamedVoice]));
}

export function heldOutPairs(): Array<[NamedVoice, NamedVoice]> {
  const pairs: Array<[NamedVoice, NamedVoice]> = [];
  const premade = premadeVoices().filter((v) => v.profile.language !== "en");
  for (const s of premade) for (const t of premade) if (s !== t && s.profile.language === t.profile.language) pairs.push([s, t]);
  const designed = designedVoices(24, 1212);
  const rand = prng(hashSeed("sts-held-out-pairs"));
  for (const s of designed) {
    const others = designed.filter((t) => t !== s);
    for (let i = 0; i < 3; i++) pairs.push([s, others.splice(Math.floor(rand() * others.length), 1)[0]]);
  }
  return pairs;
}

export const heldOutTexts = (v: NamedVoice) => {
  const p = PASSAGES[v.profile.language] ?? PASSAGES.en;
  return [p.heldOut[0], p.heldOut[2]];
};

/**
 * The isolator on engine speech (premade voices, held-out passages) mixed at 5 dB SNR with four
 * noises made here: white, pink, brown (random walk) and mains hum with harmonics over a little
 * white noise. Noise is made at the speech's 22.05 kHz and mixed there; the input is upsampled
 * to 48 kHz as the API does, isolated, and brought back to 22.05 kHz. SNR is sample for sample
 * against the clean speech: 10 log10(sum clean^2 / sum (output - clean)^2).
 */
export function noise(kind: "white" | "pink" | "brown" | "hum", n: number, seed: number, fs = 22_050): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  let b0 = 0;
  let b1 = 0;
  let br = 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const w = s / 2 ** 31 - 1;
    if (kind === "white") out[i] = w;
    else if (kind === "pink") {
      b0 = 0.99765 * b0 + w * 0.099;
      b1 = 0.963 * b1 + w * 0.2965;
      out[i] = b0 + b1 + w * 0.18;
    } else if (kind === "brown") {
      br = 0.995 * br + w * 0.1;
      out[i] = br;
    } else out[i] = Math.sin((2 * Math.PI * 120 * i) / fs) + 0.5 * Math.sin((2 * Math.PI * 240 * i) / fs) + 0.3 * w;
  }
  return out;
}

export function snrDb(clean: Float32Array, x: Float32Array): number {
  let s = 0;
  let e = 0;
  for (let i = 0; i < clean.length; i++) {
    s += clean[i] ** 2;
    e += (x[i] - clean[i]) ** 2;
  }
  return 10 * Math.log10(s / e);
}

export function mixAt(clean: Float32Array, n: Float32Array, db: number): Float32Array {
  let ps = 0;
  let pn = 0;
  for (let i = 0; i < clean.length; i++) {
    ps += clean[i] ** 2;
    pn += n[i] ** 2;
  }
  const g = Math.sqrt(ps / pn / 10 ** (db / 10));
  return clean.map((v, i) => v + g * n[i]);
}

async function evaluateIsolation(engine: EspeakEngine) {
  const rn = await loadFastRnnoise();
  const voices = premadeVoices().filter((_, i) => i % 3 === 0);
  const gains: Record<string, { rnnoise: number[]; isolator: number[] }> = {};
  let cpu = 0;
  let audio = 0;
  for (const [vi, v] of voices.entries()) {
    const p = PASSAGES[v.profile.language] ?? PASSAGES.en;
    const clean = await speak(engine, v.profile, p.heldOut[vi % 3]);
    for (const kind of ["white", "pink", "brown", "hum"] as const) {
      const noisy = mixAt(clean, noise(kind, clean.length, 9 + vi), 5);
      const at48 = resample(noisy, 22_050, 48_000);
      const base = snrDb(clean, noisy);
      const rnOnly = resample(await denoise(at48, 48_000), 48_000, 22_050).subarray(0, clean.length);
      const c = process.cpuUsage();
      const out = new Float32Array(at48.length);
      let o = 0;
      for (const b of isolateVoice(at48, rn)) {
        out.set(b, o);
        o += b.length;
      }
      const u = process.cpuUsage(c);
      cpu += (u.user + u.system) / 1e6;
      audio += clean.length / 22_050;
      const isolated = resample(out, 48_000, 22_050).subarray(0, clean.length);
      (gains[kind] ??= { rnnoise: [], isolator: [] }).rnnoise.push(snrDb(clean, rnOnly) - base);
      gains[kind].isolator.push(snrDb(clean, isolated) - base);
      console.log(`${v.name} ${kind}: in ${base.toFixed(1)} dB, RNNoise +${(snrDb(clean, rnOnly) - base).toFixed(1)} dB, isolator +${(snrDb(clean, isolated) - base).toFixed(1)} dB`);
    }
  }
  const stats = (x: number[]) => ({ mean: +(x.reduce((a, b) => a + b, 0) / x.length).toFixed(1), min: +Math.min(...x).toFixed(1), max: +Math.max(...x).toFixed(1) });
  console.log(JSON.stringify({ clips: voices.length, cpuRtf: +(cpu / audio).toFixed(3), ...Object.fromEntries(Object.entries(gains).map(([k, g]) => [k, { rnnoise: stats(g.rnnoise), isolator: stats(g.isolator) }])) }, null, 2));
}

async function main() {
  if (process.argv.includes("--isolation")) {
    const engine = new EspeakEngine({ size: 1 });
    try {
      await evaluateIsolation(engine);
    } finally {
      await engine.close();
    }
    return;
  }
  const tuning = process.argv.includes("--tuning");
  const engine = new EspeakEngine({ size: 1 });
  try {
    const results = tuning
      ? await evaluatePairs(engine, tuningPairs(), () => TUNING_TEXTS, undefined, true)
      : await evaluatePairs(engine, heldOutPairs(), heldOutTexts, undefined, true);
    console.log(JSON.stringify({ set: tuning ? "tuning" : "held-out", ...summarise(results) }, null, 2));
  } finally {
    await engine.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
