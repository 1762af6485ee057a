/**
 * Issue 26: the voice isolator on speech Timbre's engine did not make, at 5 dB SNR (test/isolation/outside-measures.ts).
 * Prints one line per clip and the mean (min-max) gain per noise and split.
 * Run: node --import tsx scripts/isolation-outside.ts [--split=tune|heldout] [--noise=white,pink,babble]
 */
import { loadFastRnnoise } from "../functions/media/audio/denoise/rnnoise-fast.js";
import { OUTSIDE_VOICES, outsideVoiceAvailable } from "../test/support/outside-speech.js";
import { measureOutside, type OutsideIsolation, type OutsideNoise } from "../test/isolation/outside-measures.js";

const arg = (k: string) => process.argv.find((a) => a.startsWith(`--${k}=`))?.split("=")[1];
const split = arg("split");
const noises = (arg("noise")?.split(",") ?? ["white", "pink", "babble"]) as OutsideNoise[];
const rn = await loadFastRnnoise();
const rows: OutsideIsolation[] = [];
for (const v of OUTSIDE_VOICES.filter((x) => outsideVoiceAvailable(x) && (!split || x.split === split))) {
  for (const kind of noises) {
    const r = await measureOutside(v, kind, rn);
    rows.push(r);
    console.log(`${v.id} (${v.split}) ${kind}: +${r.gain.toFixed(2)} dB (input ${r.inputSnr.toFixed(2)} dB)`);
  }
}
for (const s of ["tune", "heldout"])
  for (const kind of noises) {
    const g = rows.filter((r) => r.split === s && r.noise === kind).map((r) => r.gain);
    if (!g.length) continue;
    console.log(`${s} ${kind}: mean +${(g.reduce((a, b) => a + b, 0) / g.length).toFixed(2)} dB (${Math.min(...g).toFixed(2)} to ${Math.max(...g).toFixed(2)}), ${g.length} clips`);
  }
