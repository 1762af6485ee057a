/**
 * Chooses and checks the speaker separation's settings (functions/media/separation): builds
 * two-speaker conversations with the engine and prints the diarization error rate.
 *   node --import tsx scripts/separation-calibrate.ts [tuning|held-out] [threshold...]
 * Tuning: premade English voices reading TUNING_LINES. Held out: English voices designed with a
 * seed the tuning never used, reading HELD_OUT_LINES.
 */
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import type { VoiceProfile } from "../functions/media/engine/port.js";
import { diarize, type DiarizeOptions } from "../functions/media/separation/diarize.js";
import { diarizationErrorRate } from "../functions/media/separation/der.js";
import { frameFeatures } from "../functions/media/separation/features.js";
import { HELD_OUT_LINES, TUNING_LINES, distinctHeldOutPairs, makeConversation, nearIdenticalPairs } from "../functions/media/separation/fixtures/conversation.js";
import { premadeVoices } from "../functions/media/voice-analysis/fixtures/voices.js";

export function tuningPairs(): Array<[VoiceProfile, VoiceProfile, string]> {
  const en = premadeVoices().filter((v) => v.profile.language === "en");
  const pairs: Array<[VoiceProfile, VoiceProfile, string]> = [];
  for (let i = 0; i + 1 < en.length && pairs.length < 6; i += 2) pairs.push([en[i].profile, en[i + 1].profile, `${en[i].name}+${en[i + 1].name}`]);
  return pairs;
}

export function heldOutPairs(): Array<[VoiceProfile, VoiceProfile, string]> {
  return [...distinctHeldOutPairs(), ...nearIdenticalPairs()];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const which = process.argv[2] ?? "tuning";
  // Settings to try: "bicWeight=1,switchPenalty=40" per argument.
  const trials = process.argv.slice(3).map((arg) => Object.fromEntries(arg.split(",").map((kv) => kv.split("=")).map(([k, v]) => [k, Number(v)])) as DiarizeOptions);
  const engine = new EspeakEngine();
  const pairs = which === "tuning" ? tuningPairs() : heldOutPairs();
  const lines = which === "tuning" ? TUNING_LINES : HELD_OUT_LINES;
  const convs = [];
  for (const [i, [a, b, name]] of pairs.entries()) convs.push({ name, c: await makeConversation(engine, [a, b], lines, { seed: i + 1 }) });
  // One voice alone (the same voice in both roles): separation must find one speaker.
  for (const [i, [a, , name]] of pairs.slice(0, 3).entries()) {
    const c = await makeConversation(engine, [a, a], lines, { seed: 50 + i, overlapProbability: 0 });
    c.reference = { voice: Object.values(c.reference).flat().sort((x, y) => x.start - y.start) };
    convs.push({ name: `alone ${name.split(/[+/]/)[0]}`, c });
  }
  await engine.close();
  const feats = convs.map(({ c }) => frameFeatures(c.samples));
  for (const opts of trials.length ? trials : [{}]) {
    let sum = 0, sumC = 0, tot = 0;
    for (const [i, { name, c }] of convs.entries()) {
      const started = performance.now();
      const speakers = diarize(feats[i], opts);
      const ms = performance.now() - started;
      const hyp = Object.fromEntries(speakers.map((s) => [s.speaker_id, s.utterances]));
      const r = diarizationErrorRate(c.reference, hyp);
      const rc = diarizationErrorRate(c.reference, hyp, { collar: 0.25 });
      sum += r.der * r.total;
      sumC += rc.der * rc.total;
      tot += r.total;
      console.log(`${name.padEnd(24)} speakers ${speakers.length} DER ${(r.der * 100).toFixed(1)}% (miss ${r.missed.toFixed(1)} fa ${r.falseAlarm.toFixed(1)} conf ${r.confusion.toFixed(1)} of ${r.total.toFixed(0)} s; overlap ${(c.overlapShare * 100).toFixed(1)}%) collar .25: ${(rc.der * 100).toFixed(1)}%  ${ms.toFixed(0)} ms`);
    }
    console.log(`${JSON.stringify(opts)}: DER ${(sum / tot * 100).toFixed(1)}%  (collar 0.25: ${(sumC / tot * 100).toFixed(1)}%)`);
  }
}
