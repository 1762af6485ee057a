import { describe, expect, it } from "vitest";
import { applyGainDb } from "./gain.js";

const rms = (p: Int16Array) => Math.sqrt(p.reduce((s, x) => s + x * x, 0) / p.length);
const sine = (amp: number) => Int16Array.from({ length: 2205 }, (_, i) => Math.round(amp * Math.sin((2 * Math.PI * 440 * i) / 22050)));

describe("applyGainDb", () => {
  it("scales by the decibels asked: -6 dB is half the amplitude, 0 or absent leaves the PCM", () => {
    const s = sine(8000);
    expect(rms(applyGainDb(s, -6)) / rms(s)).toBeCloseTo(0.501, 2);
    expect(applyGainDb(s, 0)).toBe(s);
    expect(applyGainDb(s, undefined)).toBe(s);
  });
  it("bounds the gain to -30..+5 dB and never clips a boost", () => {
    const quiet = sine(1000);
    expect(rms(applyGainDb(quiet, 20)) / rms(quiet)).toBeCloseTo(10 ** (5 / 20), 2);
    expect(rms(applyGainDb(quiet, -60)) / rms(quiet)).toBeCloseTo(10 ** (-30 / 20), 2);
    const loud = sine(30000);
    const boosted = applyGainDb(loud, 5);
    const peak = Math.max(...Array.from(boosted, Math.abs));
    expect(peak).toBeLessThanOrEqual(32767);
    expect(peak).toBeGreaterThan(32000);
    // The shape is kept: scaled, not flattened at full scale.
    const loudPeak = Math.max(...Array.from(loud, Math.abs));
    expect(rms(boosted) / rms(loud)).toBeCloseTo(32767 / loudPeak, 3);
  });
});
