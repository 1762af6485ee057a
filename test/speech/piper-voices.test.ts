import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, apiFetch } from "../support/stack.js";
import { tinyPiperConfig, writeTinyVoice } from "../support/piper-model.js";
import { piperVoiceId } from "../../functions/handlers/seed/piper.js";

/**
 * Issue 25 §2: Piper voices dropped in the voices folder are listed, speak through
 * /v1/text-to-speech (convert, stream, with timestamps, every output format), are charged and kept
 * in history; broken files are left out and the rest of the product starts. The models are tiny
 * generated ones with Piper's signature (test/support/piper-model.ts): a tone whose length follows
 * the ids and length_scale and whose pitch follows the ids, the noise scales and the speaker.
 */
vi.setConfig({ testTimeout: 120_000 });

let stack: EmbeddedStack;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
let dir: string;
const SOLO = piperVoiceId("en_US-tiny-medium", null);
const ALICE = piperVoiceId("en_GB-duo-low", 0);
const BOB = piperVoiceId("en_GB-duo-low", 1);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "timbre-piper-"));
  writeTinyVoice(dir, "en_US-tiny-medium");
  writeTinyVoice(dir, "en_GB-duo-low", { sampleRate: 16000, espeakVoice: "en-gb", language: "en_GB", speakerNames: ["alice", "bob"] });
  // Broken ones: no json; a model without Piper's signature; bytes that are no ONNX model.
  writeTinyVoice(dir, "nojson");
  rmSync(join(dir, "nojson.onnx.json"));
  writeTinyVoice(dir, "wrongsig", { inputName: "text" });
  writeFileSync(join(dir, "corrupt.onnx"), Buffer.from("this is not a model at all, just some text"));
  writeFileSync(join(dir, "corrupt.onnx.json"), JSON.stringify(tinyPiperConfig()));
  stack = await startTestStack({ env: { PIPER_VOICES_DIR: dir } });
  acct = await createTestAccount(stack, "pro");
}, 180_000);
afterAll(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) => apiFetch(stack, acct.apiKey, path, { method: "POST", body: JSON.stringify(body) });

async function pcm(voiceId: string, text: string, extra: Record<string, unknown> = {}): Promise<Int16Array> {
  const res = await post(`/v1/text-to-speech/${voiceId}?output_format=pcm_22050`, { text, model_id: "eleven_multilingual_v2", ...extra });
  expect(res.status, await res.clone().text().then((t) => t.slice(0, 300))).toBe(200);
  const b = Buffer.from(await res.arrayBuffer());
  return new Int16Array(b.buffer, b.byteOffset, b.length / 2);
}

/** Zero crossings per sample: the tone's pitch. */
function crossingRate(x: Int16Array): number {
  let n = 0;
  for (let i = 1; i < x.length; i++) if ((x[i - 1] < 0) !== (x[i] < 0)) n++;
  return n / x.length;
}

describe("Piper voices from the voices folder", () => {
  it("lists each model, one voice per speaker, with its engine; broken files are left out and the product is up", async () => {
    const res = await apiFetch(stack, acct.apiKey, "/v1/voices");
    expect(res.status).toBe(200);
    const { voices } = (await res.json()) as { voices: Array<{ voice_id: string; name: string; category: string; labels: Record<string, string> }> };
    const piper = voices.filter((v) => v.labels.engine === "piper");
    expect(piper.map((v) => v.voice_id).sort()).toEqual([SOLO, ALICE, BOB].sort());
    expect(piper.find((v) => v.voice_id === BOB)!.name).toBe("Piper duo (en_GB, low): bob");
    expect(piper.find((v) => v.voice_id === SOLO)!.labels.language).toBe("en");
    // The premade voices are there as always.
    expect(voices.filter((v) => v.category === "premade" && v.labels.engine !== "piper").length).toBeGreaterThan(20);
  });

  it("speaks: length follows the speed (length_scale), the same request gives the same audio", async () => {
    const text = "Hello there, this is a Piper voice.";
    const normal = await pcm(SOLO, text, { seed: 1 });
    const again = await pcm(SOLO, text, { seed: 1 });
    expect(Buffer.from(normal.buffer).equals(Buffer.from(again.buffer))).toBe(true);
    const slow = await pcm(SOLO, text, { seed: 1, voice_settings: { speed: 0.7 } });
    const fast = await pcm(SOLO, text, { seed: 1, voice_settings: { speed: 1.2 } });
    expect(normal.length).toBeGreaterThan(22050 * 0.5);
    // length_scale = 1 / speed: T = N * 256 / speed samples (to a sample per chunk).
    expect(slow.length / normal.length).toBeCloseTo(1 / 0.7, 2);
    expect(fast.length / normal.length).toBeCloseTo(1 / 1.2, 2);
  });

  it("stability scales the noise scales the model receives", async () => {
    const text = "Steady as she goes.";
    const calm = await pcm(SOLO, text, { voice_settings: { stability: 1 } });
    const lively = await pcm(SOLO, text, { voice_settings: { stability: 0 } });
    expect(calm.length).toBe(lively.length);
    // noise_scale and noise_w raise the tone's pitch in the test model: 1.5x the voice's at stability 0, 0.5x at 1.
    expect(crossingRate(lively)).toBeGreaterThan(crossingRate(calm) * 1.2);
  });

  it("each speaker of a multi-speaker model is its own voice (its sid reaches the model)", async () => {
    const text = "Who is speaking now?";
    const a = await pcm(ALICE, text);
    const b = await pcm(BOB, text);
    expect(a.length).toBe(b.length);
    expect(crossingRate(b)).toBeGreaterThan(crossingRate(a) * 1.1);
  });

  it("streams sentence by sentence and times every character", async () => {
    const text = "First sentence here. Second sentence follows. And a third one ends it.";
    const res = await post(`/v1/text-to-speech/${SOLO}/stream/with-timestamps?output_format=pcm_22050`, { text, model_id: "eleven_multilingual_v2" });
    expect(res.status).toBe(200);
    const lines = (await res.text()).split("\n").filter((l) => l.trim());
    const parts = lines.map((l) => JSON.parse(l) as { audio_base64: string; alignment: { characters: string[]; character_start_times_seconds: number[]; character_end_times_seconds: number[] } | null });
    const timed = parts.filter((p) => p.alignment && p.alignment.characters.length);
    expect(timed.length).toBeGreaterThanOrEqual(3);
    const chars = timed.flatMap((p) => p.alignment!.characters).join("");
    expect(chars).toBe(text);
    const starts = timed.flatMap((p) => p.alignment!.character_start_times_seconds);
    for (let i = 1; i < starts.length; i++) expect(starts[i]).toBeGreaterThanOrEqual(starts[i - 1]);
    const audioBytes = parts.reduce((s, p) => s + Buffer.from(p.audio_base64 ?? "", "base64").length, 0);
    const ends = timed.flatMap((p) => p.alignment!.character_end_times_seconds);
    expect(ends[ends.length - 1]).toBeLessThanOrEqual(audioBytes / 2 / 22050 + 0.01);
    // "Second" starts in the second sentence's audio, after "First" ended.
    const second = text.indexOf("Second");
    expect(starts[second]).toBeGreaterThan(ends[text.indexOf("here")]);
  });

  it("answers in every output format", async () => {
    const magic: Record<string, (b: Buffer) => boolean> = {
      mp3_44100_128: (b) => b.subarray(0, 3).toString() === "ID3" || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0),
      opus_48000_64: (b) => b.subarray(0, 4).toString() === "OggS",
      wav_22050: (b) => b.subarray(0, 4).toString() === "RIFF",
      pcm_16000: (b) => b.length > 16000 * 2 * 0.3,
      ulaw_8000: (b) => b.length > 8000 * 0.3,
    };
    for (const [format, ok] of Object.entries(magic)) {
      const res = await post(`/v1/text-to-speech/${ALICE}${format.startsWith("wav") ? "" : "/stream"}?output_format=${format}`, { text: "Every format works. Even this one.", model_id: "eleven_multilingual_v2" });
      expect(res.status, `${format}: ${await res.clone().text().then((t) => t.slice(0, 200))}`).toBe(200);
      expect(ok(Buffer.from(await res.arrayBuffer())), format).toBe(true);
    }
  });

  it("is charged and kept in history like any voice", async () => {
    const before = (await (await apiFetch(stack, acct.apiKey, "/v1/user/subscription")).json()) as { character_count: number };
    const text = "Charge me for these words.";
    await pcm(BOB, text);
    const after = (await (await apiFetch(stack, acct.apiKey, "/v1/user/subscription")).json()) as { character_count: number };
    expect(after.character_count - before.character_count).toBe(text.length);
    const history = (await (await apiFetch(stack, acct.apiKey, "/v1/history?page_size=5")).json()) as { history: Array<{ voice_id: string; text: string }> };
    expect(history.history.some((h) => h.voice_id === BOB && h.text === text)).toBe(true);
  });
});

describe("a Piper voice whose files went away after start-up", () => {
  it("answers a clear error and charges nothing", async () => {
    const before = (await (await apiFetch(stack, acct.apiKey, "/v1/user/subscription")).json()) as { character_count: number };
    rmSync(join(dir, "en_US-tiny-medium.onnx"));
    const res = await post(`/v1/text-to-speech/${SOLO}?output_format=pcm_22050`, { text: "Is anyone there?", model_id: "eleven_multilingual_v2" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      detail: { status: "voice_unavailable", message: "The Piper voice en_US-tiny-medium is not installed on this server any more (its file was removed); the voice list is refreshed at the next start." },
    });
    const after = (await (await apiFetch(stack, acct.apiKey, "/v1/user/subscription")).json()) as { character_count: number };
    expect(after.character_count).toBe(before.character_count);
  });
});
