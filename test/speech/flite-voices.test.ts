import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, apiFetch } from "../support/stack.js";
import { probe, hasFfmpeg } from "../support/audio.js";
import { premadeVoiceId, premadeVoiceRecords } from "../../functions/platform/domain/premadeVoices.js";
import { DispatchingEngine } from "../../functions/media/engine/dispatch.js";
import { FliteEngine } from "../../functions/media/engine/flite/engine.js";
import { DEFAULT_VOICE_SETTINGS, type VoiceProfile } from "../../functions/media/engine/port.js";

/**
 * Issue 25 §1: the premade English voices speak with flite through /v1/text-to-speech (convert,
 * stream, with timestamps), byte for byte what the flite engine makes of the same request; other
 * languages stay on eSpeak.
 */
vi.setConfig({ testTimeout: 120_000 });

let stack: EmbeddedStack;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
const flite = new FliteEngine({ size: 1 });
const AVERY = premadeVoiceId("Avery");
const TEXT = "Hello from Timbre. This sentence is spoken by flite.";
const averyProfile = premadeVoiceRecords().find((v) => v.name === "Avery")!.profile as VoiceProfile;

beforeAll(async () => {
  stack = await startTestStack();
  acct = await createTestAccount(stack, "pro");
}, 180_000);
afterAll(async () => {
  await flite.close();
  await stack?.close();
});

async function fliteDirect(format: "pcm_22050" | "mp3_44100_128"): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const req = { text: TEXT, voice: averyProfile, settings: DEFAULT_VOICE_SETTINGS, seed: 1, model: { id: "eleven_multilingual_v2", quality: "standard" as const, supportsPhonemes: false } };
  for await (const c of flite.synthesizeEncoded(req, format)) parts.push(c.audio);
  return Buffer.concat(parts);
}

const post = (path: string, body: unknown) =>
  apiFetch(stack, acct.apiKey, path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("premade English voices on flite", () => {
  it("are flite profiles (English) or eSpeak ones (other languages), and the product's engine routes them", async () => {
    for (const v of premadeVoiceRecords()) expect(v.profile.engine === "flite", v.name).toBe(v.labels.language === "en");
    const engine = await stack.ctx.engine();
    expect(engine).toBeInstanceOf(DispatchingEngine);
    const route = (voice: VoiceProfile) => (engine as DispatchingEngine).engineFor({ text: "x", voice, settings: DEFAULT_VOICE_SETTINGS, seed: 1, model: { id: "m", quality: "standard", supportsPhonemes: false } }).id;
    expect(route(averyProfile)).toBe("flite");
    expect(route(premadeVoiceRecords().find((v) => v.name === "Lena")!.profile as VoiceProfile)).toBe("espeak-ng");
  });

  it("convert: the same PCM bytes as the flite engine, and MP3 that decodes", async () => {
    for (const format of ["pcm_22050", "mp3_44100_128"] as const) {
      const res = await post(`/v1/text-to-speech/${AVERY}?output_format=${format}`, { text: TEXT, model_id: "eleven_multilingual_v2", seed: 1 });
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      // A whole MP3 answer carries an Info frame the engine's stream has not: PCM is compared byte for byte.
      if (format === "pcm_22050") expect(bytes.equals(await fliteDirect(format))).toBe(true);
      else if (hasFfmpeg) expect((await probe(bytes)).duration).toBeGreaterThan(2);
    }
  });

  it("stream: the same audio, sent as it is made", async () => {
    const res = await post(`/v1/text-to-speech/${AVERY}/stream?output_format=pcm_22050`, { text: TEXT, model_id: "eleven_multilingual_v2", seed: 1 });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(await fliteDirect("pcm_22050"))).toBe(true);
  });

  it("with-timestamps: the audio and an alignment that spells the text", async () => {
    const res = await post(`/v1/text-to-speech/${AVERY}/with-timestamps?output_format=pcm_22050`, { text: TEXT, model_id: "eleven_multilingual_v2", seed: 1 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { audio_base64: string; alignment: { characters: string[]; character_start_times_seconds: number[]; character_end_times_seconds: number[] } };
    const audio = Buffer.from(body.audio_base64, "base64");
    expect(audio.equals(await fliteDirect("pcm_22050"))).toBe(true);
    expect(body.alignment.characters.join("")).toBe(TEXT);
    const ends = body.alignment.character_end_times_seconds;
    expect(ends[ends.length - 1]).toBeLessThanOrEqual(audio.length / 2 / 22050 + 0.001);
    expect(ends[ends.length - 1]).toBeGreaterThan(2);
  });
});
