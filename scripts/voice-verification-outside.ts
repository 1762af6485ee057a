/**
 * Calibrates and measures voice verification's sentence check on speech Timbre's engine did not make (issue 26):
 * English flite and Festival readers (test/support/outside-speech.ts), clean and with white (20 dB) and pink (15 dB)
 * noise, each reading the shown sentence (genuine) and another six-word sentence (wrong words). The threshold is chosen
 * on the tune voices only: above every wrong-words margin there, with a safety gap; held-out figures are reported apart.
 *
 *   node --import tsx scripts/voice-verification-outside.ts [sentences per reader, default 8]
 */
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { SENTENCE_MARGIN_THRESHOLD } from "../functions/capabilities/voice-verification/scoring.js";
import { CONDITIONS, sentenceRows } from "../test/voice-verification/outside-measures.js";

const N = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 8);
const engine = new EspeakEngine();
await engine.warm();
const rows = await sentenceRows(engine, { sentences: N, conditions: Object.keys(CONDITIONS) });
await engine.close();

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
for (const split of ["tune", "heldout"])
  for (const c of Object.keys(CONDITIONS)) {
    const s = rows.filter((r) => r.split === split && r.condition === c);
    console.log(`${split} ${c}: genuine min ${r3(q(s.map((r) => r.genuine), 0))} p10 ${r3(q(s.map((r) => r.genuine), 0.1))} median ${r3(q(s.map((r) => r.genuine), 0.5))} | wrong max ${r3(q(s.map((r) => r.wrong), 1))}`);
  }
const tune = rows.filter((r) => r.split === "tune");
console.log("tune: highest wrong-words margin", r3(Math.max(...tune.map((r) => r.wrong))), "lowest genuine", r3(Math.min(...tune.map((r) => r.genuine))));
for (const split of ["tune", "heldout"])
  for (const c of Object.keys(CONDITIONS)) {
    const s = rows.filter((r) => r.split === split && r.condition === c);
    console.log(`threshold ${SENTENCE_MARGIN_THRESHOLD}, ${split} ${c}: genuine accepted ${s.filter((r) => r.genuine >= SENTENCE_MARGIN_THRESHOLD).length}/${s.length}, wrong words accepted ${s.filter((r) => r.wrong >= SENTENCE_MARGIN_THRESHOLD).length}/${s.length}`);
  }
process.exit(0);
