import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EspeakEngine } from "./espeak/engine.js";
import { applyEnvelope, ENVELOPE_BANDS_HZ, envelopeFir } from "./espeak/dsp.js";
import type { VoiceProfile } from "./port.js";
import { analyzeVoice } from "../voice-analysis/analyze.js";
import { LTAS_BANDS_HZ } from "../voice-analysis/analyze.js";
import { speak } from "../voice-analysis/fixtures/voices.js";

/**
 * The profile fields a clone's fit sets beyond eSpeak's own: a spectral envelope correction, a
 * speech level and roughness. Each changes what the analysis measures, and stays deterministic.
 */
const engine = new EspeakEngine({ size: 2 });
beforeAll(() => engine.warm(), 60_000);
afterAll(() => engine.close());

const TEXT = "The morning train was late again, so everyone waited on the cold platform for a while.";
const BASE: VoiceProfile = { language: "en", gender: "male", age: "middle_aged", pitch: 50, pitchRange: 50, rate: 170, timbre: 0, seed: 1 };

describe("spectral envelope correction", () => {
  it("uses the same bands as the voice analysis' long-term spectrum", () => {
    expect(ENVELOPE_BANDS_HZ).toEqual(LTAS_BANDS_HZ);
  });

  it("designs a filter whose response follows the band gains", () => {
    const gains = [0, 0, 0, 0, 0, 0, 6, 6, 6, 0, 0, 0, -6, -6, -6, -6];
    const h = envelopeFir(gains, 22050);
    const at = (hz: number) => {
      let re = 0, im = 0;
      const mid = (h.length - 1) / 2;
      for (let n = 0; n < h.length; n++) {
        re += h[n] * Math.cos((2 * Math.PI * hz * (n - mid)) / 22050);
        im -= h[n] * Math.sin((2 * Math.PI * hz * (n - mid)) / 22050);
      }
      return 20 * Math.log10(Math.hypot(re, im));
    };
    const centre = (b: number) => Math.sqrt(ENVELOPE_BANDS_HZ[b][0] * ENVELOPE_BANDS_HZ[b][1]);
    expect(at(centre(7))).toBeGreaterThan(4.5);
    expect(at(centre(14))).toBeLessThan(-4.5);
    expect(Math.abs(at(centre(3)))).toBeLessThan(1.5);
  });

  it("filters exactly as the FIR's direct convolution (delay removed), two blocks per FFT, odd and even block counts", () => {
    const gains = [3, 2, 0, -1, -4, 0, 6, 6, 2, 0, -2, 0, -6, -6, 1, 4];
    const h = envelopeFir(gains, 22050);
    const mid = (h.length - 1) / 2;
    let seed = 5;
    // 770 input samples per block: 3 blocks (one pair and one alone) and 4 blocks (two pairs), and a short tail.
    for (const n of [2000, 3000, 100]) {
      const x = Float64Array.from({ length: n }, () => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return seed / 2 ** 32 - 0.5;
      });
      const y = Float64Array.from(x);
      applyEnvelope(y, gains, 22050);
      let worst = 0;
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let k = 0; k < h.length; k++) {
          const j = i + mid - k;
          if (j >= 0 && j < n) s += h[k] * x[j];
        }
        worst = Math.max(worst, Math.abs(s - y[i]));
      }
      expect(worst).toBeLessThan(1e-9);
    }
  });

  it("moves the measured log spectrum by about its gains, deterministically", async () => {
    const envelope = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 6, 6, 6];
    const plain = analyzeVoice(await speak(engine, BASE, TEXT), 22050);
    const a = await speak(engine, { ...BASE, envelope }, TEXT);
    const b = await speak(engine, { ...BASE, envelope }, TEXT);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    const shaped = analyzeVoice(a, 22050);
    // Relative to the mean of all bands: +6 dB on the top 4 bands is +4.5 against the mean.
    const lift = (a: number[], b: number[]) => [12, 13, 14, 15].reduce((s, i) => s + a[i] - b[i], 0) / 4;
    expect(lift(shaped.logSpectrumDb, plain.logSpectrumDb)).toBeGreaterThan(3);
    expect(lift(shaped.logSpectrumDb, plain.logSpectrumDb)).toBeLessThan(6);
  });
});

describe("level and roughness", () => {
  it("brings the speech to the profile's level", async () => {
    const quiet = analyzeVoice(await speak(engine, { ...BASE, levelDb: -30 }, TEXT), 22050);
    const normal = analyzeVoice(await speak(engine, BASE, TEXT), 22050);
    expect(normal.rmsDbfs - quiet.rmsDbfs).toBeGreaterThan(10);
    expect(normal.rmsDbfs - quiet.rmsDbfs).toBeLessThan(14);
  });

  it("roughness makes the voice source less regular", async () => {
    const smooth = analyzeVoice(await speak(engine, BASE, TEXT), 22050);
    const rough = analyzeVoice(await speak(engine, { ...BASE, roughness: 0.6 }, TEXT), 22050);
    expect(rough.voicedRatio).toBeLessThan(smooth.voicedRatio);
  });
});
