import { describe, expect, it } from "vitest";
import { tone } from "../audio/testing.js";
import { analyzeVoice, detectSpeech } from "./analyze.js";
import { integratedLoudness, kWeighting, type Biquad } from "./loudness.js";
import { EmbeddingIndex, similarity, topK } from "./search.js";

/** A buzz with five harmonics falling 6 dB per octave: periodic like a voice, with a known F0. */
function buzz(f0: number, sampleRate: number, seconds: number, amplitude = 0.3): Float32Array {
  const x = new Float32Array(Math.round(sampleRate * seconds));
  for (let h = 1; h <= 5; h++) {
    if (h * f0 >= sampleRate / 2) break;
    for (let i = 0; i < x.length; i++) x[i] += (amplitude / h) * Math.sin((2 * Math.PI * h * f0 * i) / sampleRate + h);
  }
  return x;
}

function seededNoise(n: number, amplitude: number, seed = 1): Float32Array {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return amplitude * ((s / 2 ** 32) * 2 - 1);
  });
}

describe("pitch (YIN)", () => {
  it.each([80, 110, 150, 220, 330, 440])("measures a %i Hz harmonic buzz within 1%", (f0) => {
    const a = analyzeVoice(buzz(f0, 22050, 2), 22050);
    expect(Math.abs(a.f0MedianHz! - f0) / f0).toBeLessThan(0.01);
    expect(a.voicedRatio).toBeGreaterThan(0.9);
    expect(a.f0RangeHz!).toBeLessThan(f0 * 0.02);
  });

  it("measures a pure 200 Hz tone at 48 kHz within 1%", () => {
    const a = analyzeVoice(tone(200, 48000, 2, 0.5), 48000);
    expect(Math.abs(a.f0MedianHz! - 200)).toBeLessThan(2);
  });

  it("finds no pitch in noise", () => {
    const a = analyzeVoice(seededNoise(32000, 0.3), 16000);
    expect(a.voicedRatio).toBeLessThan(0.1);
  });
});

describe("levels", () => {
  it("reads a 997 Hz sine at half scale as -9.0 LUFS (BS.1770: full scale reads -3.01)", () => {
    expect(integratedLoudness(tone(997, 16000, 3, 0.5), 16000)).toBeCloseTo(-9.03, 1);
    const a = analyzeVoice(tone(997, 48000, 3, 0.5), 48000);
    expect(a.loudnessLufs!).toBeGreaterThan(-9.4);
    expect(a.loudnessLufs!).toBeLessThan(-8.7);
    expect(a.rmsDbfs).toBeCloseTo(-9.03, 0);
    expect(a.peakDbfs).toBeCloseTo(-6.02, 1);
  });

  it("gives the same LUFS to the bit as filtering into a new array per stage, through a single-float copy (the previous code, kept here)", () => {
    const stage = (x: ArrayLike<number>, f: Biquad) => {
      const y = new Float64Array(x.length);
      let x1 = 0, x2 = 0, y1 = 0, y2 = 0;
      for (let i = 0; i < x.length; i++) {
        const v = f.b0 * x[i] + f.b1 * x1 + f.b2 * x2 - f.a1 * y1 - f.a2 * y2;
        [x2, x1, y2, y1] = [x1, x[i], y1, v];
        y[i] = v;
      }
      return y;
    };
    const previous = (x: Float32Array, fs: number) => {
      const [shelf, pass] = kWeighting(fs);
      const k = stage(Float32Array.from(stage(x, shelf)), pass);
      const block = Math.round(0.4 * fs);
      const step = Math.round(0.1 * fs);
      const powers: number[] = [];
      for (let s = 0; s + block <= k.length; s += step) {
        let e = 0;
        for (let i = s; i < s + block; i++) e += k[i] * k[i];
        powers.push(e / block);
      }
      const lk = (z: number) => -0.691 + 10 * Math.log10(z);
      const above = powers.filter((z) => z > 0 && lk(z) > -70);
      if (above.length === 0) return null;
      const relative = lk(above.reduce((a, z) => a + z, 0) / above.length) - 10;
      const gated = above.filter((z) => lk(z) > relative);
      return lk(gated.reduce((a, z) => a + z, 0) / gated.length);
    };
    let seed = 5;
    const noise = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32 - 0.5;
    for (const fs of [8000, 16000, 22050, 48000]) {
      for (const seconds of [0.3, 0.4, 1.7, 6]) {
        const x = Float32Array.from({ length: Math.round(seconds * fs) }, (_, i) => 0.5 * Math.sin(i * 0.07) * noise() + 0.01 * noise());
        expect(Object.is(integratedLoudness(x, fs), previous(x, fs)), `${fs} Hz, ${seconds} s`).toBe(true);
      }
    }
    expect(previous(tone(997, 16000, 3, 0.5), 16000)).toBe(integratedLoudness(tone(997, 16000, 3, 0.5), 16000));
  });

  it("gives silence no loudness and no speech", () => {
    const a = analyzeVoice(new Float32Array(16000), 16000);
    expect(a.loudnessLufs).toBeNull();
    expect(a.speechSecs).toBe(0);
    expect(a.embedding.every((v) => v === 0)).toBe(true);
    expect(a.f0MedianHz).toBeNull();
  });

  it("counts clipped samples", () => {
    const clean = buzz(150, 16000, 2, 0.5);
    const clipped = clean.map((v) => Math.max(-1, Math.min(1, v * 4)));
    expect(analyzeVoice(clean, 16000).clippingRatio).toBe(0);
    expect(analyzeVoice(clipped, 16000).clippingRatio).toBeGreaterThan(0.2);
  });
});

describe("voice activity", () => {
  it("finds bursts separated by silence, at their times", () => {
    const sr = 16000;
    const x = new Float32Array(sr * 4);
    x.set(buzz(180, sr, 1), Math.round(0.5 * sr));
    x.set(buzz(120, sr, 0.8), Math.round(2.5 * sr));
    const segments = detectSpeech(x, sr);
    expect(segments).toHaveLength(2);
    // Within a frame plus the 50 ms padding of the true edges.
    const near = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThan(0.1);
    near(segments[0].start, 0.5);
    near(segments[0].end, 1.5);
    near(segments[1].start, 2.5);
    near(segments[1].end, 3.3);
  });

  it("bridges short gaps and ignores clicks", () => {
    const sr = 16000;
    const x = new Float32Array(sr * 3);
    x.set(buzz(150, sr, 0.6), 0.2 * sr);
    x.set(buzz(150, sr, 0.6), 0.9 * sr); // 100 ms gap: one segment
    x.set(buzz(150, sr, 0.03), 2.5 * sr); // 30 ms click: dropped
    const segments = detectSpeech(x, sr);
    expect(segments).toHaveLength(1);
    expect(Math.abs(segments[0].end - 1.5)).toBeLessThan(0.1);
  });
});

describe("similar-voice search", () => {
  const dim = 60;
  const rows = 2000;
  const vectors = Array.from({ length: rows }, (_, r) => Array.from(seededNoise(dim, 1, r + 1)));

  it("cosine: 1 for the same direction, -1 opposite, 0 for a zero vector or mismatched lengths", () => {
    expect(similarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(similarity([1, 2, 3], [-1, -2, -3])).toBeCloseTo(-1, 12);
    expect(similarity([0, 0, 0], [1, 2, 3])).toBe(0);
    expect(similarity([1, 2], [1, 2, 3])).toBe(0);
  });

  it("topK returns exactly the k best of a linear scan, best first, above the threshold", () => {
    const index = new EmbeddingIndex(dim, 16);
    vectors.forEach((v, i) => index.add(`v${i}`, v));
    const query = vectors[42].map((v, i) => v + 0.3 * Math.sin(i));
    const brute = vectors.map((v, i) => ({ id: `v${i}`, score: similarity(query, v) })).sort((a, b) => b.score - a.score);
    const got = index.topK(query, 10);
    expect(got.map((m) => m.id)).toEqual(brute.slice(0, 10).map((m) => m.id));
    got.forEach((m, i) => expect(m.score).toBeCloseTo(brute[i].score, 5));
    expect(got[0].id).toBe("v42");
    const above = index.topK(query, 50, 0.2);
    expect(above.every((m) => m.score >= 0.2)).toBe(true);
    expect(above.length).toBe(brute.filter((m) => m.score >= 0.2).slice(0, 50).length);
  });

  it("topK over a packed array breaks ties by row order and refuses rows of the wrong width", () => {
    const packed = new Float32Array([1, 0, 0, 1, 1, 0, 1, 0]);
    expect(topK([1, 0], packed, 2)).toEqual([
      { index: 0, score: 1 },
      { index: 2, score: 1 },
    ]);
    expect(() => topK([1, 0, 0], packed, 2)).toThrow(RangeError);
    expect(topK([0, 0], packed, 2)).toEqual([]);
  });
});

it("is deterministic: the same samples give identical numbers", () => {
  const x = buzz(140, 22050, 2);
  for (let i = 0; i < x.length; i++) x[i] += 0.01 * Math.sin(i * 0.37);
  expect(JSON.stringify(analyzeVoice(x, 22050))).toBe(JSON.stringify(analyzeVoice(x.slice(), 22050)));
});
