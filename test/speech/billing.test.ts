import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { readAll } from "../support/audio.js";
import { changeLimit, currentUsage } from "../../functions/platform/domain/credits.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/**
 * Credits can never be bypassed: an idempotency key cannot be borrowed for another body, a
 * client's request id is not a charge key, characters are code points, pronunciation rules
 * cannot expand the text without bound, and a client that leaves mid-stream pays for what was
 * synthesised (and keeps it in the history), not for the rest.
 */
let stack: EmbeddedStack;
const AVERY = premadeVoiceId("Avery");

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

const used = async (ws: string) => (await currentUsage(stack.ctx, ws)).character_count;
const tts = (apiKey: string, body: unknown, headers: Record<string, string> = {}, path = `/v1/text-to-speech/${AVERY}?output_format=pcm_16000`) =>
  apiFetch(stack, apiKey, path, { method: "POST", body: JSON.stringify(body), headers });
const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i % 10}`).join(" ");

describe("idempotency keys", () => {
  it("refuses a reused key with a different body (409) and generates nothing for it", async () => {
    const a = await createTestAccount(stack, "free");
    const ws = a.workspace.workspace_id;
    const first = words(40, "alpha");
    const r1 = await tts(a.apiKey, { text: first }, { "idempotency-key": "key-0001-abcdef" });
    expect(r1.status).toBe(200);
    await r1.arrayBuffer();
    const after1 = await used(ws);
    expect(after1).toBe(first.length);
    for (const other of [words(40, "beta"), words(41, "gamma")]) {
      const r = await tts(a.apiKey, { text: other }, { "idempotency-key": "key-0001-abcdef" });
      expect(r.status).toBe(409);
      expect((await r.json()) as unknown).toEqual({ detail: { status: "idempotency_key_reused", message: expect.stringContaining("Idempotency-Key") } });
    }
    expect(await used(ws)).toBe(after1);
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 });
    expect((await c.history.list()).history).toHaveLength(1);
    // The concurrency slot, taken while the key was checked, was given back each time.
    const slots = await DynamoDBDocumentClient.from(stack.ctx.aws.ddb).send(
      new QueryCommand({ TableName: stack.ctx.config.aws.tables.ledger, KeyConditionExpression: "pk = :p AND begins_with(sk, :s)", ExpressionAttributeValues: { ":p": `WS#${ws}`, ":s": "SLOT#" } }),
    );
    expect(slots.Items ?? []).toEqual([]);
  });

  it("answers a replay of the same request with audio and charges it once", async () => {
    const a = await createTestAccount(stack, "creator");
    const ws = a.workspace.workspace_id;
    const body = { text: words(30, "delta"), seed: 3 };
    const r1 = await tts(a.apiKey, body, { "idempotency-key": "replay-key-42" });
    const audio1 = Buffer.from(await r1.arrayBuffer());
    const r2 = await tts(a.apiKey, body, { "idempotency-key": "replay-key-42" });
    expect(r2.status).toBe(200);
    const audio2 = Buffer.from(await r2.arrayBuffer());
    expect(audio2.equals(audio1)).toBe(true);
    expect(await used(ws)).toBe(body.text.length);
    // The same key on another endpoint is another request too.
    const r3 = await tts(a.apiKey, body, { "idempotency-key": "replay-key-42" }, `/v1/text-to-speech/${AVERY}/stream?output_format=pcm_16000`);
    expect(r3.status).toBe(409);
  });

  it("never uses the client's x-request-id as a charge key: each request is charged", async () => {
    const a = await createTestAccount(stack, "creator");
    const ws = a.workspace.workspace_id;
    const texts = [words(20, "eps"), words(20, "zeta"), words(20, "eta")];
    for (const text of texts) {
      const r = await tts(a.apiKey, { text }, { "x-request-id": "same-client-trace-id" });
      expect(r.status).toBe(200);
      expect(r.headers.get("x-request-id")).toBe("same-client-trace-id");
      await r.arrayBuffer();
    }
    expect(await used(ws)).toBe(texts.reduce((n, t) => n + t.length, 0));
  });
});

describe("characters are code points", () => {
  it("charges an emoji as one character", async () => {
    const a = await createTestAccount(stack, "creator");
    const text = "Thumbs up " + "👍".repeat(20) + " done.";
    const r = await tts(a.apiKey, { text });
    expect(r.status).toBe(200);
    await r.arrayBuffer();
    expect(r.headers.get("character-cost")).toBe(String([...text].length));
    expect(await used(a.workspace.workspace_id)).toBe([...text].length);
  });

  it("measures the model's length limit and the quota in code points", async () => {
    const a = await createTestAccount(stack, "free");
    await changeLimit(stack.ctx, a.workspace.workspace_id, 4_000);
    // 5,000 emoji are 10,000 UTF-16 units but 5,000 characters: within eleven_v3's 5,000, over a 4,000 quota.
    const r = await tts(a.apiKey, { text: "😀".repeat(5_000), model_id: "eleven_v3" });
    expect(r.status).toBe(401);
    const body = (await r.json()) as { detail: { status: string; message: string } };
    expect(body.detail.status).toBe("quota_exceeded");
    expect(body.detail.message).toContain("5000 credits are required");
    const over = await tts(a.apiKey, { text: "😀".repeat(5_001), model_id: "eleven_v3" });
    expect(over.status).toBe(400);
    expect(((await over.json()) as { detail: { message: string } }).detail.message).toContain("5001 characters");
  });

  it("gives an emoji one timestamp entry, and times that never run backwards", async () => {
    const a = await createTestAccount(stack, "creator");
    const text = "Emoji 👍 ok. Then more words here.";
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 });
    const whole = await c.textToSpeech.convertWithTimestamps(AVERY, { text });
    const streamed: string[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    for await (const chunk of await c.textToSpeech.streamWithTimestamps(AVERY, { text })) {
      streamed.push(...(chunk.alignment?.characters ?? []));
      starts.push(...(chunk.alignment?.characterStartTimesSeconds ?? []));
      ends.push(...(chunk.alignment?.characterEndTimesSeconds ?? []));
    }
    for (const [chars, s, e] of [
      [whole.alignment!.characters, whole.alignment!.characterStartTimesSeconds, whole.alignment!.characterEndTimesSeconds],
      [streamed, starts, ends],
    ] as const) {
      expect(chars.join("")).toBe(text);
      expect(chars).toContain("👍");
      expect(chars).toHaveLength([...text].length);
      for (let i = 0; i < chars.length; i++) {
        expect(e[i], `end >= start at ${i} (${chars[i]})`).toBeGreaterThanOrEqual(s[i]);
        if (i) expect(s[i], `start at ${i}`).toBeGreaterThanOrEqual(s[i - 1]);
        if (i) expect(e[i], `end at ${i}`).toBeGreaterThanOrEqual(e[i - 1]);
      }
    }
    const spoken = whole.normalizedAlignment!;
    for (let i = 1; i < spoken.characters.length; i++) expect(spoken.characterEndTimesSeconds[i]).toBeGreaterThanOrEqual(spoken.characterStartTimesSeconds[i]);
  });
});

describe("pronunciation rules cannot inflate the text for free", () => {
  it("refuses text that aliases would make longer than twice the model's limit, and charges nothing", async () => {
    const a = await createTestAccount(stack, "pro");
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 });
    const dict = await c.pronunciationDictionaries.createFromRules({
      name: "Inflate",
      rules: [{ type: "alias", stringToReplace: "zq", alias: "a very long alias ".repeat(5).trim() }],
    });
    const text = Array.from({ length: 2_000 }, () => "zq").join(" "); // 5,999 characters, ~180,000 once expanded
    const r = await tts(a.apiKey, { text, pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: dict.id, version_id: dict.versionId }] });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { detail: { status: string; message: string } };
    expect(body.detail.status).toBe("expanded_text_too_long");
    expect(body.detail.message).toContain("20000");
    expect(await used(a.workspace.workspace_id)).toBe(0);
  });
});

describe("a client that leaves mid-stream", () => {
  it("pays for what was synthesised, gets the rest back, and keeps the partial item", async () => {
    const a = await createTestAccount(stack, "creator");
    const ws = a.workspace.workspace_id;
    const text = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} has a few more words in it.`).join(" ");
    const controller = new AbortController();
    const r = await tts(a.apiKey, { text }, {}, `/v1/text-to-speech/${AVERY}/stream?output_format=mp3_22050_32`);
    expect(r.status).toBe(200);
    const historyItemId = r.headers.get("history-item-id")!;
    const reader = r.body!.getReader();
    let received = 0;
    while (received < 2_000) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value.byteLength;
    }
    await reader.cancel();
    controller.abort();
    // The server notices, stops and settles: wait for the item.
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 });
    let item: Awaited<ReturnType<typeof c.history.get>> | undefined;
    for (let i = 0; i < 100 && !item; i++) {
      item = await c.history.get(historyItemId).catch(() => undefined);
      if (!item) await new Promise((res) => setTimeout(res, 100));
    }
    expect(item).toBeDefined();
    const charged = await used(ws);
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThan(text.length);
    expect(item!.characterCountChangeTo! - item!.characterCountChangeFrom!).toBe(charged);
    const audio = (await readAll(await c.history.getAudio(historyItemId))).bytes;
    expect(audio.byteLength).toBeGreaterThanOrEqual(received / 2);
  });
});
