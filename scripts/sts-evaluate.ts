/**
 * Measures speech to speech on engine speech, for functions/media/engine/README.md.
 *
 *   node --import tsx scripts/sts-evaluate.ts               # held-out figures
 *   node --import tsx scripts/sts-evaluate.ts --tuning      # the set the parameters were tuned on
 *   node --import tsx scripts/sts-evaluate.ts --every=4     # every 4th held-out pair
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
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { analyzeVoice } from "../functions/media/voice-analysis/analyze.js";
import { similarity } from "../functions/media/voice-analysis/search.js";
import { PASSAGES } from "../functions/media/voice-analysis/fixtures/texts.js";
import { designedVoices, premadeVoices, speak, type NamedVoice } from "../functions/media/voice-analysis/fixtures/voices.js";
import { convertAll } from "../functions/media/voice-conversion/convert.js";
import { residualOverrideFromEnv, synthesisFromEnv } from "./sts-outside.js";
import { measureVoice, type VoiceStats } from "../functions/media/voice-conversion/mapping.js";
import { referenceText } from "../functions/media/voice-conversion/reference.js";
import { DEFAULT_VOICE_SETTINGS } from "../functions/media/engine/port.js";
import { hashSeed, prng } from "../functions/media/engine/prng.js";
import { resample } from "../functions/media/audio/resample.js";
import { denoise } from "../functions/media/audio/denoise/index.js";
import { babble, measureIsolation, mixAt, noise, snrDb, type IsolationFigures } from "../functions/media/audio/denoise/measure.js";
import { loadFastRnnoise } from "../functions/media/audio/denoise/rnnoise-fast.js";

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
      const y = convertAll(x, { target, settings, seed: 1, synthesis: synthesisFromEnv(), residual: residualOverrideFromEnv() });
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
 * The isolator on held-out engine speech mixed at 5 dB SNR with white, pink, brown, hum and babble
 * noise, measured as functions/media/audio/denoise/measure.ts says (sample-for-sample SNR, SI-SNR, the
 * output SNR by phase inversion, and the speech component's SNR as the distortion). Speech: every
 * third premade voice reading a held-out passage, and 6 designed voices (seed 1212) reading one.
 * Babble: 4 other premade voices (never in the speech set) reading tuning passages, summed. The
 * isolator's constants were chosen on other premade voices reading tuning passages.
 */
async function evaluateIsolation(engine: EspeakEngine) {
  const rn = await loadFastRnnoise();
  const premade = premadeVoices();
  const speakers: Array<{ name: string; clean: Float32Array }> = [];
  for (const [vi, v] of premade.filter((_, i) => i % 3 === 0).entries()) {
    const p = PASSAGES[v.profile.language] ?? PASSAGES.en;
    speakers.push({
      name: v.name,
      clean: await speak(engine, v.profile, p.heldOut[vi % 3]),
    });
  }
  for (const [vi, v] of designedVoices(6, 1212).entries()) {
    const p = PASSAGES[v.profile.language] ?? PASSAGES.en;
    speakers.push({
      name: `${v.name} (${v.profile.language})`,
      clean: await speak(engine, v.profile, p.heldOut[(vi + 1) % 3]),
    });
  }
  const talkers: Float32Array[] = [];
  for (const v of premade.filter((_, i) => i % 3 === 1).slice(0, 4)) talkers.push(await speak(engine, v.profile, (PASSAGES[v.profile.language] ?? PASSAGES.en).tuning[0]));
  const figures: Record<string, IsolationFigures[]> = {};
  const rnOnly: Record<string, number[]> = {};
  let cpu = 0;
  let audio = 0;
  for (const [si, { name, clean }] of speakers.entries()) {
    for (const kind of ["white", "pink", "brown", "hum", "babble"] as const) {
      const n = kind === "babble" ? babble(talkers, clean.length) : noise(kind, clean.length, 9 + si);
      const c = process.cpuUsage();
      const f = measureIsolation(clean, n, 5, 22_050, rn);
      const u = process.cpuUsage(c);
      cpu += (u.user + u.system) / 1e6 / 2; // two isolations (s + n and s - n)
      audio += clean.length / 22_050;
      const noisy = mixAt(clean, n, 5);
      const rnGain = snrDb(clean, resample(await denoise(resample(noisy, 22_050, 48_000), 48_000), 48_000, 22_050).subarray(0, clean.length)) - snrDb(clean, noisy);
      (figures[kind] ??= []).push(f);
      (rnOnly[kind] ??= []).push(rnGain);
      console.log(
        `${name} ${kind}: sample +${f.sampleGain.toFixed(1)} dB, SI-SNR +${f.scaleInvariantGain.toFixed(1)} dB, output SNR +${f.outputSnrGain.toFixed(
          1
        )} dB, speech component ${f.speechComponentSnr.toFixed(1)} dB (RNNoise alone, sample: +${rnGain.toFixed(1)} dB)`
      );
    }
  }
  const stats = (x: number[]) => ({
    mean: +(x.reduce((a, b) => a + b, 0) / x.length).toFixed(1),
    min: +Math.min(...x).toFixed(1),
    max: +Math.max(...x).toFixed(1),
  });
  const summary = Object.fromEntries(
    Object.entries(figures).map(([k, fs]) => [
      k,
      {
        rnnoiseSampleGain: stats(rnOnly[k]),
        sampleGain: stats(fs.map((f) => f.sampleGain)),
        scaleInvariantGain: stats(fs.map((f) => f.scaleInvariantGain)),
        outputSnrGain: stats(fs.map((f) => f.outputSnrGain)),
        speechComponentSnr: stats(fs.map((f) => f.speechComponentSnr)),
      },
    ])
  );
  console.log(JSON.stringify({ clips: speakers.length, cpuRtf: +(cpu / audio).toFixed(3), ...summary }, null, 2));
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
  // --every=N: every Nth held-out pair (a quicker, still spread, sample of the set).
  const every = Math.max(1, Number(process.argv.find((a) => a.startsWith("--every="))?.split("=")[1] ?? 1));
  const engine = new EspeakEngine({ size: 1 });
  try {
    const results = tuning
      ? await evaluatePairs(engine, tuningPairs(), () => TUNING_TEXTS, undefined, true)
      : await evaluatePairs(engine, heldOutPairs().filter((_, i) => i % every === 0), heldOutTexts, undefined, true);
    console.log(JSON.stringify({ set: tuning ? "tuning" : "held-out", ...summarise(results) }, null, 2));
  } finally {
    await engine.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
