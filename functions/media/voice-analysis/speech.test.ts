import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EspeakEngine } from "../engine/espeak/engine.js";
import { analyzeVoice, detectSpeech } from "./analyze.js";
import { PASSAGES } from "./fixtures/texts.js";
import { premadeVoices, speak } from "./fixtures/voices.js";
import { similarity } from "./search.js";

// The real engine reads the held-out passages (never used to fit the embedding's background).
const engine = new EspeakEngine({ size: 2 });
const RATE = 22050;
const voices = Object.fromEntries(premadeVoices().map((v) => [v.name, v.profile]));
const EN = PASSAGES.en.heldOut;

beforeAll(() => engine.warm(), 60_000);
afterAll(() => engine.close());

describe("measures the voice, not the text", () => {
  it("a high voice measures higher than a low one, each near its own pitch", async () => {
    const avery = analyzeVoice(await speak(engine, voices.Avery, EN[0]), RATE);
    const marcus = analyzeVoice(await speak(engine, voices.Marcus, EN[0]), RATE);
    expect(avery.f0MedianHz!).toBeGreaterThan(marcus.f0MedianHz! * 2);
    // Marcus' base range is 82-120 Hz, Avery's (young female) 165-245 Hz before her pitch setting.
    expect(marcus.f0MedianHz!).toBeGreaterThan(70);
    expect(marcus.f0MedianHz!).toBeLessThan(130);
    expect(avery.f0MedianHz!).toBeGreaterThan(180);
    expect(avery.f0P10Hz!).toBeLessThan(avery.f0MedianHz!);
    expect(avery.f0P90Hz!).toBeGreaterThan(avery.f0MedianHz!);
    expect(avery.f0RangeHz).toBeCloseTo(avery.f0P90Hz! - avery.f0P10Hz!, 0);
    // Female formant tables sit 10-20% higher.
    expect(avery.formantsHz[1]!).toBeGreaterThan(marcus.formantsHz[1]!);
    expect(avery.spectralCentroidHz).toBeGreaterThan(marcus.spectralCentroidHz);
  });

  it("a faster speed setting measures a faster speaking rate", async () => {
    const at = async (speed: number) => analyzeVoice(await speak(engine, voices.Oliver, EN[1], { settings: { speed } }), RATE);
    const slow = await at(0.7);
    const normal = await at(1);
    const fast = await at(1.2);
    expect(normal.speakingRate).toBeGreaterThan(slow.speakingRate * 1.15);
    expect(fast.speakingRate).toBeGreaterThan(normal.speakingRate);
    // Syllables per second of speech for ordinary read speech.
    expect(normal.speakingRate).toBeGreaterThan(2.5);
    expect(normal.speakingRate).toBeLessThan(7);
  });

  it("the same speaker on different passages is more similar than different speakers", async () => {
    const names = ["Avery", "Marcus", "Harriet", "Oliver", "Riley", "Desmond"];
    const emb: Record<string, number[][]> = {};
    for (const n of names) emb[n] = await Promise.all(EN.map(async (t, i) => analyzeVoice(await speak(engine, voices[n], t, { seed: 11 + i }), RATE).embedding));
    const same: number[] = [];
    const different: number[] = [];
    for (const a of names) {
      for (const b of names) {
        for (let i = 0; i < EN.length; i++) {
          for (let j = 0; j < EN.length; j++) {
            if (i === j) continue;
            (a === b ? same : different).push(similarity(emb[a][i], emb[b][j]));
          }
        }
      }
    }
    const mean = (v: number[]) => v.reduce((x, y) => x + y, 0) / v.length;
    expect(mean(same)).toBeGreaterThan(mean(different) + 0.4);
    // Each recording's nearest other recording is its own voice.
    for (const a of names) {
      for (let i = 0; i < EN.length; i++) {
        let best = { who: "", s: -2 };
        for (const b of names) for (let j = 0; j < EN.length; j++) if (a !== b || i !== j) {
          const s = similarity(emb[a][i], emb[b][j]);
          if (s > best.s) best = { who: b, s };
        }
        expect(best.who, `${a} passage ${i}`).toBe(a);
      }
    }
    expect(emb.Avery[0]).toHaveLength(60);
    expect(Math.hypot(...emb.Avery[0])).toBeCloseTo(1, 9);
  });
});

describe("recording quality", () => {
  let speech: Float32Array;
  beforeAll(async () => {
    speech = await speak(engine, voices.Harriet, EN[2]);
  });

  it("SNR: clean speech reads high, a 10 dB white-noise mix reads near 10 dB", () => {
    const clean = analyzeVoice(speech, RATE);
    expect(clean.snrDb).toBeGreaterThan(40);
    // White noise 10 dB under the speech's level (the speech frames' RMS).
    const level = 10 ** (clean.rmsDbfs / 20);
    let s = 99;
    const noisy = speech.map((v) => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return v + level * 10 ** (-10 / 20) * Math.sqrt(3) * ((s / 2 ** 32) * 2 - 1);
    });
    const mixed = analyzeVoice(noisy, RATE);
    expect(mixed.snrDb).toBeGreaterThan(5);
    expect(mixed.snrDb).toBeLessThan(15);
  });

  it("clipping: a signal driven 12 dB into the rails shows it, the clean one does not", () => {
    expect(analyzeVoice(speech, RATE).clippingRatio).toBe(0);
    const hot = speech.map((v) => Math.max(-1, Math.min(1, v * 4 * 4)));
    expect(analyzeVoice(hot, RATE).clippingRatio).toBeGreaterThan(0.01);
  });

  it("loudness matches the engine's -18 dBFS normalisation and the duration is exact", () => {
    const a = analyzeVoice(speech, RATE);
    expect(a.durationSecs).toBeCloseTo(speech.length / RATE, 3);
    expect(a.rmsDbfs).toBeGreaterThan(-20);
    expect(a.rmsDbfs).toBeLessThan(-16);
    expect(a.loudnessLufs!).toBeGreaterThan(-22);
    expect(a.loudnessLufs!).toBeLessThan(-14);
    expect(a.ltasDb).toHaveLength(16);
  });

  it("voice activity splits two sentences read with a second of silence between them", async () => {
    const a = await speak(engine, voices.Marcus, "The first sentence is here.");
    const b = await speak(engine, voices.Marcus, "And here is the second one.");
    const x = new Float32Array(a.length + RATE + b.length);
    x.set(a);
    x.set(b, a.length + RATE);
    const segments = detectSpeech(x, RATE);
    const gapStart = a.length / RATE;
    // The engine leaves a little silence at the edges; the second's gap must separate two groups.
    const before = segments.filter((s) => s.end <= gapStart + 0.3);
    const after = segments.filter((s) => s.start >= gapStart + 0.7);
    expect(before.length + after.length).toBe(segments.length);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(after[after.length - 1].end).toBeGreaterThan(x.length / RATE - 0.5);
  });

  it("voice activity finds nothing under the absolute floor: the same reading 52 dB down", async () => {
    const x = await speak(engine, voices.Marcus, "The first sentence is here.");
    expect(detectSpeech(x, RATE).length).toBeGreaterThan(0);
    const quiet = x.map((v) => v * 10 ** (-52 / 20));
    expect(detectSpeech(quiet, RATE)).toEqual([]);
    // 30 dB down is still a quiet reading, not silence.
    expect(detectSpeech(x.map((v) => v * 10 ** (-30 / 20)), RATE).length).toBeGreaterThan(0);
  });
});
