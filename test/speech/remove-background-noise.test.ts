import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, apiFetch } from "../support/stack.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/**
 * Issue 28 §4: voice_settings.remove_background_noise runs the voice isolator over the generated
 * audio. The voice is mixed with noise by the engine's own breathiness (an eSpeak voice's breath
 * noise on its formants): with the setting the quiet stretches (between and inside words) are quieter.
 */
vi.setConfig({ testTimeout: 240_000 });

let stack: EmbeddedStack;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
const AVERY = premadeVoiceId("Avery");
const TEXT = "Breath and noise sit under this voice. Does the isolator take them away, and leave the words?";

beforeAll(async () => {
  stack = await startTestStack();
  acct = await createTestAccount(stack, "pro");
}, 180_000);
afterAll(async () => stack?.close());

const post = (path: string, body: unknown) =>
  apiFetch(stack, acct.apiKey, path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function pcm(path: string, body: unknown): Promise<Int16Array> {
  const res = await post(path, body);
  expect(res.status, await res.clone().text().catch(() => "")).toBe(200);
  const b = Buffer.from(await res.arrayBuffer());
  return new Int16Array(b.buffer, b.byteOffset, Math.floor(b.length / 2));
}

/** Frame energies (20 ms at 24 kHz), in dB full scale. */
function frameDb(p: Int16Array, n = 480): number[] {
  const out: number[] = [];
  for (let i = 0; i + n <= p.length; i += n) {
    let e = 0;
    for (let j = i; j < i + n; j++) e += (p[j] / 32768) ** 2;
    out.push(10 * Math.log10(e / n + 1e-12));
  }
  return out;
}
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)];

describe("voice_settings.remove_background_noise", () => {
  it("quiets the quiet stretches and keeps the words (stream, pcm); off is the audio as before", async () => {
    const path = `/v1/text-to-speech/${AVERY}/stream?output_format=pcm_24000`;
    const at = (voice_settings: object) => pcm(path, { text: TEXT, seed: 5, voice_settings });
    const plain = await at({});
    const off = await at({ remove_background_noise: false });
    const on = await at({ remove_background_noise: true });
    expect(Buffer.from(off.buffer).equals(Buffer.from(plain.buffer))).toBe(true);
    expect(on.length).toBe(off.length);
    const a = frameDb(off);
    const b = frameDb(on);
    // Measured (seed 5): the quietest tenth of the frames -58 dB without, -72 dB with; the median unchanged (-17.9 dB).
    expect(quantile(b, 0.1)).toBeLessThan(quantile(a, 0.1) - 6);
    expect(Math.abs(quantile(b, 0.5) - quantile(a, 0.5))).toBeLessThan(1.5);
  });

  it("the page's request (mp3 stream) and convert answer audio; the history keeps the isolated audio", async () => {
    const res = await post(`/v1/text-to-speech/${AVERY}/stream?output_format=mp3_44100_128`, { text: "Short and clean.", voice_settings: { remove_background_noise: true } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    const id = res.headers.get("history-item-id");
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const item = await apiFetch(stack, acct.apiKey, `/v1/history/${id}`);
    expect(item.status).toBe(200);
    expect((await item.json()).settings.remove_background_noise).toBe(true);
    const wav = await post(`/v1/text-to-speech/${AVERY}?output_format=wav_16000`, { text: "Short and clean.", voice_settings: { remove_background_noise: true } });
    expect(wav.status).toBe(200);
    expect(Buffer.from(await wav.arrayBuffer()).subarray(0, 4).toString()).toBe("RIFF");
  });

  it("with-timestamps: the isolated audio with an alignment that spells the text and fits the audio", async () => {
    const res = await post(`/v1/text-to-speech/${AVERY}/with-timestamps?output_format=pcm_24000`, { text: TEXT, seed: 5, voice_settings: { remove_background_noise: true } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { audio_base64: string; alignment: { characters: string[]; character_end_times_seconds: number[] } };
    const audio = Buffer.from(body.audio_base64, "base64");
    expect(body.alignment.characters.join("")).toBe(TEXT);
    const end = body.alignment.character_end_times_seconds.at(-1)!;
    expect(end).toBeGreaterThan(2);
    expect(end).toBeLessThanOrEqual(audio.length / 2 / 24000 + 0.001);
  });

  it("is per request: saving it as a voice's setting does not keep it", async () => {
    const edit = await post(`/v1/voices/${AVERY}/settings/edit`, { stability: 0.4, remove_background_noise: true });
    expect(edit.status).toBe(200);
    const got = await (await apiFetch(stack, acct.apiKey, `/v1/voices/${AVERY}/settings`)).json();
    expect(got.stability).toBe(0.4);
    expect(got.remove_background_noise).toBeUndefined();
  });
});
