import { describe, expect, it } from "vitest";
import type { VoiceAnalysis } from "../../media/voice-analysis/port.js";
import { poolAnalyses } from "./fit.js";

const analysis = (o: Partial<VoiceAnalysis>): VoiceAnalysis => ({
  embeddingVersion: 3,
  embedding: [1, 0, 0],
  durationSecs: 10,
  speechSecs: 8,
  segments: [],
  f0MedianHz: 100,
  f0RangeHz: 50,
  f0P10Hz: 80,
  f0P90Hz: 130,
  voicedRatio: 0.6,
  speakingRate: 4,
  loudnessLufs: -20,
  rmsDbfs: -20,
  peakDbfs: -3,
  snrDb: 30,
  clippingRatio: 0,
  ltasDb: [1, -1],
  logSpectrumDb: [2, -2],
  spectralCentroidHz: 1000,
  spectralTiltDbPerOctave: -6,
  formantsHz: [500, 1500, 2500],
  ...o,
});

describe("pooling the analyses of several recordings for the closed-form fit", () => {
  it("of one recording keeps every measure the fit reads", () => {
    const a = analysis({});
    const p = poolAnalyses([{ analysis: a, weight: a.speechSecs }]);
    for (const k of ["f0MedianHz", "f0P10Hz", "f0P90Hz", "speakingRate", "rmsDbfs", "loudnessLufs", "spectralCentroidHz"] as const) expect(p[k], k).toBeCloseTo(a[k] as number, 6);
    p.formantsHz.forEach((f, i) => expect(f).toBeCloseTo(a.formantsHz[i]!, 6));
    p.logSpectrumDb.forEach((v, i) => expect(v).toBeCloseTo(a.logSpectrumDb[i], 6));
    expect(p.embedding).toEqual(a.embedding);
  });

  it("weights by speech: pitch and formants on a log scale, spectra in dB, levels in power, the embedding normalised", () => {
    const low = analysis({ f0MedianHz: 100, formantsHz: [400, null, 2000], logSpectrumDb: [0, 0], rmsDbfs: -30, embedding: [1, 0, 0], speakingRate: 0 });
    const high = analysis({ f0MedianHz: 400, formantsHz: [1600, 1500, 2000], logSpectrumDb: [6, -6], rmsDbfs: -20, embedding: [0, 1, 0], speakingRate: 5 });
    const p = poolAnalyses([
      { analysis: low, weight: 1 },
      { analysis: high, weight: 1 },
    ]);
    expect(p.f0MedianHz).toBeCloseTo(200, 6); // the geometric mean: an octave each side
    expect(p.formantsHz[0]).toBeCloseTo(800, 6);
    expect(p.formantsHz[1]).toBeCloseTo(1500, 6); // only where found
    expect(p.logSpectrumDb).toEqual([3, -3]);
    expect(p.rmsDbfs).toBeCloseTo(10 * Math.log10((10 ** -3 + 10 ** -2) / 2), 6);
    expect(p.speakingRate).toBe(5); // a recording with no measured rate does not pull it to 0
    expect(p.embedding[0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(p.embedding[1]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(p.speechSecs).toBe(16);
    const heavier = poolAnalyses([
      { analysis: low, weight: 3 },
      { analysis: high, weight: 1 },
    ]);
    expect(heavier.f0MedianHz).toBeCloseTo(2 ** ((3 * Math.log2(100) + Math.log2(400)) / 4), 6);
  });

  it("refuses to pool nothing", () => {
    expect(() => poolAnalyses([{ analysis: analysis({}), weight: 0 }])).toThrow(/no recording/);
  });
});
