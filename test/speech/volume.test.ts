import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, apiFetch } from "../support/stack.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/** Issue 28 §4: voice_settings.volume (dB, -30..+5) changes the output's level in convert, stream and dialogue. */
vi.setConfig({ testTimeout: 180_000 });

let stack: EmbeddedStack;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
const AVERY = premadeVoiceId("Avery");
const LENA = premadeVoiceId("Lena");
const TEXT = "The volume of this sentence is set by the caller.";

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
const rms = (p: Int16Array) => Math.sqrt(p.reduce((s, x) => s + x * x, 0) / p.length);

describe("voice_settings.volume", () => {
  it("convert and stream: -6 dB is half the amplitude of 0 dB with the same seed; +5 is louder and never clips", async () => {
    for (const path of [`/v1/text-to-speech/${AVERY}?output_format=pcm_22050`, `/v1/text-to-speech/${AVERY}/stream?output_format=pcm_22050`]) {
      const at = (volume: number) => pcm(path, { text: TEXT, model_id: "eleven_multilingual_v2", seed: 7, voice_settings: { volume } });
      const zero = await at(0);
      const half = await at(-6);
      expect(half.length).toBe(zero.length);
      expect(rms(half) / rms(zero)).toBeGreaterThan(0.48);
      expect(rms(half) / rms(zero)).toBeLessThan(0.52);
      const loud = await at(5);
      expect(rms(loud)).toBeGreaterThan(rms(zero) * 1.05);
      expect(rms(loud)).toBeLessThanOrEqual(rms(zero) * 10 ** (5 / 20) + 1);
      // Clipping-safe: no more full-scale samples than the unboosted audio had.
      const full = (p: Int16Array) => p.filter((x) => x >= 32767 || x <= -32768).length;
      expect(full(loud)).toBeLessThanOrEqual(full(zero) + 1);
    }
  });

  it("dialogue: settings.volume -6 halves the amplitude (flite and eSpeak voices)", async () => {
    const at = (volume: number) =>
      pcm(`/v1/text-to-dialogue?output_format=pcm_22050`, { inputs: [{ text: TEXT, voice_id: AVERY }, { text: "Und jetzt spricht Lena.", voice_id: LENA }], seed: 3, settings: { volume } });
    const ratio = rms(await at(-6)) / rms(await at(0));
    expect(ratio).toBeGreaterThan(0.48);
    expect(ratio).toBeLessThan(0.52);
  });

  it("refuses a volume outside -30..+5 dB with a 400 before any work", async () => {
    for (const volume of [-31, 5.5]) {
      const res = await post(`/v1/text-to-speech/${AVERY}`, { text: TEXT, voice_settings: { volume } });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain("Volume must be between -30 dB and +5 dB.");
    }
    const d = await post(`/v1/text-to-dialogue`, { inputs: [{ text: TEXT, voice_id: AVERY }], settings: { volume: -31 } });
    expect(d.status).toBe(400);
  });
});
