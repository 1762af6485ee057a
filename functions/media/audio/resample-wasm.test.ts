import { afterEach, describe, expect, it } from "vitest";
import { prng, signed } from "../engine/prng.js";
import { concatFloat32 } from "./bytes.js";
import { resample, Resampler, upsampleHalfbandInt16 } from "./resample.js";
import { setSimdKernels, simdKernelsAvailable } from "./resample-wasm.js";

afterEach(() => setSimdKernels(true));

/** Speech-like test signal: a wandering tone, noise, silence and full-scale clipping. */
function signal(n: number): Float32Array {
  const rand = prng(5);
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const gate = Math.floor(i / 4000) % 4 === 3 ? 0 : 1;
    x[i] = gate * (0.6 * Math.sin(i * (0.05 + 0.02 * Math.sin(i / 9000))) + 0.25 * signed(rand));
    if (i % 10_007 === 0) x[i] = i % 2 ? 1 : -1;
  }
  return x;
}

function chunked(x: Float32Array, inRate: number, outRate: number): Float32Array {
  const r = new Resampler(inRate, outRate);
  const parts: Float32Array[] = [];
  for (let i = 0, step = 37; i < x.length; i += step, step = (step * 7) % 3001 + 1) parts.push(r.process(x.subarray(i, i + step)));
  parts.push(r.flush());
  return concatFloat32(parts);
}

const both = <T>(f: () => T): [T, T] => {
  setSimdKernels(false);
  const js = f();
  setSimdKernels(true);
  return [js, f()];
};

describe("resampling kernels in WebAssembly SIMD", () => {
  const x = signal(50_000);
  it("load on this runtime", () => expect(simdKernelsAvailable()).toBe(true));
  it.each([
    [16_000, 48_000],
    [48_000, 16_000],
    [22_050, 16_000],
    [16_000, 22_050],
    [44_100, 24_000],
    [22_050, 44_100],
  ])("%i -> %i Hz gives the JavaScript loop's samples to the bit, in one call and in odd chunks", (from, to) => {
    const [a, b] = both(() => resample(x, from, to));
    expect(b.length).toBe(a.length);
    expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true);
    const [c, d] = both(() => chunked(x, from, to));
    expect(Buffer.from(d.buffer).equals(Buffer.from(a.buffer))).toBe(true);
    expect(Buffer.from(c.buffer).equals(Buffer.from(a.buffer))).toBe(true);
  });

  it("upsamples 16-bit chunks of any length, odd ones included, to the same bits", () => {
    for (const n of [1, 63, 64, 65, 4095, 4096, 4097, 12_345]) {
      const pcm = Int16Array.from(x.subarray(0, n), (v) => Math.round(v * 32767));
      const [a, b] = both(() => upsampleHalfbandInt16(pcm));
      expect(b.length).toBe(2 * n);
      expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true);
    }
  });
});

describe("YIN's difference function in WebAssembly SIMD", () => {
  it("gives the JavaScript loop's pitch track to the bit, to the last window", async () => {
    const { YinTracker, PITCH_RATE } = await import("../voice-analysis/pitch.js");
    const x = signal(PITCH_RATE * 3);
    const track = () => {
      const t = new YinTracker(x);
      const f0: number[] = [];
      for (let s = -1; s < x.length; s += 80) f0.push(t.at(s));
      return f0;
    };
    const [js, simd] = both(track);
    expect(simd).toEqual(js);
    expect(js.filter((f) => f > 0).length).toBeGreaterThan(js.length / 3); // periodic windows found
    expect(js.at(-1)).toBe(0); // past the end
  });
});
