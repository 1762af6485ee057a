import { describe, expect, it } from "vitest";
import type { VoiceAnalysis } from "../../media/voice-analysis/port.js";
import { fliteBases, poolAnalyses, rateCalibration } from "./fit.js";

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

describe("the bases a fit may start from (issue 26)", () => {
  const target = (f0: number, o: { language?: string; gender?: "male" | "female" } = {}) => ({ language: o.language ?? "en", gender: o.gender, seed: 1, analysis: { f0MedianHz: f0, speakingRate: 4 } });

  it("offers flite's recorded speakers whose own F0 is near the target's, at the pitch setting that reaches it", () => {
    const high = fliteBases(target(170)).map((b) => b.engineVoice);
    expect(high).toContain("slt");
    expect(high).not.toContain("kal16"); // 92 Hz is more than 7 semitones below 170 Hz
    const slt = fliteBases(target(168)).find((b) => b.engineVoice === "slt")!;
    expect(slt.pitch).toBeCloseTo(50, 6); // the speaker's own F0 is the middle of the scale
    expect(slt.engine).toBe("flite");
    const low = fliteBases(target(100)).map((b) => b.engineVoice);
    expect(low).toEqual(expect.arrayContaining(["rms", "kal16", "awb"]));
    expect(low).not.toContain("slt");
  });

  it("keeps to the user's gender label and to English, flite's only language", () => {
    expect(fliteBases(target(130, { gender: "female" })).every((b) => b.gender === "female")).toBe(true);
    expect(fliteBases(target(130, { language: "de" }))).toEqual([]);
  });

  it("reads pace on a flite base with that speaker's own passage factor, not eSpeak's", () => {
    const slt = fliteBases(target(168)).find((b) => b.engineVoice === "slt")!;
    const rms = fliteBases(target(103)).find((b) => b.engineVoice === "rms")!;
    expect(rateCalibration("en", slt)).toBeLessThan(rateCalibration("en"));
    expect(rateCalibration("en", rms)).toBeGreaterThan(rateCalibration("en", slt));
  });
});
