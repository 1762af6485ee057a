import { describe, expect, it } from "vitest";
import { fitSpeakerSpace, project, spaceSimilarity, symmetricEigen } from "./speaker-space.js";
import { SPEAKER_SPACE } from "./speaker-space-data.js";
import { EMBEDDING_DIM, EMBEDDING_VERSION } from "../../media/voice-analysis/embedding.js";
import { hashSeed, prng } from "../../media/engine/prng.js";

describe("symmetricEigen", () => {
  it("finds the eigenpairs of a symmetric matrix (A v = lambda v, orthonormal, largest first)", () => {
    const A = [
      [4, 1, 0.5],
      [1, 3, 0.2],
      [0.5, 0.2, 1],
    ];
    const { values, vectors } = symmetricEigen(A);
    expect(values[0]).toBeGreaterThan(values[1]);
    expect(values[1]).toBeGreaterThan(values[2]);
    expect(values.reduce((a, b) => a + b, 0)).toBeCloseTo(8, 10);
    for (let k = 0; k < 3; k++) {
      const v = vectors.map((r) => r[k]);
      for (let i = 0; i < 3; i++) expect(A[i].reduce((s, a, j) => s + a * v[j], 0)).toBeCloseTo(values[k] * v[i], 9);
      for (let m = 0; m < 3; m++) expect(v.reduce((s, x, i) => s + x * vectors[i][m], 0)).toBeCloseTo(k === m ? 1 : 0, 9);
    }
  });
});

describe("the speaker space", () => {
  // Speakers differ along dimension 0; a "channel" moves every recording a lot along dimension 1.
  const rand = prng(hashSeed("speaker-space-test", 1));
  const g = () => (rand() + rand() + rand() - 1.5) * 2;
  const speakers = Array.from({ length: 8 }, (_, s) => Array.from({ length: 6 }, () => [s - 3.5 + 0.1 * g(), 5 * g(), 0.1 * g(), 0.1 * g()]));

  it("keeps the direction that tells speakers apart and discounts the channel", () => {
    const space = fitSpeakerSpace(speakers, { reg: 0.01, dims: 1, version: 1 });
    expect(space.projection).toHaveLength(1);
    const row = space.projection[0];
    expect(Math.abs(row[0])).toBeGreaterThan(20 * Math.abs(row[1]));
    // Same speaker through very different channels: alike; neighbouring speakers through one channel: not.
    expect(spaceSimilarity(space, [3, -8, 0, 0], [3, 8, 0, 0])).toBeGreaterThan(0.99);
    expect(spaceSimilarity(space, [2.5, 0, 0, 0], [-2.5, 0, 0, 0])).toBeLessThan(-0.99);
    // The raw cosine says the opposite for the first pair.
    const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0) / Math.hypot(...a) / Math.hypot(...b);
    expect(cos([3, -8, 0, 0], [3, 8, 0, 0])).toBeLessThan(0);
  });

  it("scales the kept directions to unit within-speaker variance and bounds dims by speakers - 1", () => {
    const space = fitSpeakerSpace(speakers, { reg: 0, dims: 50, version: 1 });
    expect(space.projection).toHaveLength(4);
    const p = speakers.map((s) => s.map((e) => project(space, e)[0]));
    let within = 0, n = 0;
    for (const s of p) {
      const m = s.reduce((a, b) => a + b, 0) / s.length;
      for (const x of s) (within += (x - m) ** 2), n++;
    }
    expect(within / n).toBeCloseTo(1, 6);
  });

  it("refuses too little data", () => {
    expect(() => fitSpeakerSpace([[[1, 2]], [[3, 4]]], { reg: 0.1, dims: 1, version: 1 })).toThrow(/two speakers/);
  });

  it("the workflow's fitted space belongs to the current embedding", () => {
    expect(SPEAKER_SPACE.version).toBe(EMBEDDING_VERSION);
    expect(SPEAKER_SPACE.mean).toHaveLength(EMBEDDING_DIM);
    for (const row of SPEAKER_SPACE.projection) expect(row).toHaveLength(EMBEDDING_DIM);
  });
});
