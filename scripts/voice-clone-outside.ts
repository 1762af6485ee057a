/**
 * Issue 26: instant clones of speech Timbre's engine did not make (test/support/outside-speech.ts). Each outside voice
 * reads the three tuning passages (the samples); the fit runs as the API's does; source and clone then read a held-out
 * passage and are compared: speaking rate (speech duration of the same text), median pitch, embedding.
 * Run: npx tsx scripts/voice-clone-outside.ts [voice ids...]
 */
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { analyzeVoice } from "../functions/media/voice-analysis/analyze.js";
import { similarity } from "../functions/media/voice-analysis/search.js";
import { speak, premadeVoices } from "../functions/media/voice-analysis/fixtures/voices.js";
import { PASSAGES } from "../functions/media/voice-analysis/fixtures/texts.js";
import { fitProfile } from "../functions/capabilities/cloning/fit.js";
import { calibrationPassage } from "../functions/capabilities/cloning/passages.js";
import { decodeWav } from "../functions/media/audio/wav.js";
import { OUTSIDE_VOICES, outsideSpeech } from "../test/support/outside-speech.js";

const RATE = 22050;
const engine = new EspeakEngine({ size: 2 });
await engine.warm();
const ids = process.argv.slice(2);
const voices = OUTSIDE_VOICES.filter((v) => v.language === "en" && (!ids.length || ids.includes(v.id)));
const pcm = (wav: Buffer) => decodeWav(new Uint8Array(wav)).pcm;
const join = (parts: Float32Array[], sr: number) => {
  const gap = Math.round(0.3 * sr);
  const out = new Float32Array(parts.reduce((n, p) => n + p.length + gap, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length + gap));
  return out;
};
const held = PASSAGES.en.heldOut[1];
const premade = premadeVoices().filter((v) => v.profile.language === "en");
const premadeA = await Promise.all(premade.map(async (v) => ({ name: v.name, a: analyzeVoice(await speak(engine, v.profile, held, { seed: 9 }), RATE) })));
for (const v of voices) {
  const samples = join(await Promise.all(PASSAGES.en.tuning.map(async (t) => pcm(await outsideSpeech(v, t)))), 16000);
  const target = analyzeVoice(samples, 16000);
  const { profile, report } = await fitProfile({ analysis: target, language: "en", seed: 1 }, { render: async (p) => analyzeVoice(await speak(engine, p, calibrationPassage("en"), { seed: 3, settings: { stability: 1 } }), RATE) });
  const src = analyzeVoice(pcm(await outsideSpeech(v, held)), 16000);
  const clone = analyzeVoice(await speak(engine, profile, held, { seed: 56 }), RATE);
  const sims = premadeA.map((p) => similarity(p.a.embedding, src.embedding)).sort((a, b) => b - a);
  console.log(JSON.stringify({
    id: v.id, split: v.split,
    rateBySpeech: +(src.speechSecs / clone.speechSecs).toFixed(3),
    rateByNuclei: +(clone.speakingRate / src.speakingRate).toFixed(3),
    srcNuclei: src.speakingRate, srcSpeech: src.speechSecs, cloneSpeech: clone.speechSecs, targetRate: target.speakingRate,
    f0: +(clone.f0MedianHz! / src.f0MedianHz!).toFixed(3),
    sim: +similarity(clone.embedding, src.embedding).toFixed(3), bestPremade: +sims[0].toFixed(3),
    profile: { g: profile.gender, a: profile.age, rate: profile.rate, pitch: profile.pitch, timbre: profile.timbre, br: profile.breathiness, ro: profile.roughness },
    fitted: report.fitted.speakingRate,
  }));
}
await engine.close();
