import { describe, expect, it } from "vitest";
import { FEATURE_DIM, WARPS, costsAgainst, dtwCost, sentenceCosts, utteranceFeatures, utteranceFeaturesAt, type Utterance } from "./align.js";
import { hashSeed, prng } from "../engine/prng.js";

/**
 * The banded DTW as it was written before its inner loop was unrolled (2026-12-07): the frame
 * distance as a loop, the whole row reset every row. The product's must give the same cost to the bit.
 */
function referenceDtw(a: Utterance, b: Utterance): number {
  const n = a.frames;
  const m = b.frames;
  if (!n || !m || Math.max(n, m) > 2.5 * Math.min(n, m)) return Infinity;
  const band = Math.ceil(Math.max(Math.abs(n - m), 0.25 * Math.max(n, m))) + 5;
  let prev = new Float64Array(m + 1).fill(Infinity);
  let prevLen = new Uint32Array(m + 1);
  let cur = new Float64Array(m + 1);
  let curLen = new Uint32Array(m + 1);
  prev[0] = 0;
  for (let i = 1; i <= n; i++) {
    cur.fill(Infinity);
    const centre = Math.round((i * m) / n);
    const lo = Math.max(1, centre - band);
    const hi = Math.min(m, centre + band);
    for (let j = lo; j <= hi; j++) {
      let s = 0;
      for (let k = 0; k < FEATURE_DIM; k++) {
        const v = a.features[(i - 1) * FEATURE_DIM + k] - b.features[(j - 1) * FEATURE_DIM + k];
        s += v * v;
      }
      const d = Math.sqrt(s);
      let best = prev[j - 1];
      let len = prevLen[j - 1];
      if (prev[j] < best) {
        best = prev[j];
        len = prevLen[j];
      }
      if (cur[j - 1] < best) {
        best = cur[j - 1];
        len = curLen[j - 1];
      }
      cur[j] = best + d;
      curLen[j] = len + 1;
    }
    [prev, cur] = [cur, prev];
    [prevLen, curLen] = [curLen, prevLen];
  }
  return Number.isFinite(prev[m]) ? prev[m] / prevLen[m] : Infinity;
}

/** Frames of seeded random features: a slow drift plus noise, so nearby frames resemble each other as speech's do. */
function randomUtterance(frames: number, seed: string): Utterance {
  const rand = prng(hashSeed("align-test", seed));
  const features = new Float32Array(frames * FEATURE_DIM);
  for (let f = 0; f < frames; f++)
    for (let k = 0; k < FEATURE_DIM; k++) features[f * FEATURE_DIM + k] = Math.sin(f / (7 + k) + k) + (rand() - 0.5);
  return { frames, features };
}

/** A voiced sound whose pitch and vowel colour glide, in silence: something utteranceFeatures finds speech in. */
function glide(seconds: number, rate: number, from: number, to: number, seed: string): Float32Array {
  const rand = prng(hashSeed("align-test-glide", seed));
  const lead = Math.round(0.3 * rate);
  const x = new Float32Array(Math.round(seconds * rate) + 2 * lead);
  let phase = 0;
  for (let i = 0; i < x.length - 2 * lead; i++) {
    const t = i / (x.length - 2 * lead);
    phase += (2 * Math.PI * (from + (to - from) * t)) / rate;
    x[lead + i] = 0.3 * Math.sin(phase) + 0.15 * Math.sin(3 * phase + 4 * t) + 0.1 * Math.sin(5 * phase) + 0.01 * (rand() - 0.5);
  }
  return x;
}

describe("alignment by dynamic time warping", () => {
  it("gives the reference implementation's cost to the bit, for equal, unequal and too different lengths", () => {
    // 40 against 100 is exactly 2.5 times (aligned), against 101 more (Infinity).
    const lengths = [1, 2, 9, 40, 57, 100, 101, 140];
    let finite = 0;
    for (const n of lengths)
      for (const m of lengths) {
        const a = randomUtterance(n, `a${n}`);
        const b = randomUtterance(m, `b${m}`);
        const want = referenceDtw(a, b);
        if (Number.isFinite(want)) finite++;
        expect(Object.is(dtwCost(a, b), want), `${n}x${m}: ${dtwCost(a, b)} vs ${want}`).toBe(true);
      }
    // A third of the pairs or more are within 2.5 times of each other's length: real costs are compared, not only Infinity.
    expect(finite).toBeGreaterThan(lengths.length ** 2 / 3);
    expect(dtwCost(randomUtterance(0, "e"), randomUtterance(10, "f"))).toBe(Infinity);
  });

  it("gives the reference cost on features of sound, at every warp", () => {
    const rec = glide(1.2, 16000, 110, 180, "rec");
    const reading = glide(1.0, 22050, 120, 170, "reading");
    const u = utteranceFeatures(reading, 22050);
    expect(u.frames).toBeGreaterThan(50);
    for (const w of WARPS) {
      const r = utteranceFeatures(rec, 16000, w);
      expect(r.frames).toBeGreaterThan(50);
      expect(dtwCost(r, u)).toBe(referenceDtw(r, u));
      expect(Number.isFinite(dtwCost(r, u))).toBe(true);
    }
  });

  it("makes the features at several warps from one set of spectra, each as it is on its own", () => {
    const rec = glide(1.2, 16000, 110, 180, "rec");
    const together = utteranceFeaturesAt(rec, 16000, WARPS);
    expect(together).toHaveLength(WARPS.length);
    for (const [i, w] of WARPS.entries()) {
      const alone = utteranceFeaturesAt(rec, 16000, [w])[0];
      expect(alone.frames).toBeGreaterThan(50);
      expect(together[i].frames).toBe(alone.frames);
      expect(together[i].features).toEqual(alone.features);
    }
    // The warps give different features (each warp's filterbank is its own).
    expect(together[0].features).not.toEqual(together[1].features);
    // Silence: no speech at any warp.
    expect(utteranceFeaturesAt(new Float32Array(16000), 16000, WARPS).map((u) => u.frames)).toEqual([0, 0, 0]);
  });

  it("costsAgainst with the candidates' features made once is sentenceCosts", () => {
    const rec = glide(1.2, 16000, 110, 180, "rec");
    const candidates = [glide(1.0, 22050, 120, 170, "c1"), glide(1.1, 22050, 200, 140, "c2"), glide(0.3, 22050, 150, 150, "c3")];
    const costs = sentenceCosts(rec, 16000, candidates, 22050);
    expect(costs).toHaveLength(3);
    expect(costs[2]).toBe(1e9); // too short to align: more than 2.5 times shorter
    expect(costsAgainst(rec, 16000, candidates.map((c) => utteranceFeatures(c, 22050)))).toEqual(costs);
  });
});
