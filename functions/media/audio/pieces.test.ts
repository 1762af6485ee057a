import { describe, expect, it } from "vitest";
import { prng, signed } from "../engine/prng.js";
import { joinPieces } from "./pieces.js";

/** The crossfade as first written: every sample of every piece weighted, then normalised. */
function reference(length: number, overlap: number, parts: { from: number; y: Float32Array }[]): Float32Array {
  const out = new Float32Array(length);
  const weight = new Float32Array(length);
  for (const { from, y } of parts) {
    for (let i = 0; i < y.length; i++) {
      const edge = Math.min(i, y.length - 1 - i);
      const w = from === 0 && i < overlap ? 1 : from + y.length === length && y.length - 1 - i < overlap ? 1 : Math.min(1, (edge + 1) / (overlap + 1));
      out[from + i] += w * y[i];
      weight[from + i] += w;
    }
  }
  for (let i = 0; i < length; i++) if (weight[i] > 0) out[i] /= weight[i];
  return out;
}

describe("joining denoised pieces", () => {
  it.each([100_000, 128_000 + 10, 128_000 + 4_000, 129_000, 3 * 128_000 - 1, 20 * 128_000 + 3_999])("gives the sample-by-sample crossfade's bits for %i samples", (length) => {
    const piece = 128_000;
    const overlap = 4_000;
    const rand = prng(length);
    const starts: number[] = [];
    for (let s = 0; s < length; s += piece) starts.push(s);
    // Each piece its own noise, so any sample taken from the wrong piece or weight shows.
    const parts = starts.map((s) => {
      const from = Math.max(0, s - overlap);
      const to = Math.min(length, s + piece + overlap);
      return { from, y: Float32Array.from({ length: to - from }, () => signed(rand)) };
    });
    const got = joinPieces(length, starts, overlap, parts);
    const want = reference(length, overlap, parts);
    expect(Buffer.from(got.buffer).equals(Buffer.from(want.buffer))).toBe(true);
  });
});
