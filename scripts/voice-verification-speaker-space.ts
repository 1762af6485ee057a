/**
 * Fits and measures the speaker check's speaker space (functions/capabilities/voice-verification/speaker-space.ts) on
 * the tune part of the pool, and reports held-out figures apart (issue 26).
 *
 *   node --import tsx scripts/voice-verification-speaker-space.ts [--pool-only] [--write]
 *
 * Pool: test/voice-verification/speaker-pool.ts (outside speakers and their vocal-tract variants, genuine variation of
 * each) and the engine speakers of scripts/voice-verification-engine-speakers.ts (run it first; its sets are the
 * calibration script's). --write writes the fitted projection and thresholds to speaker-space-data.ts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { speakers } from "../test/voice-verification/outside-measures.js";
import { isBrowserCondition, poolEmbeddings, poolTrials, type PoolSpeaker } from "../test/voice-verification/speaker-pool.js";
import { loadEngineSpeakers, type EngineSpeaker } from "../test/voice-verification/engine-speakers.js";
import { fitSpeakerSpace, spaceSimilarity } from "../functions/capabilities/voice-verification/speaker-space.js";
import { EMBEDDING_VERSION } from "../functions/media/voice-analysis/embedding.js";
import { similarity } from "../functions/media/voice-analysis/search.js";
import { equalErrorRate } from "../functions/media/voice-analysis/fixtures/metrics.js";

const pool = await poolEmbeddings(speakers());
console.log("pool", pool.length, "speakers", pool.reduce((n, s) => n + s.tests.length, 0), "tests");
if (process.argv.includes("--pool-only")) process.exit(0);

const engineTune = loadEngineSpeakers("tune");
const engineHeld = loadEngineSpeakers("heldout");
if (!engineTune || !engineHeld) throw new Error("run scripts/voice-verification-engine-speakers.ts first");
const VERSION = EMBEDDING_VERSION;
const base = (id: string) => id.replace(/[+-]250c$/, "");

/** Within-speaker sets for the fit: outside speakers (enrolment and tests) and engine speakers (samples, clone reading, readings). */
function classes(outside: PoolSpeaker[], engine: EngineSpeaker[]): number[][][] {
  return [...outside.map((s) => [s.enrol, ...s.tests.map((t) => t.e)]), ...engine.map((s) => [s.samples, s.reading, ...s.genuine, ...s.browser])];
}
type Score = (a: number[], b: number[]) => number;
/** G genuine, I impostors, IL/IH of the same language (and gender); GB the genuine readings through the browser's path (also in G). */
interface Scored { outG: number[]; outGB: number[]; outI: number[]; outIL: number[]; instG: number[]; instGB: number[]; instI: number[]; instIH: number[]; soG: number[]; soGB: number[]; soI: number[]; soIH: number[] }
function scoreSets(outside: PoolSpeaker[], engine: EngineSpeaker[], sim: Score, allGenuine: boolean): Scored {
  const r: Scored = { outG: [], outGB: [], outI: [], outIL: [], instG: [], instGB: [], instI: [], instIH: [], soG: [], soGB: [], soI: [], soIH: [] };
  for (const t of poolTrials(outside, sim)) {
    if (t.genuine) {
      r.outG.push(t.score);
      if (isBrowserCondition(t.condition)) r.outGB.push(t.score);
    } else {
      r.outI.push(t.score);
      if (t.sameLanguage) r.outIL.push(t.score);
    }
  }
  for (const s of engine) {
    const inst = (e: number[]) => (sim(e, s.samples) + sim(e, s.reading)) / 2;
    for (const g of allGenuine ? s.genuine : s.genuine.slice(0, 1)) {
      r.instG.push(inst(g));
      r.soG.push(sim(g, s.samples));
    }
    for (const g of s.browser) {
      r.instG.push(inst(g));
      r.soG.push(sim(g, s.samples));
      r.instGB.push(inst(g));
      r.soGB.push(sim(g, s.samples));
    }
    for (const imp of s.impostors) {
      const o = engine[imp.index];
      const hard = o.language === s.language && o.gender === s.gender;
      r.instI.push(inst(imp.embedding));
      r.soI.push(sim(imp.embedding, s.samples));
      if (hard) {
        r.instIH.push(inst(imp.embedding));
        r.soIH.push(sim(imp.embedding, s.samples));
      }
    }
  }
  return r;
}
const merge = (a: Scored, b: Scored): Scored => Object.fromEntries(Object.keys(a).map((k) => [k, [...a[k as keyof Scored], ...b[k as keyof Scored]]])) as unknown as Scored;

const outTune = pool.filter((s) => s.split === "tune");
const outHeld = pool.filter((s) => s.split === "heldout");
/** Out-of-fold tune scores: fit on half the tune speakers (by base voice / engine index), score the other half. */
function crossValidated(reg: number, dims: number): Scored {
  const bases = [...new Set(outTune.map((s) => base(s.id)))];
  let acc: Scored | undefined;
  for (const fold of [0, 1]) {
    const inO = (s: PoolSpeaker) => bases.indexOf(base(s.id)) % 2 === fold;
    const inE = (i: number) => i % 2 === fold;
    const space = fitSpeakerSpace(classes(outTune.filter((s) => !inO(s)), engineTune!.filter((_, i) => !inE(i))), { reg, dims, version: VERSION });
    const eFold = engineTune!.filter((_, i) => inE(i));
    const idx = engineTune!.map((_, i) => i).filter(inE);
    const remapped = eFold.map((s) => ({ ...s, impostors: s.impostors.filter((m) => inE(m.index)).map((m) => ({ ...m, index: idx.indexOf(m.index) })) }));
    const sc = scoreSets(outTune.filter(inO), remapped, (a, b) => spaceSimilarity(space, a, b), true);
    acc = acc ? merge(acc, sc) : sc;
  }
  return acc!;
}
const eer = (g: number[], i: number[]) => equalErrorRate(g, i).eer;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const fr = (g: number[], t: number) => g.filter((x) => x < t).length / g.length;
const fa = (i: number[], t: number) => i.filter((x) => x >= t).length / Math.max(1, i.length);
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)];

function report(label: string, s: Scored, tInst: number, tSo: number) {
  console.log(`${label}: outside (samples-only score) FR ${pct(fr(s.outG, tSo))} of ${s.outG.length}, FA ${pct(fa(s.outI, tSo))} of ${s.outI.length} (same language+gender ${pct(fa(s.outIL, tSo))} of ${s.outIL.length}), EER ${pct(eer(s.outG, s.outI))}`);
  console.log(`${label}: engine instant @${tInst.toFixed(3)} FR ${pct(fr(s.instG, tInst))} of ${s.instG.length}, FA ${pct(fa(s.instI, tInst))} (same language+gender ${pct(fa(s.instIH, tInst))} of ${s.instIH.length}), EER ${pct(eer(s.instG, s.instI))}`);
  console.log(`${label}: engine samples-only @${tSo.toFixed(3)} FR ${pct(fr(s.soG, tSo))} of ${s.soG.length}, FA ${pct(fa(s.soI, tSo))} (same language+gender ${pct(fa(s.soIH, tSo))} of ${s.soIH.length}), EER ${pct(eer(s.soG, s.soI))}`);
  const low = (xs: number[]) => (xs.length ? Math.min(...xs).toFixed(3) : "-");
  console.log(`${label}: browser-path genuine FR: outside ${pct(fr(s.outGB, tSo))} of ${s.outGB.length} (lowest ${low(s.outGB)}), engine instant ${pct(fr(s.instGB, tInst))} of ${s.instGB.length} (lowest ${low(s.instGB)}), engine samples-only ${pct(fr(s.soGB, tSo))} of ${s.soGB.length} (lowest ${low(s.soGB)})`);
}
/**
 * Thresholds chosen on tune scores: with --rule=fr, where false rejects are at most `q` in every set the score applies
 * to; with --rule=eer (default), where the worst of false rejects and false accepts over those sets is smallest.
 */
function thresholds(s: Scored, q: number) {
  if (RULE === "fr") return { inst: quantile(s.instG, q), so: Math.min(quantile(s.soG, q), quantile(s.outG, q)) };
  const minimax = (sets: Array<[number[], number[]]>) => {
    let best = { worst: 2, t: 0 };
    for (const t of sets.flatMap(([g]) => g)) {
      const worst = Math.max(...sets.map(([g, i]) => Math.max(fr(g, t), fa(i, t))));
      if (worst < best.worst) best = { worst, t };
    }
    return best.t;
  };
  return { inst: minimax([[s.instG, s.instI]]), so: minimax([[s.soG, s.soI], [s.outG, s.outI]]) };
}
const RULE = process.argv.find((a) => a.startsWith("--rule="))?.slice(7) ?? "eer";

// Today's score: the plain cosine, today's thresholds, and thresholds chosen the same way on tune.
const rawTune = scoreSets(outTune, engineTune, similarity, true);
const rawHeld = scoreSets(outHeld, engineHeld, similarity, false);
/** The thresholds of the plain cosine before the speaker space (chosen on engine speakers only). */
const BEFORE = { inst: 0.61, so: 0.54 };
report("raw tune", rawTune, BEFORE.inst, BEFORE.so);
report("raw held-out", rawHeld, BEFORE.inst, BEFORE.so);
const Q = Number(process.argv.find((a) => a.startsWith("--fr="))?.slice(5) ?? 0.08);
const rt = thresholds(rawTune, Q);
report(`raw tune (tune-chosen at FR ${Q})`, rawTune, rt.inst, rt.so);
report(`raw held-out (tune-chosen)`, rawHeld, rt.inst, rt.so);

let best: { reg: number; dims: number; crit: number; cv: Scored } | undefined;
for (const reg of [0.01, 0.03, 0.1, 0.3, 1])
  for (const dims of [8, 16, 24, 32, 48]) {
    const cv = crossValidated(reg, dims);
    const crit = (eer(cv.outG, cv.outI) + eer(cv.instG, cv.instI) + eer(cv.soG, cv.soI)) / 3;
    console.log(`cv reg ${reg} dims ${dims}: outside EER ${pct(eer(cv.outG, cv.outI))}, engine instant ${pct(eer(cv.instG, cv.instI))}, samples-only ${pct(eer(cv.soG, cv.soI))}`);
    if (!best || crit < best.crit) best = { reg, dims, crit, cv };
  }
const chosen = best!;
const th = thresholds(chosen.cv, Q);
console.log(`chosen reg ${chosen.reg} dims ${chosen.dims}; thresholds (out-of-fold tune, rule ${RULE}): instant ${th.inst.toFixed(3)}, samples-only ${th.so.toFixed(3)}`);
const space = fitSpeakerSpace(classes(outTune, engineTune), { reg: chosen.reg, dims: chosen.dims, version: VERSION });
const sim = (a: number[], b: number[]) => spaceSimilarity(space, a, b);
report("space tune (out-of-fold)", chosen.cv, th.inst, th.so);
report("space held-out", scoreSets(outHeld, engineHeld, sim, false), th.inst, th.so);

// Real browser readings (the speaker step's embeddings logged from a browser test run, one JSON line per attempt:
// { samplesOnly, rec, samples, reading }): their scores and margins in the plain cosine and in the space.
const dump = process.argv.find((a) => a.startsWith("--browser="))?.slice(10);
if (dump) {
  for (const line of readFileSync(dump, "utf8").split("\n").filter(Boolean)) {
    const d = JSON.parse(line) as { name: string; samplesOnly: boolean; rec: number[]; samples: number[] | null; reading: number[] };
    const score = (f: Score) => (d.samplesOnly ? f(d.rec, d.samples ?? d.reading) : (f(d.rec, d.samples ?? d.reading) + f(d.rec, d.reading)) / 2);
    const [c, sp] = [score(similarity), score(sim)];
    const [tc, ts] = d.samplesOnly ? [BEFORE.so, th.so] : [BEFORE.inst, th.inst];
    console.log(`browser reading (${d.name}, ${d.samplesOnly ? "samples only" : "fitted"}): cosine ${c.toFixed(3)} vs ${tc} (margin ${(c - tc).toFixed(3)}), space ${sp.toFixed(3)} vs ${ts.toFixed(3)} (margin ${(sp - ts).toFixed(3)})`);
  }
}

if (process.argv.includes("--write")) {
  const r = (x: number) => Math.round(x * 1e6) / 1e6;
  writeFileSync(
    "functions/capabilities/voice-verification/speaker-space-data.ts",
    `// Generated by scripts/voice-verification-speaker-space.ts --write: do not edit.\n` +
      `import type { SpeakerSpace } from "./speaker-space.js";\n\n` +
      `/** Fitted on the tune pool (reg ${chosen.reg}, ${chosen.dims} dims); thresholds from out-of-fold tune scores, ${RULE === "fr" ? `false rejects <= ${Q * 100}%` : "smallest worst error over outside and engine speakers"}. */\n` +
      `export const SPEAKER_SPACE: SpeakerSpace = {\n  version: ${VERSION},\n  mean: [${space.mean.map(r).join(", ")}],\n  projection: [\n${space.projection.map((row) => `    [${row.map(r).join(", ")}],`).join("\n")}\n  ],\n};\n` +
      `export const SPACE_SPEAKER_THRESHOLD = ${r(th.inst)};\nexport const SPACE_SAMPLES_ONLY_THRESHOLD = ${r(th.so)};\n`,
  );
  console.log("wrote functions/capabilities/voice-verification/speaker-space-data.ts");
}
process.exit(0);
