import { afterEach, describe, expect, it } from "vitest";
import { setSimdKernels } from "../audio/wasm/kernels.js";
import { prng, signed } from "../engine/prng.js";
import { analyzeVoice } from "./analyze.js";
import { powerSpectrum } from "./dsp.js";

afterEach(() => setSimdKernels(true));

const both = <T>(f: () => T): [T, T] => {
  setSimdKernels(false);
  const js = f();
  setSimdKernels(true);
  return [js, f()];
};

const bits = (x: Float64Array) => Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString("base64");

/** A voiced-ish signal: harmonics on a wandering pitch, noise, pauses. */
function voice(seconds: number, rate: number, seed: number): Float32Array {
  const rand = prng(seed);
  const x = new Float32Array(Math.round(seconds * rate));
  let phase = 0;
  for (let i = 0; i < x.length; i++) {
    const f0 = 110 + 40 * Math.sin(i / rate / 0.7);
    phase += (2 * Math.PI * f0) / rate;
    const gate = Math.floor(i / (rate * 0.4)) % 5 === 4 ? 0 : 1;
    x[i] = gate * (0.3 * Math.sin(phase) + 0.15 * Math.sin(2 * phase) + 0.08 * Math.sin(3 * phase)) + 0.01 * signed(rand);
  }
  return x;
}

describe("analysis kernels in WebAssembly SIMD", () => {
  it("give the JavaScript power spectrum to the bit, for every size and short frames", () => {
    const rand = prng(4);
    for (const n of [4, 8, 64, 512, 1024, 512]) {
      for (const length of [n, n - 3, Math.floor(n / 2), 1]) {
        const frame = Float32Array.from({ length }, () => signed(rand));
        const [a, b] = both(() => powerSpectrum(frame, n));
        expect(b.length).toBe(n / 2 + 1);
        expect(bits(b)).toBe(bits(a));
      }
    }
  });

  it("leave a whole voice analysis unchanged (pitch, spectrum, formants, embedding)", () => {
    const x = voice(6, 22_050, 8);
    const [a, b] = both(() => analyzeVoice(x, 22_050));
    expect(a.f0MedianHz).toBeGreaterThan(80);
    expect(b).toEqual(a);
  });
});
