import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ElevenLabsClient, type ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, apiFetch } from "../support/stack.js";
import { probe, readAll, hasFfmpeg } from "../support/audio.js";
import { changeLimit, currentUsage } from "../../functions/platform/domain/credits.js";
import { waitingForSlot } from "../../functions/capabilities/speech/slots.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/**
 * Text to speech through the official SDK against the embedded stack, with the real eSpeak
 * engine: audio decodes, timings spell the request text, credits and history follow.
 */
let stack: EmbeddedStack;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
let client: ElevenLabsClient;
const AVERY = premadeVoiceId("Avery");
const MARCUS = premadeVoiceId("Marcus");

beforeAll(async () => {
  stack = await startTestStack();
  acct = await createTestAccount(stack, "pro");
  client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
});
afterAll(async () => stack?.close());

const TEXT = "Hello from Timbre. This is the second sentence, and it is a little longer.";

describe("text to speech", () => {
  it("converts text to MP3 that decodes, and charges the characters", async () => {
    const before = (await currentUsage(stack.ctx, acct.workspace.workspace_id)).character_count;
    const res = await client.textToSpeech.convert(AVERY, { text: TEXT, modelId: "eleven_multilingual_v2", outputFormat: "mp3_44100_128" }).withRawResponse();
    const { bytes } = await readAll(res.data);
    expect(bytes.byteLength).toBeGreaterThan(2000);
    expect(res.rawResponse.headers.get("content-type")).toBe("audio/mpeg");
    expect(res.rawResponse.headers.get("character-cost")).toBe(String(TEXT.length));
    expect(res.rawResponse.headers.get("history-item-id")).toMatch(/^\w{20}$/);
    expect(res.rawResponse.headers.get("request-id")).toBeTruthy();
    if (hasFfmpeg) {
      const p = await probe(bytes);
      expect(p.codec).toBe("mp3");
      expect(p.sampleRate).toBe(44100);
      expect(p.duration).toBeGreaterThan(2);
    }
    const after = (await currentUsage(stack.ctx, acct.workspace.workspace_id)).character_count;
    expect(after - before).toBe(TEXT.length);
  });

  it("halves the cost on flash and honours a workspace's custom rate", async () => {
    const a = await createTestAccount(stack, "pro");
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 });
    const flash = await c.textToSpeech.convert(AVERY, { text: "Twenty characters!!!", modelId: "eleven_flash_v2_5" }).withRawResponse();
    await readAll(flash.data);
    expect(flash.rawResponse.headers.get("character-cost")).toBe("10");
    await stack.ctx.stores.workspaces.update(a.workspace.workspace_id, { custom_model_rates: { eleven_flash_v2_5: 0.2 } });
    const custom = await c.textToSpeech.convert(AVERY, { text: "Twenty more letters!", modelId: "eleven_flash_v2_5" }).withRawResponse();
    await readAll(custom.data);
    expect(custom.rawResponse.headers.get("character-cost")).toBe("4");
  });

  it("streams a long text in several chunks", async () => {
    const long = Array.from({ length: 6 }, (_, i) => `Sentence number ${i + 1} keeps the stream going for a while.`).join(" ");
    const { bytes, chunks } = await readAll(await client.textToSpeech.stream(AVERY, { text: long, outputFormat: "mp3_22050_32" }));
    expect(chunks).toBeGreaterThan(1);
    if (hasFfmpeg) expect((await probe(bytes)).duration).toBeGreaterThan(5);
  });

  it("returns timings whose characters spell the request text exactly", async () => {
    const text = "  Pay $5 on 2026-11-22, Dr. Smith!  ";
    const r = await client.textToSpeech.convertWithTimestamps(MARCUS, { text });
    expect(r.alignment!.characters.join("")).toBe(text);
    const starts = r.alignment!.characterStartTimesSeconds;
    const ends = r.alignment!.characterEndTimesSeconds;
    for (let i = 0; i < starts.length; i++) {
      expect(ends[i]).toBeGreaterThanOrEqual(starts[i]);
      if (i) expect(starts[i]).toBeGreaterThanOrEqual(starts[i - 1]);
    }
    expect(ends.at(-1)!).toBeGreaterThan(1);
    const normalized = r.normalizedAlignment!.characters.join("");
    expect(normalized).toContain("5 dollars");
    expect(normalized).toContain("November 22, 2026");
    expect(normalized).toContain("Doctor Smith");
    expect(Buffer.from(r.audioBase64, "base64").byteLength).toBeGreaterThan(1000);
  });

  it("leaves v3 audio tags unspoken while keeping them in the timeline", async () => {
    const text = "[laughs] That was funny. [whispers] Keep it quiet.";
    const r = await client.textToSpeech.convertWithTimestamps(AVERY, { text, modelId: "eleven_v3" });
    expect(r.alignment!.characters.join("")).toBe(text);
    const spoken = r.normalizedAlignment!.characters.join("");
    expect(spoken).not.toMatch(/laughs|whispers/);
    expect(spoken).toContain("That was funny.");
  });

  it("streams NDJSON timings that join back to the text", async () => {
    const text = "First part here. Second part there. Third and last part.";
    const stream = await client.textToSpeech.streamWithTimestamps(AVERY, { text });
    const chars: string[] = [];
    let audio = 0;
    let lines = 0;
    for await (const chunk of stream) {
      lines++;
      chars.push(...(chunk.alignment?.characters ?? []));
      audio += Buffer.from(chunk.audioBase64, "base64").byteLength;
    }
    expect(lines).toBeGreaterThan(1);
    expect(chars.join("")).toBe(text);
    expect(audio).toBeGreaterThan(1000);
  });

  it("is deterministic for a seed and varies without one", async () => {
    const get = async (seed?: number) => (await readAll(await client.textToSpeech.convert(AVERY, { text: "Same words, same seed.", seed, outputFormat: "pcm_16000" }))).bytes;
    const [a, b, c] = [await get(42), await get(42), await get(43)];
    expect(Buffer.compare(a, b)).toBe(0);
    expect(Buffer.compare(a, c)).not.toBe(0);
  });

  it("encodes every non-streaming format family so that it decodes", async () => {
    const cases: Array<[string, string[], string, number]> = [
      ["pcm_16000", ["-f", "s16le", "-ar", "16000", "-ac", "1"], "pcm_s16le", 16000],
      ["ulaw_8000", ["-f", "mulaw", "-ar", "8000", "-ac", "1"], "pcm_mulaw", 8000],
      ["alaw_8000", ["-f", "alaw", "-ar", "8000", "-ac", "1"], "pcm_alaw", 8000],
      ["opus_48000_64", [], "opus", 48000],
      ["wav_24000", [], "pcm_s16le", 24000],
    ];
    for (const [format, args, codec, rate] of cases) {
      const { bytes } = await readAll(await client.textToSpeech.convert(AVERY, { text: "Format check.", outputFormat: format as "pcm_16000" }));
      expect(bytes.byteLength, format).toBeGreaterThan(500);
      if (hasFfmpeg) {
        const p = await probe(bytes, args);
        expect(p.codec, format).toBe(codec);
        expect(p.sampleRate, format).toBe(rate);
      }
    }
  });

  it("gives identical requests free regenerations within the window, then charges again", async () => {
    const a = await createTestAccount(stack, "pro");
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 });
    const costs: string[] = [];
    const counts: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await c.textToSpeech.convert(AVERY, { text: "Regenerate me please." }).withRawResponse();
      await readAll(r.data);
      costs.push(r.rawResponse.headers.get("character-cost")!);
      counts.push(r.rawResponse.headers.get("regeneration-count")!);
    }
    expect(costs).toEqual(["21", "0", "0", "21"]);
    expect(counts).toEqual(["0", "1", "2", "3"]);
    expect((await currentUsage(stack.ctx, a.workspace.workspace_id)).character_count).toBe(42);
  });

  it("keeps no history with enable_logging=false", async () => {
    const r = await client.textToSpeech.convert(AVERY, { text: "Off the record.", enableLogging: false }).withRawResponse();
    await readAll(r.data);
    expect(r.rawResponse.headers.get("history-item-id")).toBeNull();
    const list = await client.history.list({ pageSize: 100 });
    expect(list.history.some((h) => h.text === "Off the record.")).toBe(false);
  });
});

describe("errors", () => {
  const expectError = async (p: Promise<unknown>, status: number, detail: string) => {
    const e = (await p.catch((x: unknown) => x)) as ElevenLabsError;
    expect(e.statusCode).toBe(status);
    const body = e.body as { detail: { status?: string } | Array<{ msg: string }> };
    expect(JSON.stringify(body.detail)).toContain(detail);
  };

  it("answers bad input with the right status and message", async () => {
    await expectError(client.textToSpeech.convert("nope-voice-id", { text: "hi" }), 404, "voice_not_found");
    await expectError(client.textToSpeech.convert(AVERY, { text: "   " }), 422, "Text must not be empty");
    await expectError(client.textToSpeech.convert(AVERY, { text: "hi", modelId: "no_such_model" }), 400, "model_not_found");
    await expectError(client.textToSpeech.convert(AVERY, { text: "hi", modelId: "eleven_multilingual_sts_v2" }), 400, "model_can_not_do_text_to_speech");
    await expectError(client.textToSpeech.convert(AVERY, { text: "x".repeat(5001), modelId: "eleven_v3" }), 400, "max_character_limit_exceeded");
    await expectError(client.textToSpeech.convert(AVERY, { text: "hi", modelId: "eleven_flash_v2", languageCode: "de" }), 400, "unsupported_language");
    const locators = Array.from({ length: 4 }, (_, i) => ({ pronunciationDictionaryId: `d${i}` }));
    await expectError(client.textToSpeech.convert(AVERY, { text: "hi", pronunciationDictionaryLocators: locators }), 422, "up to 3");
    const bad = await apiFetch(stack, acct.apiKey, `/v1/text-to-speech/${AVERY}?output_format=mp3_1_1`, { method: "POST", body: JSON.stringify({ text: "hi" }) });
    expect(bad.status).toBe(422);
  });

  it("refuses formats above the plan", async () => {
    const free = await createTestAccount(stack, "free");
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: free.apiKey, maxRetries: 0 });
    await expectError(c.textToSpeech.convert(AVERY, { text: "hi", outputFormat: "pcm_44100" }), 403, "output_format_not_allowed");
  });

  it("blocks a free workspace at its quota and charges nothing", async () => {
    const free = await createTestAccount(stack, "free");
    await changeLimit(stack.ctx, free.workspace.workspace_id, 10);
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: free.apiKey, maxRetries: 0 });
    await expectError(c.textToSpeech.convert(AVERY, { text: "This text is longer than ten." }), 401, "quota_exceeded");
    expect((await currentUsage(stack.ctx, free.workspace.workspace_id)).character_count).toBe(0);
    expect((await c.history.list()).history).toHaveLength(0);
  });

  it("never overspends a small balance under concurrent generations", async () => {
    const a = await createTestAccount(stack, "pro");
    await changeLimit(stack.ctx, a.workspace.workspace_id, 100);
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 });
    // Six different 30-character texts (no free regenerations), 180 credits asked of 100.
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => c.textToSpeech.convert(AVERY, { text: `Concurrent request number ${i}.`.padEnd(30, "!") }).then(readAll)),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(3);
    for (const r of results) if (r.status === "rejected") expect((r.reason as ElevenLabsError).statusCode).toBe(401);
    const usage = await currentUsage(stack.ctx, a.workspace.workspace_id);
    expect(usage.character_count).toBe(90);
    expect(usage.remaining).toBe(10);
    expect((await c.history.list()).history).toHaveLength(3);
  });

  it("answers 429 too_many_concurrent_requests when every slot stays busy", async () => {
    const free = await createTestAccount(stack, "free");
    const ws = free.workspace.workspace_id;
    const now = Math.floor(Date.now() / 1000);
    await stack.ctx.stores.ledger.takeSlot(ws, 2, "busy-1", now, 60);
    await stack.ctx.stores.ledger.takeSlot(ws, 2, "busy-2", now, 60);
    const r = await apiFetch(stack, free.apiKey, `/v1/text-to-speech/${AVERY}`, { method: "POST", body: JSON.stringify({ text: "wait" }) });
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("1");
    expect(((await r.json()) as { detail: { status: string } }).detail.status).toBe("too_many_concurrent_requests");
    expect((await currentUsage(stack.ctx, ws)).character_count).toBe(0);
  });

  it("refuses for concurrency before any work: a refused request leaves no trace (issue 24)", async () => {
    const free = await createTestAccount(stack, "free");
    const ws = free.workspace.workspace_id;
    const now = Math.floor(Date.now() / 1000);
    await stack.ctx.stores.ledger.takeSlot(ws, 2, "busy-1", now, 60);
    await stack.ctx.stores.ledger.takeSlot(ws, 2, "busy-2", now, 60);
    const send = (text: string) =>
      apiFetch(stack, free.apiKey, `/v1/text-to-speech/${AVERY}`, { method: "POST", headers: { "idempotency-key": "refused-key-0001" }, body: JSON.stringify({ text }) });
    const refused = await send("The first text, refused.");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    await stack.ctx.stores.ledger.releaseSlot(ws, 0, "busy-1");
    await stack.ctx.stores.ledger.releaseSlot(ws, 1, "busy-2");
    await stack.ctx.stores.ledger.releaseSlot(ws, 0, "busy-2");
    await stack.ctx.stores.ledger.releaseSlot(ws, 1, "busy-1");
    // The refused request bound no Idempotency-Key (it was never a request the server took on).
    const next = await send("Another text with the same key.");
    expect(next.status).toBe(200);
    await next.arrayBuffer();
  });

  it("refuses a known key whose workspace's queue is full before reading its credentials from the store (issue 24)", async () => {
    const free = await createTestAccount(stack, "free");
    const other = await createTestAccount(stack, "free");
    const ws = free.workspace.workspace_id;
    const now = Math.floor(Date.now() / 1000);
    await stack.ctx.stores.ledger.takeSlot(ws, 2, "busy-1", now, 60);
    await stack.ctx.stores.ledger.takeSlot(ws, 2, "busy-2", now, 60);
    const send = (key: string) => apiFetch(stack, key, `/v1/text-to-speech/${AVERY}`, { method: "POST", body: JSON.stringify({ text: "Waiting for a slot." }) });
    // Two requests wait in the workspace's queue (as long as its concurrency) for up to SLOT_WAIT_MS.
    const waiting = [send(free.apiKey), send(free.apiKey)];
    const reads = vi.spyOn(stack.ctx.stores.apiKeys, "byHash");
    try {
      await expect.poll(() => waitingForSlot(stack.ctx, ws)).toBe(2);
      reads.mockClear();
      const early = await send(free.apiKey);
      expect(early.status).toBe(429);
      expect(reads, "a refusal that read no credentials").not.toHaveBeenCalled();
      expect(((await early.json()) as { detail: { status: string } }).detail.status).toBe("too_many_concurrent_requests");
      // Refused again before its Retry-After: the answer pauses (a timer) before the 429, so a
      // client that ignores Retry-After cannot make the server answer a hundred refusals a second.
      const again = await send(free.apiKey);
      expect(again.status).toBe(429);
      await again.arrayBuffer();
      expect(Number(again.headers.get("x-timbre-slot-wait-ms"))).toBeGreaterThan(0);
      expect(early.headers.get("x-timbre-slot-wait-ms")).toBeNull();
      // Another workspace's key is read and served as usual.
      reads.mockClear();
      const served = await send(other.apiKey);
      expect(served.status).toBe(200);
      await served.arrayBuffer();
      expect(reads).toHaveBeenCalled();
    } finally {
      reads.mockRestore();
      for (const r of await Promise.all(waiting)) await r.arrayBuffer();
      for (const owner of ["busy-1", "busy-2"]) for (const i of [0, 1]) await stack.ctx.stores.ledger.releaseSlot(ws, i, owner);
    }
    // An unknown key is still a 401.
    expect((await send("sk_not_a_key_at_all")).status).toBe(401);
  });
});
