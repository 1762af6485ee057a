/**
 * The engine speakers of scripts/voice-verification-calibrate.ts, as embeddings: for each set (tune 31337, held-out
 * 27182) and each designed speaker, its samples' embedding, its fitted clone's reading of a fresh sentence, its genuine
 * recording (other pace, 25 dB white noise, denoised) and every other speaker's reading of the same sentence. The
 * speaker-space script (scripts/voice-verification-speaker-space.ts) scores them with any transform without
 * synthesizing again. Written to the system temp dir (the path is printed).
 *
 *   node --import tsx scripts/voice-verification-engine-speakers.ts [speakers per set, default 24] [tune|heldout]
 *
 * The tune set also gets two more genuine readings per speaker (other sentences, paces and noise seeds): within-speaker
 * variation to learn from; the held-out set is read exactly like the calibration script's. Each speaker also reads the
 * sentence (tune: and two others) through the web app's recording path (test/voice-verification/browser-channel.ts),
 * kept apart as `browser`.
 */
import { writeFileSync, mkdirSync } from "node:fs";
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { analyzeVoice } from "../functions/media/voice-analysis/analyze.js";
import { designedVoices, speak, type NamedVoice } from "../functions/media/voice-analysis/fixtures/voices.js";
import { PASSAGES } from "../functions/media/voice-analysis/fixtures/texts.js";
import { denoise } from "../functions/media/audio/denoise/index.js";
import { fitProfile } from "../functions/capabilities/cloning/fit.js";
import { calibrationPassage } from "../functions/capabilities/cloning/passages.js";
import { challengeLanguage, newChallenge } from "../functions/capabilities/voice-verification/challenge.js";
import type { VoiceProfile } from "../functions/media/engine/port.js";
import { browserChannel } from "../test/voice-verification/browser-channel.js";
import { ENGINE_SPEAKERS_DIR, type EngineSpeaker } from "../test/voice-verification/engine-speakers.js";

const N = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 24);
const only = process.argv.find((a) => a === "tune" || a === "heldout");
const RATE = 22050;
const engine = new EspeakEngine();
await engine.warm();

function noisy(x: Float32Array, snrDb: number, seed: number): Float32Array {
  let p = 0;
  for (const v of x) p += v * v;
  const amp = Math.sqrt((p / x.length / 10 ** (snrDb / 10)) * 3);
  const out = Float32Array.from(x);
  let s = seed >>> 0;
  for (let i = 0; i < out.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] += amp * ((s / 2 ** 32) * 2 - 1);
  }
  return out;
}

async function reading(v: VoiceProfile, text: string, seed: number): Promise<number[]> {
  const speed = 0.9 + ((seed * 7) % 5) * 0.05;
  return analyzeVoice(await denoise(noisy(await speak(engine, v, text, { seed, settings: { speed } }), 25, seed), RATE), RATE).embedding;
}

/** A reading recorded in the web app (test/voice-verification/browser-channel.ts), decoded at 16 kHz and denoised as the server does. */
async function browserReading(v: VoiceProfile, text: string, seed: number): Promise<number[]> {
  const speed = 0.9 + ((seed * 7) % 5) * 0.05;
  const recorded = await browserChannel(noisy(await speak(engine, v, text, { seed, settings: { speed } }), 35, seed), RATE);
  return analyzeVoice(await denoise(recorded, 16000), 16000).embedding;
}

async function enrol(v: NamedVoice) {
  const lang = v.profile.language;
  const parts = await Promise.all(PASSAGES[lang].tuning.map((t, k) => speak(engine, v.profile, t, { seed: 100 + k })));
  const joined = new Float32Array(parts.reduce((n, p) => n + p.length + 4000, 0));
  let at = 0;
  for (const p of parts) {
    joined.set(p, at);
    at += p.length + 4000;
  }
  const a = analyzeVoice(await denoise(joined, RATE), RATE);
  const fit = await fitProfile({ analysis: a, language: lang, seed: 1 }, { render: async (p) => analyzeVoice(await speak(engine, p, calibrationPassage(lang), { seed: 3, settings: { stability: 1 } }), RATE) });
  return { samples: a.embedding, clone: fit.profile };
}

mkdirSync(ENGINE_SPEAKERS_DIR, { recursive: true });
for (const [split, seed] of [["tune", 31_337], ["heldout", 27_182]] as const) {
  if (only && only !== split) continue;
  const voices = designedVoices(N, seed);
  const enrolled = [];
  for (const v of voices) enrolled.push({ v, ...(await enrol(v)) });
  const out: EngineSpeaker[] = [];
  for (const [i, s] of enrolled.entries()) {
    const lang = challengeLanguage(s.v.profile.language);
    const text = newChallenge(lang);
    const readingEmbedding = analyzeVoice(await speak(engine, s.clone, text, { seed: 1 }), RATE).embedding;
    const genuine = [await reading(s.v.profile, text, 500 + i)];
    if (split === "tune") for (const k of [1, 2]) genuine.push(await reading(s.v.profile, newChallenge(lang), 500 + i + 1000 * k));
    // Through the browser's recording path: the sentence (and, in the tune set, two others).
    const browser = [await browserReading(s.v.profile, text, 800 + i)];
    if (split === "tune") for (const k of [1, 2]) browser.push(await browserReading(s.v.profile, newChallenge(lang), 800 + i + 1000 * k));
    const impostors: Array<{ index: number; embedding: number[] }> = [];
    for (const [j, t] of enrolled.entries()) if (j !== i) impostors.push({ index: j, embedding: await reading(t.v.profile, text, 700 + j) });
    out.push({ name: s.v.name, language: s.v.profile.language, gender: s.v.profile.gender, samples: s.samples, reading: readingEmbedding, genuine, browser, impostors });
    console.error(split, i, s.v.name);
  }
  const path = `${ENGINE_SPEAKERS_DIR}/${split}-${N}.json`;
  writeFileSync(path, JSON.stringify(out));
  console.log("wrote", path);
}
await engine.close();
process.exit(0);
