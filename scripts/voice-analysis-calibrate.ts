/**
 * Fits the embedding's background statistics and group weights, then measures the embedding on
 * audio it never saw, for functions/media/voice-analysis/README.md.
 *
 *   node --import tsx scripts/voice-analysis-calibrate.ts           # figures only
 *   node --import tsx scripts/voice-analysis-calibrate.ts --write   # also rewrites background.ts
 *
 * Tuning: the 28 premade voices and 40 designed voices reading the three tuning passages of
 * their language. Held out: the premade voices reading three other passages, and 40 other
 * designed voices (never seen) reading those. Same input, same output: the engine and the analysis are deterministic.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { analyzeVoiceWithFeatures } from "../functions/media/voice-analysis/analyze.js";
import { embed, FEATURE_GROUPS, RAW_DIM, type Background, type FeatureGroup } from "../functions/media/voice-analysis/embedding.js";
import { equalErrorRate, pairScores, summary, top1, type Clip } from "../functions/media/voice-analysis/fixtures/metrics.js";
import { PASSAGES } from "../functions/media/voice-analysis/fixtures/texts.js";
import { designedVoices, premadeVoices, speak, type NamedVoice } from "../functions/media/voice-analysis/fixtures/voices.js";

const write = process.argv.includes("--write");
const TUNING_SEED = 7;
const HELD_OUT_SEED = 2026;
const engine = new EspeakEngine();

interface RawClip {
  voice: string;
  language: string;
  gender: string;
  raw: Float64Array;
}

async function clips(voices: NamedVoice[], which: "tuning" | "heldOut", seedBase: number): Promise<RawClip[]> {
  const out: RawClip[] = [];
  for (const v of voices) {
    const texts = PASSAGES[v.profile.language][which];
    for (let t = 0; t < texts.length; t++) {
      const x = await speak(engine, v.profile, texts[t], { seed: seedBase + t });
      out.push({ voice: `${v.name}@${seedBase}`, language: v.profile.language, gender: v.profile.gender, raw: analyzeVoiceWithFeatures(x, engine.sampleRate).raw });
    }
  }
  return out;
}

const started = performance.now();
// --cache FILE keeps the raw features between runs while the weighting is being worked on.
const cacheAt = process.argv.indexOf("--cache");
const cacheFile = cacheAt > 0 ? process.argv[cacheAt + 1] : null;
let tuning: RawClip[], heldPremade: RawClip[], heldDesigned: RawClip[];
const SETS = ["tuning", "heldPremade", "heldDesigned"];
if (cacheFile && existsSync(cacheFile)) {
  const revive = (cs: Array<Omit<RawClip, "raw"> & { raw: Array<number | null> }>) => cs.map((c) => ({ ...c, raw: Float64Array.from(c.raw, (x) => x ?? NaN) }));
  ({ tuning, heldPremade, heldDesigned } = JSON.parse(readFileSync(cacheFile, "utf8"), (k, v) => (SETS.includes(k) ? revive(v) : v)));
} else {
  await engine.warm();
  // Tuning voices: the premade ones and 40 designed ones; the 40 designed voices of the held-out set are others.
  tuning = [...(await clips(premadeVoices(), "tuning", 1)), ...(await clips(designedVoices(40, TUNING_SEED), "tuning", 1))];
  heldPremade = await clips(premadeVoices(), "heldOut", 11);
  heldDesigned = await clips(designedVoices(40, HELD_OUT_SEED), "heldOut", 21);
  const plain = (cs: RawClip[]) => cs.map((c) => ({ ...c, raw: Array.from(c.raw, (x) => (Number.isFinite(x) ? x : null)) }));
  if (cacheFile) writeFileSync(cacheFile, JSON.stringify({ tuning: plain(tuning), heldPremade: plain(heldPremade), heldDesigned: plain(heldDesigned) }));
}
await engine.close();
console.error(`${tuning.length + heldPremade.length + heldDesigned.length} clips ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// Background: mean over all tuning clips; spread either over all clips or within each voice.
const mean = new Array<number>(RAW_DIM).fill(0);
const totalStd = new Array<number>(RAW_DIM).fill(0);
const withinStd = new Array<number>(RAW_DIM).fill(0);
for (let d = 0; d < RAW_DIM; d++) {
  const vals = tuning.map((c) => c.raw[d]).filter(Number.isFinite);
  mean[d] = vals.reduce((a, x) => a + x, 0) / vals.length;
  totalStd[d] = Math.sqrt(vals.reduce((a, x) => a + (x - mean[d]) ** 2, 0) / vals.length) || 1;
  let ss = 0, n = 0;
  for (const v of new Set(tuning.map((c) => c.voice))) {
    const own = tuning.filter((c) => c.voice === v).map((c) => c.raw[d]).filter(Number.isFinite);
    if (own.length < 2) continue;
    const m = own.reduce((a, x) => a + x, 0) / own.length;
    ss += own.reduce((a, x) => a + (x - m) ** 2, 0);
    n += own.length - 1;
  }
  // Never narrower than a tenth of the population spread: a feature that is constant per voice
  // on three passages is not that constant on a fourth.
  withinStd[d] = Math.max(Math.sqrt(ss / Math.max(1, n)), 0.1 * totalStd[d], 1e-6);
}

const toClips = (raws: RawClip[], bg: Background): Clip[] => raws.map((c) => ({ voice: c.voice, language: c.language, gender: c.gender, embedding: embed(c.raw, bg) }));
const eerOf = (raws: RawClip[], bg: Background) => {
  const s = pairScores(toClips(raws, bg));
  return equalErrorRate(s.same, s.different).eer + equalErrorRate(s.same, s.hard).eer;
};

const groups = Object.keys(FEATURE_GROUPS) as FeatureGroup[];
const LEVELS = [0, 0.5, 1, 2];
const POWERS = [0, 0.5, 1];
let best: { bg: Background; power: number; score: number } | null = null;
for (const power of POWERS) {
  const gain = totalStd.map((t, d) => (t / withinStd[d]) ** power);
  for (let code = 0; code < LEVELS.length ** groups.length; code++) {
    const weights = {} as Record<FeatureGroup, number>;
    let c = code;
    for (const g of groups) {
      weights[g] = LEVELS[c % LEVELS.length];
      c = Math.floor(c / LEVELS.length);
    }
    if (Object.values(weights).every((w) => w === 0)) continue;
    const bg: Background = { version: 1, mean, scale: totalStd, gain, weights };
    const score = eerOf(tuning, bg);
    if (!best || score < best.score - 1e-9) best = { bg, power, score };
  }
  console.error(`searched weights with Fisher power ${power}: best so far ${best?.score.toFixed(4)}`);
}
const chosen = best!.bg;
const baseline: Background = { version: 1, mean, scale: totalStd, gain: totalStd.map(() => 1), weights: { mfccMean: 1, mfccStd: 1, deltaStd: 1, pitch: 1, spectrum: 1, formants: 1 } };

function report(name: string, raws: RawClip[], bg: Background) {
  const c = toClips(raws, bg);
  const s = pairScores(c);
  return {
    set: name,
    clips: raws.length,
    voices: new Set(raws.map((r) => r.voice)).size,
    same: summary(s.same),
    different: summary(s.different),
    hardDifferent: summary(s.hard),
    eer: equalErrorRate(s.same, s.different),
    eerHard: equalErrorRate(s.same, s.hard),
    top1: top1(c),
  };
}

const results = {
  chosen: { fisherPower: best!.power, weights: chosen.weights },
  tuning: report("tuning (premade and 40 designed voices, tuning passages)", tuning, chosen),
  heldPremade: report("held out: premade voices, other passages", heldPremade, chosen),
  heldDesigned: report("held out: 40 designed voices, other passages", heldDesigned, chosen),
  baselineHeldDesigned: report("baseline (plain z-score, equal weights) on the designed voices", heldDesigned, baseline),
};
console.log(JSON.stringify(results, null, 2));

if (write) {
  const fmt = (v: number[]) => `[${v.map((x) => Number(x.toPrecision(7))).join(", ")}]`;
  const file = `/**
 * Background statistics of the embedding, fitted by scripts/voice-analysis-calibrate.ts on the
 * premade voices and 40 designed voices reading the tuning passages (fixtures/texts.ts).
 * Generated: rerun the script with --write instead of editing, and bump the version when the
 * numbers change (stored embeddings of an older version must be recomputed).
 * Gain: (population / within-voice standard deviation) ^ ${best!.power}.
 */
import type { Background } from "./embedding-space.js";

export const BACKGROUND: Background = {
  version: 1,
  mean: ${fmt(chosen.mean as number[])},
  scale: ${fmt(chosen.scale as number[])},
  gain: ${fmt(chosen.gain as number[])},
  weights: ${JSON.stringify(chosen.weights).replace(/"/g, "").replace(/:/g, ": ").replace(/,/g, ", ").replace("{", "{ ").replace("}", " }")},
};
`;
  writeFileSync(join(import.meta.dirname, "..", "functions", "voice-analysis", "background.ts"), file);
  console.error("wrote functions/media/voice-analysis/background.ts");
}
