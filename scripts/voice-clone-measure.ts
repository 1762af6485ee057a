/**
 * Measures instant clones on speakers nothing was tuned on, for functions/media/engine/README.md.
 *
 *   node --import tsx scripts/voice-clone-measure.ts [speakers, default 24]
 *
 * Speakers are designed voices drawn at random (labels and settings as voice design draws them,
 * a seed no fixture uses). Each speaker's samples are its readings of its language's three tuning
 * passages (about 25 s); the fit renders its own calibration passage; the comparison reads a
 * held-out passage with speaker and clone. As a control, the speaker's own second reading of
 * that passage (another seed) is compared the same way: a clone cannot be told apart better than
 * the speaker from itself.
 */
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { analyzeVoice } from "../functions/media/voice-analysis/analyze.js";
import { similarity } from "../functions/media/voice-analysis/search.js";
import { designedVoices, speak } from "../functions/media/voice-analysis/fixtures/voices.js";
import { PASSAGES } from "../functions/media/voice-analysis/fixtures/texts.js";
import { summary } from "../functions/media/voice-analysis/fixtures/metrics.js";
import { fitProfile } from "../functions/capabilities/cloning/fit.js";
import { calibrationPassage } from "../functions/capabilities/cloning/passages.js";

const N = Number(process.argv[2] ?? 24);
const RATE = 22050;
const engine = new EspeakEngine();
await engine.warm();

const rows: Array<{ lang: string; gender: string; f0Err: number; rateErr: number; own: number; clone: number[]; control: number[]; renders: number; ms: number }> = [];
const sources: number[][] = [];
const clones: number[][] = [];
const seconds: number[][] = [];
for (const v of designedVoices(N, 424_242)) {
  const lang = v.profile.language;
  const parts = await Promise.all(PASSAGES[lang].tuning.map((t, k) => speak(engine, v.profile, t, { seed: 100 + k })));
  const joined = new Float32Array(parts.reduce((n, p) => n + p.length + 4000, 0));
  let at = 0;
  for (const p of parts) {
    joined.set(p, at);
    at += p.length + 4000;
  }
  const started = performance.now();
  const target = analyzeVoice(joined, RATE);
  const fit = await fitProfile({ analysis: target, language: lang, seed: 1 }, { render: async (p) => analyzeVoice(await speak(engine, p, calibrationPassage(lang), { seed: 3, settings: { stability: 1 } }), RATE) });
  const ms = performance.now() - started;
  const held = PASSAGES[lang].heldOut[0];
  const s = analyzeVoice(await speak(engine, v.profile, held, { seed: 55 }), RATE);
  const c = analyzeVoice(await speak(engine, fit.profile, held, { seed: 56 }), RATE);
  const again = analyzeVoice(await speak(engine, v.profile, held, { seed: 57 }), RATE);
  sources.push(s.embedding);
  clones.push(c.embedding);
  seconds.push(again.embedding);
  rows.push({ lang, gender: v.profile.gender, f0Err: c.f0MedianHz! / s.f0MedianHz! - 1, rateErr: c.speakingRate / s.speakingRate - 1, own: similarity(c.embedding, s.embedding), clone: [], control: [], renders: fit.report.renders, ms });
}
let cloneNearest = 0;
let controlNearest = 0;
for (let i = 0; i < N; i++) {
  const byClone = sources.map((e) => similarity(clones[i], e));
  const byControl = sources.map((e) => similarity(seconds[i], e));
  if (byClone.indexOf(Math.max(...byClone)) === i) cloneNearest++;
  if (byControl.indexOf(Math.max(...byControl)) === i) controlNearest++;
}
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const abs = rows.map((r) => Math.abs(r.f0Err));
const rabs = rows.map((r) => Math.abs(r.rateErr));
console.log(`${N} unseen speakers`);
console.log("|F0 error|", summary(abs), "within 10%:", pct(abs.filter((x) => x < 0.1).length / N));
console.log("|rate error|", summary(rabs), "within 15%:", pct(rabs.filter((x) => x < 0.15).length / N));
console.log("clone-to-own-speaker similarity", summary(rows.map((r) => r.own)));
console.log("nearest enrolled speaker is its own: clone", pct(cloneNearest / N), "| control (the speaker's own second reading)", pct(controlNearest / N));
console.log("fit renders", summary(rows.map((r) => r.renders)), "fit ms (analysis + fit, one process)", summary(rows.map((r) => r.ms)));
await engine.close();
