import { afterAll, describe, expect, it } from "vitest";
import { createVoiceAnalyzer } from "../../voice-analysis/analyzer.js";
import { EspeakEngine } from "../../engine/espeak/engine.js";
import { premadeVoiceRecords } from "../../../platform/domain/premadeVoices.js";
import { DEFAULT_VOICE_SETTINGS } from "../../engine/port.js";
import { prng, signed } from "../../engine/prng.js";
import { snrDb } from "./measure.js";

/**
 * Noise removal on the analysis workers, measured on engine speech mixed with noise at 5 dB SNR
 * (SNR against the clean speech, sample for sample: the output must line up with the input).
 */
const engine = new EspeakEngine({ size: 1 });
const analyzer = createVoiceAnalyzer({ size: 1 });
afterAll(async () => Promise.all([engine.close(), analyzer.close()]));

async function speech(voiceIndex: number): Promise<{ clean: Float32Array; sr: number }> {
  const voice = premadeVoiceRecords()[voiceIndex].profile;
  const parts: Int16Array[] = [];
  let sr = 22_050;
  for await (const c of engine.synthesize({ text: "Noise removal keeps the voice and drops the hiss around it.", voice, settings: DEFAULT_VOICE_SETTINGS, seed: 3, model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false } })) {
    parts.push(c.pcm);
    sr = c.sampleRate;
  }
  const clean = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) for (let i = 0; i < p.length; i++) clean[o++] = p[i] / 32768;
  return { clean, sr };
}

/** Pink-ish noise from the engine's PRNG (a float LCG here once fell into a 419-sample cycle: a buzz, not noise). */
function noise(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  const rand = prng(seed);
  let b0 = 0;
  let b1 = 0;
  for (let i = 0; i < n; i++) {
    const w = signed(rand);
    b0 = 0.99765 * b0 + w * 0.099;
    b1 = 0.963 * b1 + w * 0.2965;
    out[i] = b0 + b1 + w * 0.18; // pinkish
  }
  return out;
}

const snr = snrDb;

describe("denoise", () => {
  it("raises the SNR of speech in 5 dB noise, keeps length and alignment, and is deterministic", async () => {
    const { clean, sr } = await speech(0);
    const n = noise(clean.length, 9);
    let ps = 0;
    let pn = 0;
    for (let i = 0; i < clean.length; i++) {
      ps += clean[i] ** 2;
      pn += n[i] ** 2;
    }
    const g = Math.sqrt(ps / pn / 10 ** 0.5);
    const noisy = clean.map((v, i) => v + g * n[i]);
    expect(snr(clean, noisy)).toBeCloseTo(5, 1);
    const out = await analyzer.denoise(noisy, sr);
    expect(out.length).toBe(noisy.length);
    expect(snr(clean, out)).toBeGreaterThan(snr(clean, noisy) + 4);
    // Between words the noise is gone: the analysis' noise-floor estimate rises far above 5 dB.
    expect((await analyzer.analyzeSamples(out, sr)).snrDb).toBeGreaterThan(30);
    const again = await analyzer.denoise(noisy, sr);
    expect(Buffer.from(again.buffer).equals(Buffer.from(out.buffer))).toBe(true);
    const half = await analyzer.denoise(noisy, sr, { keepOriginal: 0.5 });
    expect(snr(clean, half)).toBeLessThan(snr(clean, out));
  });

  it("returns silence for silence and nothing for nothing", async () => {
    expect((await analyzer.denoise(new Float32Array(0), 16_000)).length).toBe(0);
    const out = await analyzer.denoise(new Float32Array(16_000), 16_000);
    expect(out.length).toBe(16_000);
    expect(Math.max(...out.map(Math.abs))).toBeLessThan(1e-3);
  });
});
