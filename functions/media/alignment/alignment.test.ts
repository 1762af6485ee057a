import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toAnalysisRate } from "../audio/decode/rate.js";
import { EspeakEngine } from "../engine/espeak/engine.js";
import type { VoiceProfile } from "../engine/port.js";
import { distinctHeldOutPairs } from "../separation/fixtures/conversation.js";
import { PASSAGES } from "../voice-analysis/fixtures/texts.js";
import { DEFAULT_SETTINGS } from "../voice-analysis/fixtures/voices.js";
import { alignRecording, fitLoss, synthesizeReferences, wordSpans, type ReferenceReading } from "./align.js";
import { premadeVoiceRecords } from "../../platform/domain/premadeVoices.js";
import { alignSequences } from "./dtw.js";
import { ALIGN_DIM } from "./features.js";
import { liveSession, liveStep, transcriptOf } from "./online.js";

const PREMADE = premadeVoiceRecords().map((r) => r.profile as VoiceProfile);
import { packLiveProgress, packLiveReference, unpackLiveSession } from "./online-codec.js";

/**
 * Alignment by synthesis, measured on voices and passages the references never use: held-out
 * designed voices (male and female) reading the held-out passages a little slower than the
 * reference, after a second of silence. The truth is the reading voice's own engine timing.
 */
let engine: EspeakEngine;
const texts = PASSAGES.en.heldOut;
let refs: ReferenceReading[][];
const readers = () => distinctHeldOutPairs().slice(0, 2).flatMap(([a, b]) => [a, b]);

async function read(voice: VoiceProfile, text: string, speed = 0.9) {
  const pcm: Int16Array[] = [];
  const chars: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for await (const c of engine.synthesize({ text, voice, settings: { ...DEFAULT_SETTINGS, speed }, seed: 3, model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false } })) {
    pcm.push(c.pcm);
    chars.push(...c.alignment.characters);
    starts.push(...c.alignment.character_start_times_seconds);
    ends.push(...c.alignment.character_end_times_seconds);
  }
  const n = pcm.reduce((a, p) => a + p.length, 0);
  const x = new Float32Array(n + 22050); // one second of silence first
  let at = 22050;
  for (const p of pcm) for (const s of p) x[at++] = s / 32768;
  return { samples: x, rate: 22050, words: wordSpans(chars).map((w) => ({ start: starts[w.from] + 1, end: ends[w.to - 1] + 1 })) };
}

beforeAll(async () => {
  engine = new EspeakEngine();
  refs = await Promise.all(texts.map((t) => synthesizeReferences(engine, PREMADE, t, "en")));
}, 60_000);
afterAll(() => engine?.close());

describe("forced alignment", () => {
  it("times the words of held-out voices within 50 ms (median) and 150 ms (90th percentile)", async () => {
    const errors: number[] = [];
    for (const voice of readers()) {
      const r = await read(voice, texts[0]);
      const a = alignRecording(r.samples, r.rate, refs[0]);
      expect(a.words.map((w) => w.text).join(" ")).toBe(texts[0]);
      a.words.forEach((w, i) => errors.push(Math.abs(w.start - r.words[i].start)));
      // Characters never run backwards and each ends at or after its start.
      for (let i = 0; i < a.characters.length; i++) {
        expect(a.characters[i].end).toBeGreaterThanOrEqual(a.characters[i].start);
        if (i) expect(a.characters[i].start).toBeGreaterThanOrEqual(a.characters[i - 1].start);
      }
    }
    errors.sort((x, y) => x - y);
    expect(errors[errors.length >> 1]).toBeLessThan(0.05);
    expect(errors[Math.floor(errors.length * 0.9)]).toBeLessThan(0.15);
  }, 120_000);

  it("fits the text a recording reads far better than other texts", async () => {
    for (const voice of readers().slice(0, 2)) {
      for (let t = 0; t < texts.length; t++) {
        const r = await read(voice, texts[t]);
        const losses = fitLoss(r.samples, r.rate, refs);
        const others = losses.filter((_, i) => i !== t);
        expect(losses[t]).toBeLessThan(0.8 * Math.min(...others));
      }
    }
  }, 120_000);

  it("aligns nothing to an empty recording", () => {
    expect(alignSequences(new Float32Array(0), 0, new Float32Array(ALIGN_DIM * 3), 3).cost).toBe(Infinity);
  });
});

describe("live reading", () => {
  it("reports the words read so far, in order, within half a second of their end", async () => {
    const text = texts.join(" ");
    const readings = await synthesizeReferences(engine, PREMADE, text, "en");
    for (const voice of readers().slice(0, 2)) {
      const r = await read(voice, text);
      const x = toAnalysisRate(r.samples, r.rate);
      const session = liveSession(readings);
      const reportedAt: number[] = [];
      const chunk = 4000; // a quarter of a second, as the recorder sends
      for (let i = 0; i < x.length; i += chunk) {
        const words = liveStep(session, x.subarray(i, i + chunk));
        while (reportedAt.length < words) reportedAt.push((i + chunk) / 16000);
      }
      expect(reportedAt.length).toBeGreaterThanOrEqual(r.words.length - 1);
      const lags = reportedAt.map((t, i) => t - r.words[i].end).sort((a, b) => a - b);
      expect(lags[lags.length >> 1]).toBeLessThan(0.5);
      expect(lags[0]).toBeGreaterThan(-0.5); // never far ahead of the reader
      expect(transcriptOf(session, 3)).toBe(text.split(" ").slice(0, 3).join(" "));
    }
  }, 180_000);

  it("steps the same through bytes as in memory: a session packed and unpacked after every chunk follows exactly as one kept whole", async () => {
    const text = texts[0];
    const readings = await synthesizeReferences(engine, PREMADE, text, "en");
    const r = await read(readers()[0], text);
    const x = toAnalysisRate(r.samples, r.rate);
    const kept = liveSession(readings);
    const reference = packLiveReference(kept);
    let progress = packLiveProgress(kept);
    let maxProgress = 0;
    const chunk = 4000;
    for (let i = 0; i < x.length; i += chunk) {
      const words = liveStep(kept, x.subarray(i, i + chunk));
      const revived = unpackLiveSession(reference, progress);
      expect(liveStep(revived, x.subarray(i, i + chunk))).toBe(words);
      progress = packLiveProgress(revived);
      maxProgress = Math.max(maxProgress, progress.length);
      expect(Buffer.from(progress).equals(Buffer.from(packLiveProgress(kept)))).toBe(true);
    }
    expect(kept.words).toBeGreaterThanOrEqual(text.split(" ").length - 1);
    // The per-step part stays small (DynamoDB items hold 400 KB); the reference is the big part.
    expect(maxProgress).toBeLessThan(40_000);
    expect(reference.length).toBeGreaterThan(4 * maxProgress);
  }, 120_000);
});
