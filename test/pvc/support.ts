import { toAnalysisRate } from "../../functions/media/audio/decode/rate.js";
import { floatToInt16 } from "../../functions/media/audio/resample.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import type { VoiceProfile } from "../../functions/media/engine/port.js";
import { hashSeed, prng } from "../../functions/media/engine/prng.js";
import { PASSAGES } from "../../functions/media/voice-analysis/fixtures/texts.js";
import { premadeVoices, speak } from "../../functions/media/voice-analysis/fixtures/voices.js";
import { HELD_OUT_LINES, distinctHeldOutPairs, makeConversation } from "../../functions/media/separation/fixtures/conversation.js";
import { EspeakEngine as Engine } from "../../functions/media/engine/espeak/engine.js";
import { cachedFloats } from "../support/fixture-cache.js";

/**
 * Engine speech as sample files: `seconds` of the voice reading the English passages in an
 * order and with seeds of their own (so every sample's bytes differ), with short pauses, as a
 * 16 kHz WAV. A faint noise floor keeps it from being digitally silent between sentences.
 * Made once per run for each voice, length and seed (test/support/fixture-cache.ts): the PVC
 * training test and the product smoke test both read Marcus for 330 s and 300 s.
 */
export async function speechWav(engine: Engine, voice: VoiceProfile, seconds: number, seed: number): Promise<Uint8Array> {
  return encodeWav(floatToInt16(await speech(engine, voice, seconds, seed)), 16_000);
}

export async function speech(engine: Engine, voice: VoiceProfile, seconds: number, seed: number): Promise<Float32Array> {
  return cachedFloats(["pvc-speech", voice, seconds, seed], () => makeSpeech(engine, voice, seconds, seed));
}

async function makeSpeech(engine: Engine, voice: VoiceProfile, seconds: number, seed: number): Promise<Float32Array> {
  const rand = prng(hashSeed("pvc-sample", seed));
  const texts = [...PASSAGES.en.tuning, ...PASSAGES.en.heldOut];
  const parts: Float32Array[] = [];
  let total = 0;
  for (let i = 0; total < seconds * 16_000; i++) {
    const text = texts[Math.floor(rand() * texts.length)];
    const x = toAnalysisRate(await speak(engine, voice, text, { seed: seed * 1000 + i }), 22_050);
    parts.push(x, new Float32Array(Math.round(16_000 * (0.3 + 0.5 * rand()))));
    total += x.length + parts[parts.length - 1].length;
  }
  const out = new Float32Array(Math.round(seconds * 16_000));
  let at = 0;
  for (const p of parts) {
    const n = Math.min(p.length, out.length - at);
    if (n <= 0) break;
    out.set(p.subarray(0, n), at);
    at += n;
  }
  for (let i = 0; i < out.length; i++) out[i] += 0.0005 * (rand() * 2 - 1);
  return out;
}

/**
 * The two-speaker interview the professional clone's tests separate: the first man-and-woman pair
 * of the held-out voices reading HELD_OUT_LINES (seed 3), at 16 kHz. Made once per run
 * (test/pvc/training and test/browser/pvc both upload it).
 */
export async function interview(engine: Engine): Promise<Float32Array> {
  const [a, b] = distinctHeldOutPairs().find(([x, y]) => x.gender !== y.gender)!;
  return cachedFloats(["pvc-interview", a, b, HELD_OUT_LINES, 3], async () => (await makeConversation(engine, [a, b], HELD_OUT_LINES, { seed: 3 })).samples);
}

/** The script the live reading tests read: the held-out English passages but the first. */
export const LIVE_SCRIPT = PASSAGES.en.heldOut.slice(1).join(" ");

/**
 * A premade voice the aligner's references do not use reading LIVE_SCRIPT a little slowly, at
 * 16 kHz, with half a second of faint room noise before and after, as a microphone gives. Made
 * once per run (test/pvc/live-reading and test/pvc/live-aws both read it).
 */
export async function liveReading(): Promise<Float32Array> {
  return cachedFloats(["pvc-live-reading", LIVE_SCRIPT], makeLiveReading);
}

async function makeLiveReading(): Promise<Float32Array> {
  const engine = new Engine();
  try {
    const voice = premadeVoices().find((v) => v.name === "Marcus")!.profile;
    const speech = toAnalysisRate(await speak(engine, voice, LIVE_SCRIPT, { seed: 7, settings: { speed: 0.95 } }), 22_050);
    const reading = new Float32Array(speech.length + 16_000);
    reading.set(speech, 8000);
    let s = 12345;
    for (let i = 0; i < reading.length; i++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      reading[i] += 0.0005 * (s / 2 ** 31 - 1);
    }
    return reading;
  } finally {
    await engine.close();
  }
}

/** Samples as the recorder sends them: base64 of 16-bit little-endian PCM. */
export function pcmBase64(x: Float32Array): string {
  const b = Buffer.alloc(x.length * 2);
  for (let i = 0; i < x.length; i++) b.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(x[i] * 32767))), 2 * i);
  return b.toString("base64");
}
