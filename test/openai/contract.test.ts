import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, insertOwnVoice, startTestStack } from "../support/stack.js";
import { probe } from "../support/audio.js";
import { changeLimit, currentUsage } from "../../functions/platform/domain/credits.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { sha256Hex } from "../../functions/platform/adapters/ids.js";

/**
 * Timbre as an OpenAI speech server (issue 25 §4): the official `openai` package, unchanged,
 * with its baseURL at /openai/v1 on the embedded stack and the real engine. Credits, history,
 * permissions and limits are those of /v1/text-to-speech.
 */
let stack: EmbeddedStack;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
let openai: OpenAI;
const AVERY = premadeVoiceId("Avery");
const RILEY = premadeVoiceId("Riley");

const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${stack.url}/openai/v1`, maxRetries: 0 });
const bytesOf = async (r: Response) => new Uint8Array(await r.arrayBuffer());
const used = async (ws: string) => (await currentUsage(stack.ctx, ws)).character_count;
const history = (apiKey: string) => new ElevenLabsClient({ baseUrl: stack.url, apiKey, maxRetries: 0 }).history.list();
/** The SDK's error for a call that should fail. */
async function failure(p: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await p;
  } catch (e) {
    if (e instanceof OpenAI.APIError) return e;
    throw e;
  }
  throw new Error("the call succeeded");
}

beforeAll(async () => {
  stack = await startTestStack();
  acct = await createTestAccount(stack, "pro");
  openai = client(acct.apiKey);
});
afterAll(async () => stack?.close());

describe("POST /openai/v1/audio/speech through the openai package", () => {
  it("answers every response format Timbre can encode with audio of that format", async () => {
    const text = (f: string) => `Formats differ; this one is ${f}.`;
    const mp3 = await bytesOf(await openai.audio.speech.create({ model: "tts-1", voice: "alloy", input: text("mp3") }));
    // MPEG frame sync (11 set bits) on the first byte pair, or an ID3 tag before it.
    expect(mp3[0] === 0xff && (mp3[1] & 0xe0) === 0xe0 || Buffer.from(mp3.subarray(0, 3)).toString() === "ID3").toBe(true);
    expect(await probe(mp3)).toMatchObject({ codec: "mp3", channels: 1 });

    const opus = Buffer.from(await bytesOf(await openai.audio.speech.create({ model: "tts-1", voice: "alloy", input: text("opus"), response_format: "opus" })));
    expect(opus.subarray(0, 4).toString()).toBe("OggS");
    expect(opus.includes(Buffer.from("OpusHead"))).toBe(true);
    expect(await probe(opus)).toMatchObject({ codec: "opus", sampleRate: 48000 });

    const wav = Buffer.from(await bytesOf(await openai.audio.speech.create({ model: "tts-1", voice: "alloy", input: text("wav"), response_format: "wav" })));
    expect(wav.subarray(0, 4).toString()).toBe("RIFF");
    expect(wav.subarray(8, 12).toString()).toBe("WAVE");
    expect(wav.readUInt16LE(22)).toBe(1); // mono
    expect(wav.readUInt32LE(24)).toBe(24000);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(wav.readUInt32LE(4)).toBe(wav.byteLength - 8); // the whole file: its length is in its header

    const flacRes = await openai.audio.speech.create({ model: "tts-1", voice: "alloy", input: text("flac"), response_format: "flac" });
    expect(flacRes.headers.get("content-type")).toBe("audio/flac");
    const flac = Buffer.from(await bytesOf(flacRes));
    expect(flac.subarray(0, 4).toString()).toBe("fLaC");
    expect(await probe(flac)).toMatchObject({ codec: "flac", sampleRate: 24000, channels: 1 });
    expect((await probe(flac)).duration).toBeGreaterThan(0.8);

    const pcmRes = await openai.audio.speech.create({ model: "tts-1", voice: "alloy", input: text("pcm"), response_format: "pcm" });
    const pcm = Buffer.from(await bytesOf(pcmRes));
    expect(pcm.subarray(0, 4).toString()).not.toBe("RIFF");
    expect(pcm.byteLength % 2).toBe(0);
    const p = await probe(pcm, ["-f", "s16le", "-ar", "24000", "-ac", "1"]);
    expect(p).toMatchObject({ codec: "pcm_s16le", sampleRate: 24000 });
    // 24 kHz 16-bit: a second of speech or more for a sentence, and not silence.
    expect(pcm.byteLength / 48000).toBeGreaterThan(0.8);
    const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength / 2);
    expect(samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0)).toBeGreaterThan(1000);
  });

  it("refuses AAC (and unknown formats) with a 400 listing the formats it supports, before charging anything", async () => {
    const before = await used(acct.workspace.workspace_id);
    for (const response_format of ["aac", "ogg"] as Array<"aac">) {
      const e = await failure(openai.audio.speech.create({ model: "tts-1", voice: "alloy", input: "No encoder.", response_format }));
      expect(e.status).toBe(400);
      expect(e.error).toEqual({ message: expect.stringContaining("Supported formats: mp3, opus, flac, wav, pcm"), type: "invalid_request_error", param: "response_format", code: "unsupported_response_format" });
    }
    expect(await used(acct.workspace.workspace_id)).toBe(before);
  });

  it("charges credits and writes a history item exactly as /v1/text-to-speech does", async () => {
    const a = await createTestAccount(stack, "creator");
    const ws = a.workspace.workspace_id;
    const text = "Credits and history are the same on both paths.";
    const res = await client(a.apiKey).audio.speech.create({ model: "tts-1-hd", voice: "Avery", input: text }).asResponse();
    const audio = await bytesOf(res);
    expect(audio.byteLength).toBeGreaterThan(1000);
    expect(res.headers.get("character-cost")).toBe(String(text.length));
    expect(await used(ws)).toBe(text.length);
    const v1 = await apiFetch(stack, a.apiKey, `/v1/text-to-speech/${AVERY}?output_format=mp3_44100_128`, {
      method: "POST",
      body: JSON.stringify({ text: text.replace("both", "each"), model_id: "eleven_multilingual_v2" }),
    });
    await v1.arrayBuffer();
    expect(v1.headers.get("character-cost")).toBe(res.headers.get("character-cost"));
    expect(await used(ws)).toBe(2 * text.length);

    const items = (await history(a.apiKey)).history;
    expect(items).toHaveLength(2);
    const ours = items.find((i) => i.historyItemId === res.headers.get("history-item-id"))!;
    const theirs = items.find((i) => i.historyItemId !== ours.historyItemId)!;
    expect(ours).toMatchObject({ text, voiceId: AVERY, voiceName: "Avery", modelId: "eleven_multilingual_v2", contentType: "audio/mpeg", source: "TTS" });
    expect(ours.characterCountChangeTo! - ours.characterCountChangeFrom!).toBe(text.length);
    for (const k of ["voiceId", "modelId", "contentType", "source", "voiceCategory"] as const) expect(ours[k]).toEqual(theirs[k]);

    // tts-1 speaks with Flash v2.5, at its half rate.
    const flash = await client(a.apiKey).audio.speech.create({ model: "tts-1", voice: "Avery", input: text }).asResponse();
    await flash.arrayBuffer();
    expect(flash.headers.get("character-cost")).toBe(String(Math.ceil(text.length * 0.5)));
  });

  it("streams raw audio (stream_format audio) and SSE deltas with a done event carrying usage", async () => {
    const input = "Streaming works sentence by sentence. Here is the second one. And a third, to be sure.";
    const raw = await openai.audio.speech.create({ model: "tts-1", voice: "nova", input, stream_format: "audio", response_format: "pcm" });
    expect(raw.headers.get("content-type")).toBe("audio/pcm");
    const parts: Uint8Array[] = [];
    for await (const c of raw.body as unknown as AsyncIterable<Uint8Array>) parts.push(c);
    const streamed = Buffer.concat(parts);
    expect(streamed.byteLength / 48000).toBeGreaterThan(2);

    const sse = await openai.audio.speech.create({ model: "gpt-4o-mini-tts", voice: "nova", input, stream_format: "sse" });
    expect(sse.headers.get("content-type")).toBe("text/event-stream");
    const events = (await sse.text())
      .split("\n\n")
      .filter(Boolean)
      .map((e) => {
        expect(e.startsWith("data: ")).toBe(true);
        return JSON.parse(e.slice(6)) as { type: string; audio?: string; usage?: Record<string, number> };
      });
    const deltas = events.filter((e) => e.type === "speech.audio.delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(events.at(-1)).toEqual({ type: "speech.audio.done", usage: { input_tokens: input.length, output_tokens: 0, total_tokens: input.length } });
    expect(events.filter((e) => e.type === "speech.audio.done")).toHaveLength(1);
    const mp3 = Buffer.concat(deltas.map((d) => Buffer.from(d.audio!, "base64")));
    expect(await probe(mp3)).toMatchObject({ codec: "mp3" });
    expect((await probe(mp3)).duration).toBeGreaterThan(2);

    // A whole-file format (wav) over SSE: its deltas join into one valid file.
    const wavSse = await openai.audio.speech.create({ model: "tts-1", voice: "nova", input: "A short wave file.", stream_format: "sse", response_format: "wav" });
    const wavEvents = (await wavSse.text()).split("\n\n").filter(Boolean).map((e) => JSON.parse(e.slice(6)) as { type: string; audio?: string });
    const wav = Buffer.concat(wavEvents.filter((e) => e.audio).map((e) => Buffer.from(e.audio!, "base64")));
    expect(wav.subarray(0, 4).toString()).toBe("RIFF");
    expect(wav.readUInt32LE(4)).toBe(wav.byteLength - 8);
  });

  it("clamps speed onto Timbre's range, refuses one outside OpenAI's, and follows instructions it can", async () => {
    const input = "The quick brown fox jumps over the lazy dog near the river bank.";
    const seconds = async (body: Partial<OpenAI.Audio.SpeechCreateParams>) => {
      const r = await openai.audio.speech.create({ model: "tts-1", voice: "echo", input, response_format: "wav", ...body }).asResponse();
      const wav = Buffer.from(await bytesOf(r));
      return { secs: (wav.byteLength - 44) / 48000, applied: r.headers.get("x-timbre-instructions-applied") };
    };
    const slowest = await seconds({ speed: 0.25 });
    const slow = await seconds({ speed: 0.7 });
    const fastest = await seconds({ speed: 4 });
    const plain = await seconds({});
    // 0.25 is clamped to 0.7: the same pace; 4 to 1.2: faster than 1.
    expect(Math.abs(slowest.secs - slow.secs) / slow.secs).toBeLessThan(0.05);
    expect(fastest.secs).toBeLessThan(plain.secs * 0.95);
    expect(slow.secs).toBeGreaterThan(plain.secs * 1.15);

    const e = await failure(openai.audio.speech.create({ model: "tts-1", voice: "echo", input, speed: 5 }));
    expect(e.status).toBe(400);
    expect(e.param).toBe("speed");

    const directed = await seconds({ instructions: "Read this slowly, in a whisper." });
    expect(directed.applied).toBe("slowly, whisper");
    expect(directed.secs).toBeGreaterThan(plain.secs * 1.05);
    expect((await seconds({ instructions: "Sound like a pirate." })).applied).toBeNull();
  });
});

describe("voices and models", () => {
  it("lists the models in OpenAI's list shape", async () => {
    const ids: string[] = [];
    for await (const m of openai.models.list()) {
      expect(m).toMatchObject({ object: "model", owned_by: "timbre", created: expect.any(Number) });
      ids.push(m.id);
    }
    expect(ids).toEqual(expect.arrayContaining(["tts-1", "tts-1-hd", "gpt-4o-mini-tts", "eleven_multilingual_v2", "eleven_flash_v2_5"]));
    expect(ids).not.toContain("eleven_multilingual_sts_v2");
    expect((await openai.models.retrieve("tts-1")).id).toBe("tts-1");
    expect((await failure(openai.models.retrieve("dall-e-3"))).status).toBe(404);
  });

  it("lists the voices the caller may use: OpenAI's names, the premade voices, the workspace's own, not another's", async () => {
    const a = await createTestAccount(stack, "creator");
    const b = await createTestAccount(stack, "creator");
    const mine = await insertOwnVoice(stack, a.workspace.workspace_id, a.user.user_id, "Narrator Nine");
    const theirs = await insertOwnVoice(stack, b.workspace.workspace_id, b.user.user_id, "Secret Voice");
    const r = await fetch(`${stack.url}/openai/v1/audio/voices`, { headers: { authorization: `Bearer ${a.apiKey}` } });
    expect(r.status).toBe(200);
    const { voices } = (await r.json()) as { voices: Array<{ id: string; name: string }> };
    expect(voices).toContainEqual(expect.objectContaining({ id: "alloy", name: "alloy", speaks_as: "Riley" }));
    expect(voices).toContainEqual(expect.objectContaining({ id: AVERY, name: "Avery" }));
    expect(voices).toContainEqual(expect.objectContaining({ id: mine.voice_id, name: "Narrator Nine" }));
    expect(voices.map((v) => v.id)).not.toContain(theirs.voice_id);

    // Another workspace's voice is unknown here, by id and by name.
    for (const voice of [theirs.voice_id, "Secret Voice"]) {
      const e = await failure(client(a.apiKey).audio.speech.create({ model: "tts-1", voice, input: "Not yours." }));
      expect(e.status).toBe(404);
      expect(e.error).toMatchObject({ type: "invalid_request_error", param: "voice", code: "voice_not_found" });
    }
    // One's own voice speaks by id and by name (any case); OpenAI's names map onto premade voices.
    for (const [voice, id] of [[mine.voice_id, mine.voice_id], ["narrator nine", mine.voice_id], ["alloy", RILEY], [AVERY, AVERY]] as const) {
      const res = await client(a.apiKey).audio.speech.create({ model: "tts-1", voice, input: `Speaking as ${voice}.` }).asResponse();
      await res.arrayBuffer();
      const item = (await history(a.apiKey)).history.find((h) => h.historyItemId === res.headers.get("history-item-id"));
      expect(item?.voiceId, voice).toBe(id);
    }
  });

  it("blends voices of one language, Kokoro style, and refuses mixed languages and bad blends", async () => {
    const a = await createTestAccount(stack, "creator");
    const ws = a.workspace.workspace_id;
    const c = client(a.apiKey);
    const input = "A blended voice says this sentence.";
    const speak = async (voice: string) => {
      const r = await c.audio.speech.create({ model: "tts-1-hd", voice, input, response_format: "pcm" }).asResponse();
      const audio = await bytesOf(r);
      return { r, audio };
    };
    const first = await speak("Avery(2)+Marcus(1)");
    expect(first.audio.byteLength).toBeGreaterThan(24000);
    expect(first.r.headers.get("character-cost")).toBe(String(input.length));
    const item = (await history(a.apiKey)).history.find((h) => h.historyItemId === first.r.headers.get("history-item-id"))!;
    expect(item).toMatchObject({ voiceId: AVERY, voiceName: "Avery(2)+Marcus(1)" });
    // The same mix written with other weights of the same ratio is the same voice: a free regeneration.
    expect((await speak("avery(1) + marcus(0.5)")).r.headers.get("character-cost")).toBe("0");
    // Another mix with the same heaviest voice is another voice: charged.
    expect((await speak("Avery(2)+Harriet(1)")).r.headers.get("character-cost")).toBe(String(input.length));
    expect((await speak("Avery+Marcus")).r.headers.get("character-cost")).toBe(String(input.length));
    expect(await used(ws)).toBe(3 * input.length);

    const mixed = await failure(c.audio.speech.create({ model: "tts-1-hd", voice: "Avery+Lena", input }));
    expect(mixed.status).toBe(400);
    expect(mixed.error).toMatchObject({ param: "voice", code: "voice_blend_mismatch", message: expect.stringContaining("language differs (en, de)") });
    const syntax = await failure(c.audio.speech.create({ model: "tts-1-hd", voice: "Avery(0)+Marcus", input }));
    expect(syntax.status).toBe(400);
    const unknown = await failure(c.audio.speech.create({ model: "tts-1-hd", voice: "Avery+Nobody", input }));
    expect(unknown.status).toBe(404);
    expect(unknown.message).toContain("'Nobody'");
    expect(await used(ws)).toBe(3 * input.length);
  });
});

describe("errors in OpenAI's shape", () => {
  it("answers a bad or missing key 401", async () => {
    const bad = await failure(client("sk_not_a_real_key").audio.speech.create({ model: "tts-1", voice: "alloy", input: "Hi." }));
    expect(bad.status).toBe(401);
    expect(bad.error).toMatchObject({ type: "invalid_request_error", code: "invalid_api_key" });
    const none = await fetch(`${stack.url}/openai/v1/audio/speech`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "tts-1", voice: "alloy", input: "Hi." }) });
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain("Authorization: Bearer");
    expect((await failure(client("sk_not_a_real_key").models.list())).status).toBe(401);
  });

  it("refuses input over 4,096 characters, empty input and unknown models with 400, before charging", async () => {
    const before = await used(acct.workspace.workspace_id);
    const long = await failure(openai.audio.speech.create({ model: "tts-1", voice: "alloy", input: "a".repeat(4097) }));
    expect(long.status).toBe(400);
    expect(long.error).toMatchObject({ param: "input", code: "string_above_max_length", message: expect.stringContaining("4096") });
    expect((await failure(openai.audio.speech.create({ model: "tts-1", voice: "alloy", input: "   " }))).status).toBe(400);
    const model = await failure(openai.audio.speech.create({ model: "whisper-1", voice: "alloy", input: "Hi." }));
    expect(model.status).toBe(400);
    expect(model.error).toMatchObject({ param: "model", code: "model_not_found" });
    const missing = await failure(openai.audio.speech.create({ model: "tts-1", input: "Hi." } as OpenAI.Audio.SpeechCreateParams));
    expect(missing.status).toBe(400);
    expect(missing.error).toMatchObject({ param: "voice" });
    expect(await used(acct.workspace.workspace_id)).toBe(before);
  });

  it("answers 429 with Retry-After when every concurrency slot stays busy, and charges nothing", async () => {
    const a = await createTestAccount(stack, "free");
    const ws = a.workspace.workspace_id;
    const now = Math.floor(Date.now() / 1000);
    await stack.ctx.stores.ledger.takeSlot(ws, 2, "busy-1", now, 60);
    await stack.ctx.stores.ledger.takeSlot(ws, 2, "busy-2", now, 60);
    const e = await failure(client(a.apiKey).audio.speech.create({ model: "tts-1", voice: "alloy", input: "Wait for a slot." }));
    expect(e.status).toBe(429);
    expect(e.headers?.get("retry-after")).toBe("1");
    expect(e.error).toMatchObject({ type: "rate_limit_exceeded", code: "too_many_concurrent_requests" });
    expect(await used(ws)).toBe(0);
  });

  it("answers 429 insufficient_quota when the credits do not cover the input, and 403 without the permission", async () => {
    const a = await createTestAccount(stack, "free");
    await changeLimit(stack.ctx, a.workspace.workspace_id, 10);
    const e = await failure(client(a.apiKey).audio.speech.create({ model: "tts-1-hd", voice: "alloy", input: "This sentence costs more than ten credits." }));
    expect(e.status).toBe(429);
    expect(e.error).toMatchObject({ type: "insufficient_quota", code: "insufficient_quota" });
    expect((await history(a.apiKey)).history).toHaveLength(0);

    const b = await createTestAccount(stack, "creator");
    await stack.ctx.stores.apiKeys.patch(sha256Hex(b.apiKey), { permissions: ["voices_read"] });
    const denied = await failure(client(b.apiKey).audio.speech.create({ model: "tts-1", voice: "alloy", input: "No permission." }));
    expect(denied.status).toBe(403);
    expect(denied.error).toMatchObject({ type: "permission_error" });
  });
});
