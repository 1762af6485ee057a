/**
 * The synthesis's own word loss (issue 26): each outside reading converted into its own measured voice with
 * nothing moved (warp 1, no equaliser, the same pitch, stability 1, no speaker boost: only the level changes),
 * by the vocoder and by the residual synthesis. Pocketsphinx word errors before and after, per voice.
 *
 *   node --import tsx scripts/sts-floor.ts [--heldout] [--sentences=6] [--voices=flite-awb,fest-ked]
 */
import { OUTSIDE_VOICES, outsideVoiceAvailable } from "../test/support/outside-speech.js";
import { SENTENCES, recognize, recognizerAvailable, wordErrorRate, words } from "../functions/media/engine/flite/fixtures/intelligibility.js";
import { floatToInt16, resample } from "../functions/media/audio/resample.js";
import { convertAll, type Synthesis } from "../functions/media/voice-conversion/convert.js";
import { measureVoice } from "../functions/media/voice-conversion/mapping.js";
import { WORK_RATE } from "../functions/media/voice-conversion/spectral.js";
import { sourceReadings } from "./sts-outside.js";

const arg = (k: string) => process.argv.find((a) => a.startsWith(`--${k}=`))?.split("=")[1];
if (!recognizerAvailable()) throw new Error("pocketsphinx with pocketsphinx-en-us is needed");
const split = process.argv.includes("--heldout") ? "heldout" : "tune";
const sentences = SENTENCES.slice(0, Number(arg("sentences") ?? 6));
const only = (arg("voices") ?? "").split(",").filter(Boolean);
const voices = OUTSIDE_VOICES.filter((v) => v.language === "en" && (only.length ? only.includes(v.id) : v.split === split) && outsideVoiceAvailable(v));
const to16k = (x: Float32Array) => floatToInt16(resample(x, WORK_RATE, 16_000));
const ref = sentences.flatMap(words);
const settings = { stability: 1, similarity_boost: 1, style: 0, use_speaker_boost: false };
for (const v of voices) {
  const readings = await sourceReadings(v, sentences);
  const before = wordErrorRate(ref, await recognize(readings.map(to16k)));
  const own = measureVoice(Float32Array.from(readings.flatMap((x) => Array.from(x))), WORK_RATE);
  const parts: string[] = [];
  for (const synthesis of ["vocoder", "residual"] as Synthesis[]) {
    const outs = readings.map((x, i) => convertAll(x, { target: own, settings, seed: 1 + i, synthesis }));
    parts.push(`${synthesis} ${(wordErrorRate(ref, await recognize(outs.map(to16k))) * 100).toFixed(0)}%`);
  }
  console.log(`${v.id.padEnd(14)} before ${(before * 100).toFixed(0)}%, nothing moved: ${parts.join(", ")}`);
}
