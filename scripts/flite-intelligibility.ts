/**
 * Word error rates of the premade English voices on both embedded engines (issue 25 §1), for
 * functions/media/engine/README.md: every English premade voice read by eSpeak (its profile
 * without an engine) and by flite (on each base voice given, with the profile's pitch, range,
 * rate and timbre), the 25 sentences of functions/media/engine/flite/fixtures/intelligibility.ts,
 * recognised by pocketsphinx (en-us). `node --import tsx scripts/flite-intelligibility.ts [bases]`
 */
import { PREMADE_VOICES, premadeVoiceRecords } from "../functions/platform/domain/premadeVoices.js";
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { FliteEngine } from "../functions/media/engine/flite/engine.js";
import type { SpeechEngine, VoiceProfile } from "../functions/media/engine/port.js";
import { SENTENCES, recognize, wordErrorRate, words } from "../functions/media/engine/flite/fixtures/intelligibility.js";

// Bases to try on every voice ("premade": each voice's own base, with its own profile).
const bases = (process.argv[2] ?? "premade").split(",");
const espeak = new EspeakEngine();
const flite = new FliteEngine();
const settings = { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 };

async function read(engine: SpeechEngine, voice: VoiceProfile): Promise<Int16Array[]> {
  const out: Int16Array[] = [];
  for (const text of sentences) {
    const parts: Uint8Array[] = [];
    for await (const c of engine.synthesizeEncoded({ text, voice, settings, seed: 1, model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: true } }, "pcm_16000")) parts.push(c.audio);
    const bytes = Buffer.concat(parts);
    out.push(new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2).slice());
  }
  return out;
}

// FLITE_WER_SENTENCES=n: the first n sentences only (a quicker run on a busy machine).
const sentences = SENTENCES.slice(0, Number(process.env.FLITE_WER_SENTENCES) || SENTENCES.length);
const reference = sentences.flatMap(words);
const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
console.log(`| voice | eSpeak NG | ${bases.map((b) => `flite ${b}`).join(" | ")} |`);
const premadeEspeakPitch = (name: string) => PREMADE_VOICES.find((v) => v.name === name)!.voice[0];
for (const r of premadeVoiceRecords().filter((v) => v.labels.language === "en")) {
  const own = r.profile as VoiceProfile;
  // eSpeak reads the profile as it was before flite (its own pitch).
  const { engine: _e, engineVoice: _v, ...profile } = { ...own, pitch: premadeEspeakPitch(r.name) };
  const row = [pct(wordErrorRate(reference, await recognize(await read(espeak, profile))))];
  for (const b of bases) {
    const voice = b === "premade" ? own : { ...profile, engine: "flite" as const, engineVoice: b };
    row.push(`${pct(wordErrorRate(reference, await recognize(await read(flite, voice))))}${b === "premade" ? ` (${own.engineVoice})` : ""}`);
  }
  console.log(`| ${r.name} (${r.labels.gender} ${r.labels.accent} ${r.labels.age}) | ${row.join(" | ")} |`);
}
await espeak.close();
await flite.close();
