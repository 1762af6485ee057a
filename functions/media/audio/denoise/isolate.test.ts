import { afterAll, describe, expect, it } from "vitest";
import { EspeakEngine } from "../../engine/espeak/engine.js";
import { PASSAGES } from "../../voice-analysis/fixtures/texts.js";
import { premadeVoices, speak } from "../../voice-analysis/fixtures/voices.js";
import { isolateAt, measureIsolation, noise } from "./measure.js";
import { loadFastRnnoise } from "./rnnoise-fast.js";

/**
 * The voice isolator's quality on a held-out sample (a voice and a passage the isolator's
 * constants were not chosen on: Riley reading the third held-out English passage), mixed with
 * white and pink noise at 5 dB SNR, measured as measure.ts says and as
 * `scripts/sts-evaluate.ts --isolation` reports for 16 held-out clips (functions/media/engine/README.md).
 *
 * Issue 12 asks for an output SNR at least 10 dB better than the input's. Measured by phase
 * inversion (the speech and the noise that come out, separately) this sample meets it; measured
 * sample for sample against the clean speech it does not (about +7 on white, +9 on pink: the
 * speech the filter takes out counts as noise there), and those figures are guarded too, with the
 * distortion of the speech.
 */
const engine = new EspeakEngine({ size: 1 });
afterAll(() => engine.close());

describe("voice isolator quality (held-out speech in 5 dB noise)", () => {
  it("gains at least 10 dB of output SNR on white and pink noise, keeping the speech", async () => {
    const riley = premadeVoices().find((v) => v.name === "Riley")!;
    const clean = await speak(engine, riley.profile, PASSAGES.en.heldOut[2]);
    const rn = await loadFastRnnoise();
    // The same seeds as the evaluation script's clip (9 + its index).
    const white = measureIsolation(clean, noise("white", clean.length, 11), 5, 22_050, rn);
    const pink = measureIsolation(clean, noise("pink", clean.length, 11), 5, 22_050, rn);
    for (const f of [white, pink]) {
      expect(f.inputSnr).toBeCloseTo(5, 1);
      expect(f.outputSnrGain).toBeGreaterThanOrEqual(10);
      // Lined up and at the right level: the scale-invariant figure is no better than the plain one.
      expect(f.scaleInvariantGain).toBeLessThanOrEqual(f.sampleGain + 0.1);
    }
    expect(white.sampleGain).toBeGreaterThan(6.5);
    expect(pink.sampleGain).toBeGreaterThan(8.5);
    expect(white.speechComponentSnr).toBeGreaterThan(13);
    expect(pink.speechComponentSnr).toBeGreaterThan(17);
  }, 60_000);

  it("keeps the input's length and returns silence for silence", async () => {
    const rn = await loadFastRnnoise();
    const silence = isolateAt(new Float32Array(22_050), 22_050, rn);
    expect(silence.length).toBe(22_050);
    expect(Math.max(...silence.map(Math.abs))).toBeLessThan(1e-3);
  });
});
