import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import { unzipSync } from "fflate";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { createTestAccount, startTestStack } from "../support/stack.js";
import { hasFfmpeg, probe, readAll } from "../support/audio.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { decodeWav } from "../../functions/media/audio/wav.js";

/**
 * history.download with the two output formats the SDK documents: "default" (as generated) and
 * "wav" (converted, whatever the item was generated as).
 */
let stack: EmbeddedStack;
let client: ElevenLabsClient;
const AVERY = premadeVoiceId("Avery");

beforeAll(async () => {
  stack = await startTestStack();
  const acct = await createTestAccount(stack, "pro");
  client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
});
afterAll(async () => stack?.close());

async function generate(outputFormat: "mp3_44100_128" | "opus_48000_64" | "ulaw_8000" | "pcm_16000", text: string) {
  const res = await client.textToSpeech.convert(AVERY, { text, outputFormat, seed: 5 }).withRawResponse();
  const { bytes } = await readAll(res.data);
  return { id: res.rawResponse.headers.get("history-item-id")!, bytes };
}

describe("history items know their length (issue 28: the list showed 0:00 / 0:00 until played)", () => {
  it("gives each item the duration of its audio, for every codec", async () => {
    for (const format of ["mp3_44100_128", "pcm_16000"] as const) {
      const item = await generate(format, "An item whose length the list shows before it is played.");
      const got = (await client.history.get(item.id)) as unknown as { duration_secs: number | null };
      const seconds = format === "pcm_16000" ? item.bytes.length / 2 / 16000 : hasFfmpeg ? (await probe(item.bytes)).duration : null;
      expect(got.duration_secs, format).toBeGreaterThan(1);
      if (seconds !== null) expect(Math.abs(got.duration_secs! - seconds), format).toBeLessThan(0.06);
    }
  });
});

describe("history download formats", () => {
  it("converts items of every codec to WAV of the same length, alone and in a zip", async () => {
    const items = await Promise.all([
      generate("mp3_44100_128", "An item stored as MP3."),
      generate("opus_48000_64", "An item stored as Ogg Opus."),
      generate("ulaw_8000", "An item stored as mu-law."),
      generate("pcm_16000", "An item stored as raw PCM."),
    ]);
    const pcm16 = items[3];
    for (const item of items) {
      const wav = (await readAll(await client.history.download({ historyItemIds: [item.id], outputFormat: "wav" }))).bytes;
      expect(Buffer.from(wav.subarray(0, 4)).toString()).toBe("RIFF");
      const decoded = decodeWav(wav);
      const seconds = decoded.pcm.length / decoded.sampleRate;
      expect(seconds).toBeGreaterThan(1);
      if (hasFfmpeg && item !== pcm16) expect(seconds).toBeCloseTo((await probe(item.bytes, item === items[2] ? ["-f", "mulaw", "-ar", "8000"] : [])).duration, 0);
    }
    // Raw PCM is rewrapped, sample for sample.
    const pcmWav = (await readAll(await client.history.download({ historyItemIds: [pcm16.id], outputFormat: "wav" }))).bytes;
    expect(decodeWav(pcmWav).sampleRate).toBe(16_000);
    expect(Buffer.from(pcmWav.subarray(44)).equals(Buffer.from(pcm16.bytes))).toBe(true);
    const zip = unzipSync((await readAll(await client.history.download({ historyItemIds: items.map((i) => i.id), outputFormat: "wav" }))).bytes);
    const names = Object.keys(zip);
    expect(names).toHaveLength(4);
    for (const n of names) expect(n.endsWith(".wav")).toBe(true);
  });

  it("downloads 'default' as generated", async () => {
    const item = await generate("mp3_44100_128", "Default means as it was made.");
    const got = (await readAll(await client.history.download({ historyItemIds: [item.id], outputFormat: "default" }))).bytes;
    expect(Buffer.from(got).equals(Buffer.from(item.bytes))).toBe(true);
  });
});
