import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { bestCorrelation } from "../../functions/media/audio/decode/testing.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";

/**
 * Whole MP3 answers carry an Info frame with a LAME tag (encoder delay and padding), so a decoder
 * plays exactly the samples of the PCM answer to the same request, at the same places: no 25 ms
 * of priming at the start, no padding at the end (issue 24). ffmpeg is the decoder here.
 */
let stack: EmbeddedStack;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
const dir = mkdtempSync(join(tmpdir(), "timbre-gapless-"));
const AVERY = premadeVoiceId("Avery");
const MARCUS = premadeVoiceId("Marcus");

beforeAll(async () => {
  stack = await startTestStack();
  acct = await createTestAccount(stack, "pro");
});
afterAll(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(path: string, body: unknown): Promise<{ bytes: Buffer; headers: Headers }> {
  const res = await apiFetch(stack, acct.apiKey, path, { method: "POST", body: JSON.stringify(body) });
  expect(res.status, await res.clone().text().catch(() => "")).toBe(200);
  return { bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

let files = 0;
function decodeMp3(bytes: Uint8Array, rate: number): Int16Array {
  const file = join(dir, `${files++}.mp3`);
  writeFileSync(file, bytes);
  const pcm = execFileSync("ffmpeg", ["-v", "error", "-xerror", "-i", file, "-f", "s16le", "-ac", "1", "-ar", String(rate), "-"], { maxBuffer: 64 << 20 });
  return new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
}

const pcmOf = (bytes: Buffer) => new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length >> 1);

/** The lag (samples, within ±maxLag) at which `b` best matches `a` over the first `span` samples of speech. */
const bestLag = (a: Int16Array, b: Int16Array, maxLag: number, span: number) => bestCorrelation(a, b, maxLag, { start: a.findIndex((v) => Math.abs(v) > 1000), span });

const SHORT = "Hello from Timbre, on time.";
const LONG = "Hello from Timbre. This is the second sentence, and it is a little longer. A third one follows it, to make sure there are several chunks.";

describe("whole MP3 answers are as long as the PCM answer and not shifted", () => {
  it.each([
    ["mp3_44100_128", "pcm_44100", 44100, SHORT],
    ["mp3_22050_32", "pcm_22050", 22050, SHORT],
    ["mp3_44100_128", "pcm_44100", 44100, LONG],
  ] as const)("%s against %s: %s", async (mp3Format, pcmFormat, rate, text) => {
    const body = { text, model_id: "eleven_multilingual_v2", seed: 7 };
    const mp3 = await post(`/v1/text-to-speech/${AVERY}?output_format=${mp3Format}`, body);
    const pcm = await post(`/v1/text-to-speech/${AVERY}?output_format=${pcmFormat}`, body);
    const decoded = decodeMp3(mp3.bytes, rate);
    const reference = pcmOf(pcm.bytes);
    expect(reference.length).toBeGreaterThan(rate);
    expect(decoded.length).toBe(reference.length);
    // At most 1 ms apart (it is 1105 samples, 25 ms, without the Info frame). A long text's later
    // sentences follow the MP3's own timeline (segments are whole frames): the first is compared.
    const { lag, r } = bestLag(reference, decoded, 2000, Math.round(0.8 * rate));
    expect(r).toBeGreaterThan(0.8);
    expect(Math.abs(lag)).toBeLessThanOrEqual(rate / 1000);

    // The same request gives the same bytes, and the history keeps the file as it was answered.
    const again = await post(`/v1/text-to-speech/${AVERY}?output_format=${mp3Format}`, body);
    expect(again.bytes.equals(mp3.bytes)).toBe(true);
    const stored = await apiFetch(stack, acct.apiKey, `/v1/history/${mp3.headers.get("history-item-id")}/audio`);
    expect(Buffer.from(await stored.arrayBuffer()).equals(mp3.bytes)).toBe(true);
  });

  it("dialogue and the with-timestamps answer carry the same Info frame", async () => {
    const inputs = [
      { text: "Are you there?", voice_id: AVERY },
      { text: "Yes, right on time.", voice_id: MARCUS },
    ];
    const mp3 = await post(`/v1/text-to-dialogue?output_format=mp3_44100_128`, { inputs, seed: 3 });
    const pcm = await post(`/v1/text-to-dialogue?output_format=pcm_44100`, { inputs, seed: 3 });
    const reference = pcmOf(pcm.bytes);
    const decoded = decodeMp3(mp3.bytes, 44100);
    expect(decoded.length).toBe(reference.length);
    expect(Math.abs(bestLag(reference, decoded, 2000, 30000).lag)).toBeLessThanOrEqual(44);

    const timed = await post(`/v1/text-to-speech/${AVERY}/with-timestamps?output_format=mp3_44100_128`, { text: SHORT, seed: 7 });
    const audio = Buffer.from((JSON.parse(timed.bytes.toString()) as { audio_base64: string }).audio_base64, "base64");
    const plain = await post(`/v1/text-to-speech/${AVERY}?output_format=mp3_44100_128`, { text: SHORT, seed: 7 });
    expect(audio.equals(plain.bytes)).toBe(true);
    expect(decodeMp3(audio, 44100).length).toBe(pcmOf((await post(`/v1/text-to-speech/${AVERY}?output_format=pcm_44100`, { text: SHORT, seed: 7 })).bytes).length);
  });

  it("speech to speech and the voice isolator: the same length as their PCM, not shifted", async () => {
    const speech = pcmOf((await post(`/v1/text-to-speech/${MARCUS}?output_format=pcm_22050`, { text: "Hello from Timbre, in another voice.", seed: 5 })).bytes);
    const wav = encodeWav(speech, 22050);
    const send = async (path: string, format: string) => {
      const form = new FormData();
      form.set("audio", new File([new Uint8Array(wav)], "speech.wav", { type: "audio/wav" }));
      form.set("seed", "11");
      const res = await apiFetch(stack, acct.apiKey, `${path}?output_format=${format}`, { method: "POST", body: form });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    for (const path of [`/v1/speech-to-speech/${AVERY}`, "/v1/audio-isolation"]) {
      const reference = pcmOf(await send(path, "pcm_44100"));
      const decoded = decodeMp3(await send(path, "mp3_44100_128"), 44100);
      expect(reference.length).toBeGreaterThan(44100);
      expect(decoded.length).toBe(reference.length);
      const { lag, r } = bestLag(reference, decoded, 2000, 30000);
      expect(r).toBeGreaterThan(0.8);
      expect(Math.abs(lag)).toBeLessThanOrEqual(44);
    }
  }, 180_000);
});
