import { describe, expect, it } from "vitest";
import { formatClock, nextRate, peaksFromSamples, resamplePeaks } from "./waveform.js";

describe("waveform peaks", () => {
  it("takes the loudest sample of each slice and scales the loudest slice to 1", () => {
    const samples = new Float32Array([0.1, -0.2, 0.05, 0.5, -0.25, 0.1, 0, 0]);
    expect([...peaksFromSamples(samples, 4)].map((v) => Math.round(v * 1000) / 1000)).toEqual([0.4, 1, 0.5, 0]);
  });

  it("handles silence, empty input and more slices than samples", () => {
    expect([...peaksFromSamples(new Float32Array(6), 3)]).toEqual([0, 0, 0]);
    expect(peaksFromSamples(new Float32Array(0), 5)).toHaveLength(5);
    expect(peaksFromSamples(new Float32Array([0.5, 1]), 4)).toHaveLength(4);
  });

  it("squeezes peaks into fewer bars without losing the loud ones", () => {
    const peaks = new Float32Array([0.1, 0.9, 0.2, 0.3, 1, 0.1]);
    expect([...resamplePeaks(peaks, 3)].map((v) => Math.round(v * 10) / 10)).toEqual([0.9, 0.3, 1]);
    expect(resamplePeaks(peaks, 12)).toHaveLength(12);
  });
});

describe("player controls", () => {
  it("cycles the playback rate 1x, 1.5x, 2x", () => {
    expect(nextRate(1)).toBe(1.5);
    expect(nextRate(1.5)).toBe(2);
    expect(nextRate(2)).toBe(1);
    expect(nextRate(0.75)).toBe(1);
  });

  it("formats times as m:ss", () => {
    expect(formatClock(0)).toBe("0:00");
    expect(formatClock(65.4)).toBe("1:05");
    expect(formatClock(3723)).toBe("1:02:03");
    expect(formatClock(Number.NaN)).toBe("0:00");
  });
});
