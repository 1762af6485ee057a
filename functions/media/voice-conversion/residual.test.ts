import { describe, expect, it } from "vitest";
import { LpcFitter, LPC_ORDER, ResidualSynth, resynthesize, type AnalysedFrame } from "./residual.js";
import { AP_BANDS, BINS, FFT_SIZE, SpectralAnalyzer, WORK_RATE } from "./spectral.js";
import { FRAME_SECONDS, frameCount, trackF0 } from "./f0.js";
import { prng } from "../engine/prng.js";
import { RealFFT } from "./fft.js";
import { PulseSynth, type SynthFrame } from "./synth.js";
import { DEFAULT_RESIDUAL, convertAll, convertSpeech } from "./convert.js";
import { measureVoice } from "./mapping.js";

const fs = WORK_RATE;
const df = fs / FFT_SIZE;

/** A two-pole resonator's coefficients (centre, bandwidth in Hz). */
function resonator(f: number, bw: number): [number, number] {
  const r = Math.exp((-Math.PI * bw) / fs);
  return [-2 * r * Math.cos((2 * Math.PI * f) / fs), r * r];
}

/** A vowel-like signal: a pulse train at `f0` (or white noise when 0) through three formants. */
function vowel(seconds: number, f0: (t: number) => number, seed = 1, second = 0): Float32Array {
  const n = Math.round(seconds * fs);
  const rand = prng(seed);
  const e = new Float64Array(n);
  let phase = 0;
  let secondDue = false;
  for (let i = 0; i < n; i++) {
    const f = f0(i / fs);
    if (f > 0) {
      phase += f / fs;
      if (phase >= 1) {
        phase -= 1;
        e[i] = 1;
        secondDue = second > 0;
      } else if (secondDue && phase >= 0.45) {
        // A second, weaker excitation in the cycle (a residual without one dominant peak per period).
        e[i] = -second;
        secondDue = false;
      }
    } else e[i] = 0.1 * (rand() - 0.5);
  }
  let y: Float64Array = e;
  for (const [f, bw] of [
    [700, 80],
    [1200, 90],
    [2600, 120],
  ]) {
    const [a1, a2] = resonator(f, bw);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = y[i] - a1 * (i > 0 ? out[i - 1] : 0) - a2 * (i > 1 ? out[i - 2] : 0);
    y = out;
  }
  let peak = 0;
  for (const v of y) peak = Math.max(peak, Math.abs(v));
  return Float32Array.from(y, (v) => (0.5 * v) / peak);
}

/** Analysed frames of a whole signal (as convert.ts makes them). */
function analyse(x: Float32Array): { frames: SynthFrame[]; analysed: AnalysedFrame[] } {
  const { f0 } = trackF0(x, fs);
  const analyzer = new SpectralAnalyzer(fs);
  const fitter = new LpcFitter();
  const frames: SynthFrame[] = [];
  const analysed: AnalysedFrame[] = [];
  for (let i = 0; i < frameCount(x.length, fs); i++) {
    const frame: SynthFrame = { f0: f0[i], logEnv: new Float32Array(BINS), ap: new Float32Array(AP_BANDS) };
    analyzer.analyze(x, i * FRAME_SECONDS * fs, frame.f0, frame);
    frames.push(frame);
    analysed.push({ f0: f0[i], lpc: fitter.fit(frame.logEnv) });
  }
  return { frames, analysed };
}

const source = <T,>(xs: T[]) => ({ length: xs.length, at: (i: number) => xs[i] });

/** Mean power (dB) of x's spectrum between lo and hi Hz, over the whole signal in 1024-sample Hann frames. */
function bandDb(x: Float32Array, lo: number, hi: number): number {
  const fft = new RealFFT(FFT_SIZE);
  const frame = new Float64Array(FFT_SIZE);
  const re = new Float64Array(BINS);
  const im = new Float64Array(BINS);
  let s = 0;
  let n = 0;
  for (let start = 0; start + FFT_SIZE <= x.length; start += FFT_SIZE / 2) {
    for (let j = 0; j < FFT_SIZE; j++) frame[j] = (0.5 - 0.5 * Math.cos((2 * Math.PI * j) / FFT_SIZE)) * x[start + j];
    fft.forward(frame, re, im);
    for (let k = Math.ceil(lo / df); k <= Math.floor(hi / df); k++) {
      s += re[k] * re[k] + im[k] * im[k];
      n++;
    }
  }
  return 10 * Math.log10(s / n);
}

const median = (xs: ArrayLike<number>) => {
  const v = Array.from(xs).filter((f) => f > 0).sort((a, b) => a - b);
  return v[v.length >> 1];
};

describe("residual-excited synthesis", () => {
  it("fits an all-pole envelope: the fit of a known resonator's spectrum is that spectrum", () => {
    const [a1, a2] = resonator(1000, 100);
    const [b1, b2] = resonator(3000, 200);
    const logEnv = new Float32Array(BINS);
    for (let k = 0; k < BINS; k++) {
      const w = (2 * Math.PI * k) / FFT_SIZE;
      const mag2 = (c1: number, c2: number) => (1 + c1 * Math.cos(w) + c2 * Math.cos(2 * w)) ** 2 + (c1 * Math.sin(w) + c2 * Math.sin(2 * w)) ** 2;
      logEnv[k] = Math.log(4 / (mag2(a1, a2) * mag2(b1, b2)));
    }
    const { a, gain } = new LpcFitter().fit(logEnv);
    expect(a.length).toBe(LPC_ORDER + 1);
    let worst = 0;
    for (let k = 1; k < BINS - 1; k++) {
      const w = (2 * Math.PI * k) / FFT_SIZE;
      let re = 0;
      let im = 0;
      for (let j = 0; j <= LPC_ORDER; j++) {
        re += a[j] * Math.cos(j * w);
        im -= a[j] * Math.sin(j * w);
      }
      const fitted = Math.log((gain * gain) / (re * re + im * im));
      worst = Math.max(worst, Math.abs(fitted - logEnv[k]) * (10 / Math.LN10));
    }
    // Within 1.5 dB at every bin, peaks included (the lag window widens them a little).
    expect(worst).toBeLessThan(1.5);
  });

  it("with nothing moved gives the input back: noise exactly, voiced speech at the same level with the same pitch", () => {
    // White noise (formant-shaped noise can read as voiced to the pitch tracker).
    const rand = prng(5);
    const noise = Float32Array.from({ length: fs }, () => 0.3 * (rand() - 0.5));
    expect(trackF0(noise, fs).f0.some((f) => f > 0)).toBe(false);
    const y = resynthesize(noise);
    expect(y.length).toBe(noise.length);
    let err = 0;
    let pow = 0;
    for (let i = 0; i < noise.length; i++) {
      err += (y[i] - noise[i]) ** 2;
      pow += noise[i] ** 2;
    }
    // The inverse filter and the synthesis filter cancel, and the unvoiced overlap-add is the identity.
    expect(10 * Math.log10(pow / err)).toBeGreaterThan(60);

    const x = vowel(1.5, (t) => 110 + 30 * t);
    const z = resynthesize(x);
    for (const [lo, hi] of [
      [100, 1000],
      [1000, 2000],
      [2000, 4000],
    ])
      expect(Math.abs(bandDb(z, lo, hi) - bandDb(x, lo, hi)), `${lo}-${hi} Hz`).toBeLessThan(1);
    expect(Math.abs(median(trackF0(z, fs).f0) / median(trackF0(x, fs).f0) - 1)).toBeLessThan(0.02);
  });

  it("moves the pitch with the mapped F0 and the timbre with the mapped envelope", () => {
    const x = vowel(1.5, () => 120);
    const { frames, analysed } = analyse(x);
    // An octave up, half the way: 1.5x. And 6 dB more above 2 kHz.
    const mapped = frames.map((f) => {
      const logEnv = Float32Array.from(f.logEnv, (v, k) => v + (k * df > 2000 ? Math.log(4) : 0));
      return { f0: f.f0 > 0 ? f.f0 * 1.5 : 0, logEnv, ap: f.ap };
    });
    const y = new ResidualSynth(x, source(analysed), source(mapped), fs).render(x.length);
    expect(median(trackF0(y, fs).f0) / median(trackF0(x, fs).f0)).toBeGreaterThan(1.45);
    expect(median(trackF0(y, fs).f0) / median(trackF0(x, fs).f0)).toBeLessThan(1.55);
    const lift = bandDb(y, 2500, 5000) - bandDb(y, 300, 1500) - (bandDb(x, 2500, 5000) - bandDb(x, 300, 1500));
    expect(lift).toBeGreaterThan(4);
    expect(lift).toBeLessThan(8);
  });

  it("streams: rendering block by block gives exactly the whole output", () => {
    const x = vowel(1.6, (t) => (t > 0.5 && t < 1.0 ? 0 : 100 + 60 * t), 3);
    const { frames, analysed } = analyse(x);
    const mapped = frames.map((f) => ({ ...f, f0: f.f0 > 0 ? f.f0 * 0.7 : 0 }));
    const whole = new ResidualSynth(x, source(analysed), source(mapped), fs).render(x.length);
    // As convert.ts frees them: input frames more than 4 behind the last block's end are gone.
    let freedBelow = 0;
    const freeing = {
      length: analysed.length,
      at: (i: number) => {
        if (i < freedBelow) throw new Error(`input frame ${i} read after it was freed (below ${freedBelow})`);
        return analysed[i];
      },
    };
    const synth = new ResidualSynth(x, freeing, source(mapped), fs);
    const joined = new Float32Array(x.length);
    let o = 0;
    for (const size of [317, 2900, 11, 5000, 100_000]) {
      const block = synth.render(Math.min(x.length, o + size));
      joined.set(block, o);
      o += block.length;
      freedBelow = Math.floor(o / (FRAME_SECONDS * fs)) - 4;
    }
    expect(o).toBe(x.length);
    let maxDiff = 0;
    for (let i = 0; i < x.length; i++) maxDiff = Math.max(maxDiff, Math.abs(whole[i] - joined[i]));
    expect(maxDiff).toBe(0);
  });

  it("in the conversion: streamed blocks join into exactly the whole conversion, with its look-ahead", () => {
    const x = vowel(2, (t) => (t > 0.7 && t < 1.2 ? 0 : 110 + 40 * t), 7);
    const target = measureVoice(vowel(2, (t) => 210 + 20 * t, 9));
    const opts = { target, settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true }, seed: 2, synthesis: "residual" as const };
    const whole = convertAll(x, opts);
    const blocks = [...convertSpeech(x, { ...opts, firstBlockSeconds: 0.13, blockSeconds: 0.31 })];
    expect(blocks.length).toBeGreaterThan(5);
    const joined = new Float32Array(whole.length);
    let o = 0;
    for (const b of blocks) {
      joined.set(b, o);
      o += b.length;
    }
    expect(o).toBe(x.length);
    let maxDiff = 0;
    for (let i = 0; i < whole.length; i++) maxDiff = Math.max(maxDiff, Math.abs(whole[i] - joined[i]));
    expect(maxDiff).toBe(0);
    // And the pitch lands in the target's register.
    expect(Math.abs(median(trackF0(whole, fs).f0) / target.f0MedianHz! - 1)).toBeLessThan(0.1);
  });

  it("epochs from the mean-based signal: one mark per cycle where the residual has two peaks a cycle, so the pitch lands", () => {
    // A second excitation at 45% of each cycle, 0.9 of the first. (The plain peak pick, epochs: "peak", passes this
    // too, measured 2026-12-07: the test guards the mean-based marks, it does not show them better.)
    const x = vowel(1.5, (t) => 180 - 40 * t, 4, 0.9);
    const { frames, analysed } = analyse(x);
    const mapped = frames.map((f) => ({ ...f, f0: f.f0 > 0 ? f.f0 * 0.6 : 0 }));
    const y = new ResidualSynth(x, source(analysed), source(mapped), fs, { epochs: "mbs" }).render(x.length);
    const ratio = median(trackF0(y, fs).f0) / median(trackF0(x, fs).f0);
    expect(ratio).toBeGreaterThan(0.57);
    expect(ratio).toBeLessThan(0.63);
  });

  it("band split: with nothing moved, both bands come back at their level and pitch; it streams exactly", () => {
    const x = vowel(1.5, (t) => 110 + 30 * t);
    const { frames, analysed } = analyse(x);
    const z = new ResidualSynth(x, source(analysed), source(frames), fs, { crossoverHz: 2500 }).render(x.length);
    for (const [lo, hi] of [
      [100, 1000],
      [1000, 2000],
    ])
      expect(Math.abs(bandDb(z, lo, hi) - bandDb(x, lo, hi)), `${lo}-${hi} Hz`).toBeLessThan(1);
    // The high band's flat pulses carry the grain's whole residual power, and the order-24 fit does not
    // whiten this vowel's residual completely above its last formant: 2.7 dB under measured (2026-12-07).
    expect(Math.abs(bandDb(z, 3000, 5000) - bandDb(x, 3000, 5000))).toBeLessThan(3);
    expect(Math.abs(median(trackF0(z, fs).f0) / median(trackF0(x, fs).f0) - 1)).toBeLessThan(0.02);
    // Pitch moved: the high band's pulses sit on the same marks, so the two bands agree on the period.
    const mapped = frames.map((f) => ({ ...f, f0: f.f0 > 0 ? f.f0 * 1.4 : 0 }));
    const whole = new ResidualSynth(x, source(analysed), source(mapped), fs, { crossoverHz: 2500, seed: 3 }).render(x.length);
    expect(Math.abs(median(trackF0(whole, fs).f0) / median(trackF0(x, fs).f0) / 1.4 - 1)).toBeLessThan(0.05);
    const synth = new ResidualSynth(x, source(analysed), source(mapped), fs, { crossoverHz: 2500, seed: 3 });
    const joined = new Float32Array(x.length);
    let o = 0;
    for (const size of [517, 3, 4100, 100_000]) {
      const block = synth.render(Math.min(x.length, o + size));
      joined.set(block, o);
      o += block.length;
    }
    let maxDiff = 0;
    for (let i = 0; i < x.length; i++) maxDiff = Math.max(maxDiff, Math.abs(whole[i] - joined[i]));
    expect(maxDiff).toBe(0);
  });

  it("band split in the conversion: streamed blocks join into exactly the whole conversion", () => {
    const x = vowel(2, (t) => (t > 0.7 && t < 1.2 ? 0 : 110 + 40 * t), 7);
    const target = measureVoice(vowel(2, (t) => 210 + 20 * t, 9));
    const opts = {
      target,
      settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true },
      seed: 2,
      synthesis: "residual" as const,
      residual: { crossoverHz: 2500 },
    };
    const whole = convertAll(x, opts);
    const joined = new Float32Array(whole.length);
    let o = 0;
    for (const b of convertSpeech(x, { ...opts, firstBlockSeconds: 0.13, blockSeconds: 0.31 })) {
      joined.set(b, o);
      o += b.length;
    }
    expect(o).toBe(x.length);
    let maxDiff = 0;
    for (let i = 0; i < whole.length; i++) maxDiff = Math.max(maxDiff, Math.abs(whole[i] - joined[i]));
    expect(maxDiff).toBe(0);
    expect(Math.abs(median(trackF0(whole, fs).f0) / target.f0MedianHz! - 1)).toBeLessThan(0.1);
  });

  it("large lowering with one pulse per mark below the crossover: the output has the target's period, and it streams exactly", () => {
    // A high voice (240 Hz falling to 220 Hz) lowered 0.4x: each output period is 2.5 input periods. It starts
    // after 0.1 s of noise, as speech does: a vowel at full level from sample 0 has no history to predict from,
    // so its first residual samples are orders of magnitude up, and the high band's first pulse with them.
    // (The split without lowerPulseRatio lands 0.400 here too, measured 2026-12-07: this guards the option's pitch,
    // level and streaming, it does not show it better; scripts/sts-evaluate.ts is where that is measured.)
    const x = vowel(1.5, (t) => (t < 0.1 ? 0 : 240 - 13 * t), 5, 0.5);
    const { frames, analysed } = analyse(x);
    const mapped = frames.map((f) => ({ ...f, f0: f.f0 > 0 ? f.f0 * 0.4 : 0 }));
    const opts = { crossoverHz: 1000, lowerPulseRatio: 1.6, seed: 4 };
    const whole = new ResidualSynth(x, source(analysed), source(mapped), fs, opts).render(x.length);
    const ratio = median(trackF0(whole, fs).f0) / median(trackF0(x, fs).f0);
    expect(ratio).toBeGreaterThan(0.38);
    expect(ratio).toBeLessThan(0.42);
    // The level below the crossover stays the residual's (the pulse carries the grain's power).
    const grains = new ResidualSynth(x, source(analysed), source(mapped), fs, { crossoverHz: 1000, seed: 4 }).render(x.length);
    expect(Math.abs(bandDb(whole, 100, 1000) - bandDb(grains, 100, 1000))).toBeLessThan(3);
    const synth = new ResidualSynth(x, source(analysed), source(mapped), fs, opts);
    const joined = new Float32Array(x.length);
    let o = 0;
    for (const size of [911, 7, 3300, 100_000]) {
      const block = synth.render(Math.min(x.length, o + size));
      joined.set(block, o);
      o += block.length;
    }
    let maxDiff = 0;
    for (let i = 0; i < x.length; i++) maxDiff = Math.max(maxDiff, Math.abs(whole[i] - joined[i]));
    expect(maxDiff).toBe(0);
  });

  it("lowPulse: the pulse's share below the crossover keeps the pitch and the level", () => {
    const x = vowel(1.5, (t) => 110 + 30 * t);
    const { frames, analysed } = analyse(x);
    const mapped = frames.map((f) => ({ ...f, f0: f.f0 > 0 ? f.f0 * 1.3 : 0 }));
    const grains = new ResidualSynth(x, source(analysed), source(mapped), fs, { crossoverHz: 1000, seed: 3 }).render(x.length);
    for (const lowPulse of [0.5, 1]) {
      const y = new ResidualSynth(x, source(analysed), source(mapped), fs, { crossoverHz: 1000, lowPulse, seed: 3 }).render(x.length);
      expect(Math.abs(median(trackF0(y, fs).f0) / median(trackF0(x, fs).f0) / 1.3 - 1), `lowPulse ${lowPulse}`).toBeLessThan(0.05);
      expect(Math.abs(bandDb(y, 100, 1000) - bandDb(grains, 100, 1000)), `lowPulse ${lowPulse}`).toBeLessThan(3);
      // And it is not the grains' output: the low band's excitation changed.
      let diff = 0;
      for (let i = 0; i < y.length; i++) diff = Math.max(diff, Math.abs(y[i] - grains[i]));
      expect(diff, `lowPulse ${lowPulse}`).toBeGreaterThan(0.01);
    }
  });

  it("every option at once in the conversion (pulses on lowering and below the crossover, noise when unvoiced, order 48): streamed blocks join into exactly the whole", () => {
    const x = vowel(2, (t) => (t > 0.7 && t < 1.2 ? 0 : 110 + 40 * t), 7);
    const target = measureVoice(vowel(2, (t) => 210 + 20 * t, 9));
    const opts = {
      target,
      settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true },
      seed: 2,
      synthesis: "residual" as const,
      residual: { crossoverHz: 1000, lowerPulseRatio: 1.6, lowPulse: 1, unvoicedNoise: true, synthesisOrder: 48 },
    };
    const whole = convertAll(x, opts);
    const joined = new Float32Array(whole.length);
    let o = 0;
    for (const b of convertSpeech(x, { ...opts, firstBlockSeconds: 0.13, blockSeconds: 0.31 })) {
      joined.set(b, o);
      o += b.length;
    }
    expect(o).toBe(x.length);
    let maxDiff = 0;
    for (let i = 0; i < whole.length; i++) maxDiff = Math.max(maxDiff, Math.abs(whole[i] - joined[i]));
    expect(maxDiff).toBe(0);
    expect(Math.abs(median(trackF0(whole, fs).f0) / target.f0MedianHz! - 1)).toBeLessThan(0.1);
    // The options change the output (the same conversion with none of them differs).
    const plain = convertAll(x, { ...opts, residual: { crossoverHz: 1000 } });
    let diff = 0;
    for (let i = 0; i < whole.length; i++) diff = Math.max(diff, Math.abs(whole[i] - plain[i]));
    expect(diff).toBeGreaterThan(0.01);
  });
  it("minimum-phase output filter: with nothing moved the bands and pitch come back, the mapped envelope's lift shows, and it streams exactly", () => {
    const x = vowel(1.5, (t) => (t < 0.1 ? 0 : 110 + 30 * t), 6);
    const { frames, analysed } = analyse(x);
    const opts = { outputFilter: "minphase" as const, seed: 3 };
    const z = new ResidualSynth(x, source(analysed), source(frames), fs, opts).render(x.length);
    const allPole = new ResidualSynth(x, source(analysed), source(frames), fs, { seed: 3 }).render(x.length);
    for (const [lo, hi] of [
      [100, 1000],
      [1000, 2000],
      [2000, 4000],
    ])
      expect(Math.abs(bandDb(z, lo, hi) - bandDb(x, lo, hi)), `${lo}-${hi} Hz`).toBeLessThan(1);
    expect(Math.abs(median(trackF0(z, fs).f0) / median(trackF0(x, fs).f0) - 1)).toBeLessThan(0.02);
    // It is not the all-pole filter's output (a different response, phase and detail; 0.45 apart at most, measured).
    let diff = 0;
    for (let i = 0; i < z.length; i++) diff = Math.max(diff, Math.abs(z[i] - allPole[i]));
    expect(diff).toBeGreaterThan(0.05);
    // The mapped envelope 6 dB up above 2 kHz and the pitch 1.3x.
    const mapped = frames.map((f) => ({
      ...f,
      f0: f.f0 > 0 ? f.f0 * 1.3 : 0,
      logEnv: Float32Array.from(f.logEnv, (v, k) => v + (k * df > 2000 ? Math.log(4) : 0)),
    }));
    const split = { ...opts, crossoverHz: 1000, lowerPulseRatio: 1.6, lowPulse: 1 };
    const whole = new ResidualSynth(x, source(analysed), source(mapped), fs, split).render(x.length);
    const flat = new ResidualSynth(x, source(analysed), source(frames.map((f) => ({ ...f, f0: f.f0 > 0 ? f.f0 * 1.3 : 0 }))), fs, split).render(x.length);
    // With every voiced mark a flat pulse below and above the crossover, the output's spectrum is the filter's.
    const lift = bandDb(whole, 2500, 5000) - bandDb(whole, 300, 1500) - (bandDb(flat, 2500, 5000) - bandDb(flat, 300, 1500));
    expect(lift).toBeGreaterThan(5);
    expect(lift).toBeLessThan(7);
    expect(Math.abs(median(trackF0(whole, fs).f0) / median(trackF0(x, fs).f0) / 1.3 - 1)).toBeLessThan(0.05);
    let freedBelow = 0;
    const freeing = {
      length: analysed.length,
      at: (i: number) => {
        if (i < freedBelow) throw new Error(`input frame ${i} read after it was freed (below ${freedBelow})`);
        return analysed[i];
      },
    };
    const synth = new ResidualSynth(x, freeing, source(mapped), fs, split);
    const joined = new Float32Array(x.length);
    let o = 0;
    for (const size of [317, 2900, 11, 5000, 1, 700, 100_000]) {
      const block = synth.render(Math.min(x.length, o + size));
      joined.set(block, o);
      o += block.length;
      freedBelow = Math.floor(o / (FRAME_SECONDS * fs)) - 4;
    }
    expect(o).toBe(x.length);
    let maxDiff = 0;
    for (let i = 0; i < x.length; i++) maxDiff = Math.max(maxDiff, Math.abs(whole[i] - joined[i]));
    expect(maxDiff).toBe(0);
  });
  it("minimum-phase output filter in the conversion: streamed blocks join into exactly the whole conversion", () => {
    const x = vowel(2, (t) => (t > 0.7 && t < 1.2 ? 0 : 110 + 40 * t), 7);
    const target = measureVoice(vowel(2, (t) => 210 + 20 * t, 9));
    const opts = {
      target,
      settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true },
      seed: 2,
      synthesis: "residual" as const,
      residual: { crossoverHz: 1000, lowerPulseRatio: 1.6, lowPulse: 0.7, outputFilter: "minphase" as const },
    };
    const whole = convertAll(x, opts);
    const joined = new Float32Array(whole.length);
    let o = 0;
    for (const b of convertSpeech(x, { ...opts, firstBlockSeconds: 0.13, blockSeconds: 0.31 })) {
      joined.set(b, o);
      o += b.length;
    }
    expect(o).toBe(x.length);
    let maxDiff = 0;
    for (let i = 0; i < whole.length; i++) maxDiff = Math.max(maxDiff, Math.abs(whole[i] - joined[i]));
    expect(maxDiff).toBe(0);
    expect(Math.abs(median(trackF0(whole, fs).f0) / target.f0MedianHz! - 1)).toBeLessThan(0.1);
    const allPole = convertAll(x, { ...opts, residual: { ...opts.residual, outputFilter: "allpole" as const } });
    let diff = 0;
    for (let i = 0; i < whole.length; i++) diff = Math.max(diff, Math.abs(whole[i] - allPole[i]));
    expect(diff).toBeGreaterThan(0.01);
  });
  it("lowerPulseBy median: the utterances' period ratio decides for every mark at once, so a local lowering takes no pulse", () => {
    // Pitch lowered 2.5x for 0.3 s in the middle (a tracking jump, say) and kept elsewhere.
    const x = vowel(1.5, (t) => (t < 0.1 ? 0 : 150), 8);
    const { frames, analysed } = analyse(x);
    const mapped = frames.map((f, i) => ({ ...f, f0: f.f0 > 0 ? (i > 60 && i < 90 ? f.f0 / 2.5 : f.f0) : 0 }));
    const run = (o: object) => new ResidualSynth(x, source(analysed), source(mapped), fs, { crossoverHz: 1000, seed: 5, ...o }).render(x.length);
    const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
    const grains = run({});
    const pulses = run({ lowPulse: 1 });
    // Per mark, the lowered stretch takes pulses: not the grains' output.
    expect(maxDiff(run({ lowerPulseRatio: 1.6 }), grains)).toBeGreaterThan(0.01);
    // By the median: an utterance lowered 1.2x takes none (exactly the grains' output), one lowered 2x takes them all.
    expect(maxDiff(run({ lowerPulseRatio: 1.6, lowerPulseBy: "median", utterancePeriodRatio: 1.2 }), grains)).toBe(0);
    expect(maxDiff(run({ lowerPulseRatio: 1.6, lowerPulseBy: "median", utterancePeriodRatio: 2 }), pulses)).toBe(0);
  });
  it("excitationPower envelope: the input residual's level no longer sets the output's, the residual's marks and voicing stay, and it streams exactly", () => {
    // Voiced, an unvoiced gap, voiced again; the input 4x louder than its analysed frames say (its residual 4x).
    const x = vowel(1.5, (t) => (t < 0.1 || (t > 0.6 && t < 0.8) ? 0 : 120 + 30 * t), 11);
    const { frames, analysed } = analyse(x);
    const loud = Float32Array.from(x, (v) => 4 * v);
    const mapped = frames.map((f) => ({ ...f, f0: f.f0 > 0 ? f.f0 * 1.3 : 0 }));
    const peakOf = (z: Float32Array) => z.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
    for (const variant of [
      { crossoverHz: 1000, lowerPulseRatio: 1.6, lowPulse: 1, unvoicedNoise: true, outputFilter: "minphase" as const },
      { crossoverHz: 1000, lowPulse: 0.5 },
      {},
    ]) {
      const run = (input: Float32Array, o: object) => new ResidualSynth(input, source(analysed), source(mapped), fs, { seed: 4, ...variant, ...o }).render(input.length);
      const byResidual = run(x, {});
      // The residual's power: 4x the input, 4x the output (12 dB).
      expect(peakOf(run(loud, {})) / peakOf(byResidual), JSON.stringify(variant)).toBeCloseTo(4, 3);
      // The envelope's: the same output however loud the residual is (the marks are the same).
      const byEnvelope = run(x, { excitationPower: "envelope" });
      expect(maxDiff(run(loud, { excitationPower: "envelope" }), byEnvelope) / peakOf(byEnvelope), JSON.stringify(variant)).toBeLessThan(1e-5);
      // It is not the residual-power output, and it keeps the mapped pitch.
      expect(maxDiff(byEnvelope, byResidual) / peakOf(byResidual)).toBeGreaterThan(0.01);
      expect(Math.abs(median(trackF0(byEnvelope, fs).f0) / median(trackF0(x, fs).f0) / 1.3 - 1), JSON.stringify(variant)).toBeLessThan(0.05);
    }
    // Streaming through the conversion is exact.
    const target = measureVoice(vowel(2, (t) => 210 + 20 * t, 9));
    const opts = {
      target,
      settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true },
      seed: 2,
      synthesis: "residual" as const,
      residual: { crossoverHz: 1000, lowerPulseRatio: 1.6, lowPulse: 1, unvoicedNoise: true, outputFilter: "minphase" as const, excitationPower: "envelope" as const },
    };
    const y = vowel(2, (t) => (t > 0.7 && t < 1.2 ? 0 : 110 + 40 * t), 7);
    const whole = convertAll(y, opts);
    const joined = new Float32Array(whole.length);
    let o = 0;
    for (const b of convertSpeech(y, { ...opts, firstBlockSeconds: 0.13, blockSeconds: 0.31 })) {
      joined.set(b, o);
      o += b.length;
    }
    expect(o).toBe(y.length);
    expect(maxDiff(whole, joined)).toBe(0);
    expect(Math.abs(median(trackF0(whole, fs).f0) / target.f0MedianHz! - 1)).toBeLessThan(0.1);
  });

  it("minimum-phase output filter: a voiced mark's pulse sits at the mark's exact position, so the output is as periodic at 4-11 kHz as the vocoder's", () => {
    // Input at 100 Hz, output at 140 Hz (a period of 157.5 samples: every other mark falls between two
    // samples), a flat mapped envelope, no aperiodicity asked for. Rounded to the nearest sample the pulses
    // jitter by half a sample, which measured 0.23 aperiodicity at 4-6 kHz and 0.49 at 6-11 kHz (the vocoder: 0.04, 0.30).
    const x = vowel(2, () => 100);
    const { analysed } = analyse(x);
    const mapped: SynthFrame[] = analysed.map((a) => ({ f0: a.f0 > 0 ? 140 : 0, logEnv: new Float32Array(BINS).fill(-4), ap: new Float32Array(AP_BANDS).fill(0.001) }));
    const y = new ResidualSynth(x, source(analysed), source(mapped), fs, { ...DEFAULT_RESIDUAL, seed: 3 }).render(x.length);
    const v = new PulseSynth(source(mapped), fs, 3).render(x.length);
    const ap = (z: Float32Array) => measureVoice(z, fs).meanApLogit.map((l) => 1 / (1 + Math.exp(-l)));
    const [ry, rv] = [ap(y), ap(v)];
    expect(measureVoice(y, fs).voicedFrames).toBeGreaterThan(50);
    expect(ry[3], "4-6 kHz").toBeLessThan(0.1);
    expect(ry[4], "6-11 kHz").toBeLessThan(rv[4] + 0.1);
    expect(Math.abs(median(trackF0(y, fs).f0) / 140 - 1)).toBeLessThan(0.03);
  });
});
