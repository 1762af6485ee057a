import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unzipSync } from "fflate";
import { ElevenLabsClient, type ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount } from "../support/stack.js";
import { probe, readAll, hasFfmpeg } from "../support/audio.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

let stack: EmbeddedStack;
let client: ElevenLabsClient;
let other: ElevenLabsClient;
let apiKeyA: string;
const AVERY = premadeVoiceId("Avery");
const MARCUS = premadeVoiceId("Marcus");
const LENA = premadeVoiceId("Lena");

beforeAll(async () => {
  stack = await startTestStack();
  const a = await createTestAccount(stack, "pro");
  const b = await createTestAccount(stack, "pro");
  client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 });
  apiKeyA = a.apiKey;
  other = new ElevenLabsClient({ baseUrl: stack.url, apiKey: b.apiKey, maxRetries: 0 });
});
afterAll(async () => stack?.close());

const inputs = [
  { text: "Good morning! Did you sleep well?", voiceId: AVERY },
  { text: "", voiceId: LENA },
  { text: "Not really. The neighbours had a party.", voiceId: MARCUS },
];

describe("text to dialogue", () => {
  it("speaks each line in its voice, in one file that decodes, skipping empty lines", async () => {
    const res = await client.textToDialogue.convert({ inputs, outputFormat: "wav_22050" }).withRawResponse();
    const { bytes } = await readAll(res.data);
    expect(res.rawResponse.headers.get("character-cost")).toBe(String(inputs[0].text.length + inputs[2].text.length));
    if (hasFfmpeg) {
      const p = await probe(bytes);
      expect(p.codec).toBe("pcm_s16le");
      expect(p.duration).toBeGreaterThan(3);
    }
  });

  it("gives voice segments that cover each line in order", async () => {
    const r = await client.textToDialogue.convertWithTimestamps({ inputs: [inputs[0], inputs[2]] });
    const joined = inputs[0].text + inputs[2].text;
    expect(r.alignment!.characters.join("")).toBe(joined);
    expect(r.voiceSegments.map((s) => s.voiceId)).toEqual([AVERY, MARCUS]);
    const [s0, s1] = r.voiceSegments;
    expect(s0.characterStartIndex).toBe(0);
    expect(s0.characterEndIndex).toBe(inputs[0].text.length);
    expect(s1.characterStartIndex).toBe(inputs[0].text.length);
    expect(s1.startTimeSeconds).toBeGreaterThanOrEqual(s0.endTimeSeconds - 0.05);
    expect(s1.endTimeSeconds).toBeGreaterThan(s1.startTimeSeconds);
  });

  it("streams dialogue audio and NDJSON", async () => {
    const { bytes } = await readAll(await client.textToDialogue.stream({ inputs: [inputs[0], inputs[2]], outputFormat: "opus_48000_32" }));
    if (hasFfmpeg) expect((await probe(bytes)).codec).toBe("opus");
    const lines = [];
    for await (const l of await client.textToDialogue.streamWithTimestamps({ inputs: [inputs[0], inputs[2]] })) lines.push(l);
    expect(lines.at(-1)!.voiceSegments).toHaveLength(2);
    expect(lines.flatMap((l) => l.alignment?.characters ?? []).join("")).toBe(inputs[0].text + inputs[2].text);
  });

  it("rejects a dialogue with only empty lines", async () => {
    const e = (await client.textToDialogue.convert({ inputs: [{ text: " ", voiceId: AVERY }] }).catch((x: unknown) => x)) as ElevenLabsError;
    expect(e.statusCode).toBe(422);
  });
});

describe("dialogue preference and enhancement", () => {
  it("keeps a repeated choice, clears it when the other one is chosen", async () => {
    const gen = async () => {
      const r = await client.textToDialogue.convert({ inputs: [inputs[0]], seed: Math.floor(Math.random() * 1e6) }).withRawResponse();
      await readAll(r.data);
      return r.rawResponse.headers.get("request-id")!;
    };
    const [a, b] = [await gen(), await gen()];
    const choose = async (preference: "a" | "b", ids = [a, b]) =>
      fetch(`${stack.url}/v1/dialogue-preference`, {
        method: "POST",
        headers: { "xi-api-key": apiKeyA, "content-type": "application/json" },
        body: JSON.stringify({ request_a_id: ids[0], request_b_id: ids[1], preference }),
      });
    expect(await (await choose("a")).json()).toEqual({ status: "ok", preference: "a" });
    expect(await (await choose("a")).json()).toEqual({ status: "ok", preference: "a" });
    expect(await (await choose("b")).json()).toEqual({ status: "ok", preference: null });
    expect((await choose("a", [a, "someone-elses-request"])).status).toBe(404);
  });

  it("enhances dialogue blocks with audio tags, up to a daily limit", async () => {
    const post = () =>
      fetch(`${stack.url}/v1/text-to-dialogue/enhance`, {
        method: "POST",
        headers: { "xi-api-key": apiKeyA, "content-type": "application/json" },
        body: JSON.stringify({ dialogue_blocks: [{ text: "we did it!", voice_id: AVERY }] }),
      });
    const ok = await post();
    expect(await ok.json()).toEqual({ enhanced_blocks: [{ text: "[excited] We did it!", voice_id: AVERY }] });
  });
});

describe("history", () => {
  it("records generations, newest first, and replays their audio", async () => {
    await readAll(await client.textToSpeech.convert(AVERY, { text: "History one.", seed: 7 }));
    await readAll(await client.textToSpeech.convert(MARCUS, { text: "History two.", seed: 8 }));
    const list = await client.history.list({ pageSize: 100 });
    const texts = list.history.map((h) => h.text);
    expect(texts.indexOf("History two.")).toBeLessThan(texts.indexOf("History one."));
    const two = list.history.find((h) => h.text === "History two.")!;
    expect(two.voiceId).toBe(MARCUS);
    expect(two.voiceName).toBe("Marcus");
    expect(two.characterCountChangeTo - two.characterCountChangeFrom).toBe("History two.".length);
    const item = await client.history.get(two.historyItemId);
    expect(item.alignments?.alignment.characters.join("")).toBe("History two.");
    const audio = await readAll(await client.history.getAudio(two.historyItemId));
    expect(audio.bytes.byteLength).toBeGreaterThan(500);
  });

  it("pages with start_after_history_item_id and filters by voice and text", async () => {
    const first = await client.history.list({ pageSize: 1 });
    expect(first.history).toHaveLength(1);
    expect(first.hasMore).toBe(true);
    const next = await client.history.list({ pageSize: 1, startAfterHistoryItemId: first.lastHistoryItemId! });
    expect(next.history[0].historyItemId).not.toBe(first.history[0].historyItemId);
    const byVoice = await client.history.list({ voiceId: MARCUS });
    expect(byVoice.history.every((h) => h.voiceId === MARCUS || h.dialogue?.some((d) => d.voiceId === MARCUS))).toBe(true);
    const bySearch = await client.history.list({ search: "history ONE" });
    expect(bySearch.history.map((h) => h.text)).toEqual(["History one."]);
  });

  it("downloads one item as audio and several as a zip", async () => {
    const items = (await client.history.list({ pageSize: 2 })).history;
    const one = await readAll(await client.history.download({ historyItemIds: [items[0].historyItemId] }));
    expect(one.bytes[0]).not.toBe(0x50); // not a zip ("PK")
    const zip = await readAll(await client.history.download({ historyItemIds: items.map((h) => h.historyItemId) }));
    const files = unzipSync(zip.bytes);
    expect(Object.keys(files)).toHaveLength(2);
  });

  it("deletes an item, and hides items from other workspaces", async () => {
    const [h] = (await client.history.list({ pageSize: 1 })).history;
    const foreign = (await other.history.get(h.historyItemId).catch((e: unknown) => e)) as ElevenLabsError;
    expect(foreign.statusCode).toBe(404);
    const foreignDelete = (await other.history.delete(h.historyItemId).catch((e: unknown) => e)) as ElevenLabsError;
    expect(foreignDelete.statusCode).toBe(404);
    expect((await other.history.list()).history).toHaveLength(0);
    expect((await client.history.delete(h.historyItemId)).status).toBe("ok");
    const gone = (await client.history.get(h.historyItemId).catch((e: unknown) => e)) as ElevenLabsError;
    expect(gone.statusCode).toBe(404);
  });
});
