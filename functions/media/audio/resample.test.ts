import { describe, expect, it } from "vitest";
import { Resampler, floatToInt16, int16ToFloat, resample, roundToInt16, upsampleHalfbandInt16 } from "./resample.js";
import { createHash } from "node:crypto";
import { prng } from "../engine/prng.js";
import { db, middleRms, tone } from "./testing.js";

const sineRms = (a: number) => a / Math.SQRT2;

/** Magnitude of one frequency over the middle of the signal (Hann-windowed DFT bin). */
function goertzel(x: Float32Array, freq: number, rate: number): number {
  const a = Math.floor(x.length * 0.1);
  const n = Math.floor(x.length * 0.8);
  let re = 0;
  let im = 0;
  for (let i = 0; i < n; i++) {
    const w = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
    const ph = (2 * Math.PI * freq * i) / rate;
    re += w * x[a + i] * Math.cos(ph);
    im += w * x[a + i] * Math.sin(ph);
  }
  return Math.hypot(re, im) / n;
}

describe("resampler", () => {
  const rates = [8000, 16000, 24000, 32000, 44100, 48000];

  it.each(rates)("passes a 1 kHz tone from 22050 Hz to %i Hz within 0.1 dB and keeps the length", (out) => {
    const y = resample(tone(1000, 22050, 1), 22050, out);
    expect(y.length).toBe(out);
    expect(Math.abs(db(middleRms(y) / sineRms(0.5)))).toBeLessThan(0.1);
  });

  it.each([
    [22050, 8000, 6000],
    [22050, 16000, 9500],
    [48000, 22050, 15000],
    [44100, 8000, 5000],
  ])("attenuates a tone above the new Nyquist by at least 40 dB (%i -> %i Hz, %i Hz tone)", (inRate, outRate, freq) => {
    const y = resample(tone(freq, inRate, 1), inRate, outRate);
    expect(db(middleRms(y) / sineRms(0.5))).toBeLessThan(-40);
  });

  it("gives the same samples streamed in odd-sized pieces as in one call", () => {
    const x = tone(333, 22050, 0.7);
    const one = resample(x, 22050, 48000);
    const r = new Resampler(22050, 48000);
    const parts: Float32Array[] = [];
    for (let i = 0; i < x.length; i += 1237) parts.push(r.process(x.subarray(i, i + 1237)));
    parts.push(r.flush());
    const streamed = Float32Array.from(parts.flatMap((p) => Array.from(p)));
    expect(streamed).toEqual(one);
  });

  it("doubles the rate with a half-band filter: every even output is an input sample", () => {
    const x = tone(440, 22050, 0.2);
    const y = resample(x, 22050, 44100);
    expect(y.length).toBe(2 * x.length);
    for (let i = 0; i < x.length; i += 97) expect(y[2 * i]).toBe(x[i]);
  });

  it("doubling the rate leaves the images of speech-band tones at least 60 dB down", () => {
    // A tone at f has its image at 22050 - f after doubling.
    for (const f of [3000, 6000, 8000]) {
      const y = resample(tone(f, 22050, 1), 22050, 44100);
      const level = (freq: number) => goertzel(y, freq, 44100);
      expect(db(level(22050 - f) / level(f))).toBeLessThan(-60);
    }
  });

  it("doubling the rate streamed in odd-sized pieces gives the samples of one call", () => {
    const x = tone(333, 22050, 0.7);
    const one = resample(x, 22050, 44100);
    const r = new Resampler(22050, 44100);
    const parts: Float32Array[] = [];
    for (let i = 0; i < x.length; i += 1237) parts.push(r.process(x.subarray(i, i + 1237)));
    parts.push(r.flush());
    expect(Float32Array.from(parts.flatMap((p) => Array.from(p)))).toEqual(one);
  });

  it("doubling 16-bit samples in one call gives bit for bit the streaming resampler's samples", () => {
    // Noise with full-scale extremes and silence, in lengths around the filter's span.
    const rand = prng(7);
    for (const n of [0, 1, 5, 21, 22, 23, 4096, 22050]) {
      const pcm = Int16Array.from({ length: n }, (_, i) => (i % 97 === 0 ? -32768 : i % 89 === 0 ? 32767 : i % 50 < 10 ? 0 : Math.round((rand() * 2 - 1) * 20000)));
      const one = upsampleHalfbandInt16(pcm);
      const r = new Resampler(22050, 44100);
      const parts: Float32Array[] = [];
      for (let i = 0; i < n; i += 1237) parts.push(r.process(int16ToFloat(pcm.subarray(i, i + 1237))));
      parts.push(r.flush());
      const streamed = Float32Array.from(parts.flatMap((p) => Array.from(p)));
      expect(one.length).toBe(2 * n);
      // Same bytes, signed zeros included.
      expect(Buffer.from(one.buffer).equals(Buffer.from(streamed.buffer))).toBe(true);
    }
  });

  it("doubling the rate still gives the half-band design's exact samples (the faster kernel changed no audio)", () => {
    // Pinned from the loop version of the kernel (before the unrolled one): MP3 bytes depend on these samples.
    const rand = prng(11);
    const pcm = Int16Array.from({ length: 44100 }, (_, i) => (i % 97 === 0 ? -32768 : i % 89 === 0 ? 32767 : i % 50 < 10 ? 0 : Math.round((rand() * 2 - 1) * 20000)));
    const y = upsampleHalfbandInt16(pcm);
    expect(createHash("sha256").update(Buffer.from(y.buffer, y.byteOffset, y.byteLength)).digest("hex")).toBe("e4e9c5f54b8f7edc2329add4585539e7a28c47b28a33779bd892197f2f7266cf");
  });

  it("rounds to 16 bits exactly as Math.round and clipping do, for every kind of double", () => {
    const reference = (y: number) => {
      const v = Math.round(y);
      return v > 32767 ? 32767 : v < -32768 ? -32768 : v;
    };
    // Halves, the doubles just below a half (where y + 0.5 rounds up), the clip edges, huge and odd values.
    const values = [0.49999999999999994, -0.49999999999999994, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 32766.5, 32767.5, -32768.5, -32767.5, -32768.49999999999, 2 ** 52 - 0.5, -(2 ** 52) + 0.5, 2 ** 52 + 1, 1e300, -1e300, Infinity, -Infinity, NaN, 0, -0, 5e-324, -5e-324];
    const rand = prng(5);
    const bits = new Float64Array(1);
    const words = new Uint32Array(bits.buffer);
    for (let i = 0; i < 100_000; i++) {
      words[0] = Math.floor(rand() * 2 ** 32);
      words[1] = Math.floor(rand() * 2 ** 32);
      const w = (rand() * 2 - 1) * 40_000;
      values.push(bits[0], w, Math.round(w) + 0.5, Math.floor(w) + 0.5 - Number.EPSILON * Math.abs(w));
    }
    const ours = new Int16Array(values.length);
    const theirs = new Int16Array(values.length);
    values.forEach((y, i) => {
      ours[i] = roundToInt16(y);
      theirs[i] = reference(y);
    });
    expect(ours).toEqual(theirs);
    expect(Array.from(floatToInt16(Float32Array.from([0.5 / 32768, -0.5 / 32768, 1, -1.5])))).toEqual([1, 0, 32767, -32768]);
  });

  it("is the identity when the rates match", () => {
    const x = tone(440, 22050, 0.1);
    expect(resample(x, 22050, 22050)).toEqual(x);
  });

  it("rejects nonsense rates", () => {
    expect(() => new Resampler(0, 8000)).toThrow(RangeError);
    expect(() => new Resampler(22050.5, 8000)).toThrow(RangeError);
  });
});
