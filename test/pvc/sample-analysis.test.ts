import { afterAll, describe, expect, it } from "vitest";
import { analyzeVoice, analyzeVoiceBounded } from "../../functions/media/voice-analysis/analyze.js";
import { createVoiceAnalyzer } from "../../functions/media/voice-analysis/analyzer.js";
import { similarity } from "../../functions/media/voice-analysis/search.js";
import { decodeWav } from "../../functions/media/audio/wav.js";
import { PASSAGES } from "../../functions/media/voice-analysis/fixtures/texts.js";
import { HELD_OUT_LINES, TUNING_LINES } from "../../functions/media/separation/fixtures/conversation.js";
import { SAMPLE_ANALYSIS_BUDGET } from "../../functions/capabilities/fine-tuning/train.js";
import type { VoiceAnalysis } from "../../functions/media/voice-analysis/port.js";
import { outsideSpeech } from "../support/outside-speech.js";

/**
 * Fine-tuning measures each sample's voice on an evenly spread 3 minutes of it and its levels on
 * every second (analyze.ts `analyzeVoiceBounded`, train.ts SAMPLE_ANALYSIS_BUDGET), on speech
 * Timbre's engine did not make: flite's rms and slt read every English passage and line of the
 * fixtures, one after the other (a sample of about 6 minutes, two speakers: the measures must follow the whole, not its
 * first minutes).
 */
const RATE = 16_000;
const texts = [...PASSAGES.en.tuning, ...PASSAGES.en.heldOut, ...TUNING_LINES, ...HELD_OUT_LINES];

async function reading(voice: string, lines = texts): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (const t of lines) {
    const w = decodeWav(new Uint8Array(await outsideSpeech(voice, t)));
    expect(w.sampleRate).toBe(RATE);
    out.push(w.pcm);
  }
  return out;
}

function join(parts: Float32Array[]): Float32Array {
  const x = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    x.set(p, at);
    at += p.length;
  }
  return x;
}

const LEVELS = ["durationSecs", "speechSecs", "segments", "loudnessLufs", "rmsDbfs", "peakDbfs", "snrDb", "clippingRatio"] as const;
const pick = (a: VoiceAnalysis, keys: readonly (keyof VoiceAnalysis)[]) => Object.fromEntries(keys.map((k) => [k, a[k]]));
const off = (a: number | null, b: number | null) => Math.abs(a! / b! - 1);

const analyzer = createVoiceAnalyzer({ size: 1 });
afterAll(() => analyzer.close());

describe("a long sample's analysis at a bounded cost", () => {
  it("measures the levels on every second and the voice within a few per cent of the whole", async () => {
    const x = join([...(await reading("flite-rms")), ...(await reading("flite-slt"))]);
    const budgetSecs = SAMPLE_ANALYSIS_BUDGET.windows * SAMPLE_ANALYSIS_BUDGET.windowSecs;
    expect(x.length / RATE).toBeGreaterThan(1.5 * budgetSecs);
    const whole = analyzeVoice(x, RATE);
    const bounded = analyzeVoiceBounded(x, RATE, SAMPLE_ANALYSIS_BUDGET);

    // How much speech, how loud, how clean: the same numbers as the whole analysis.
    expect(pick(bounded, LEVELS)).toEqual(pick(whole, LEVELS));
    expect(whole.speechSecs).toBeGreaterThan(budgetSecs);

    // The voice: measured on the windows alone (evenly spread, first to last second, joined)...
    const w = SAMPLE_ANALYSIS_BUDGET.windowSecs * RATE;
    const n = SAMPLE_ANALYSIS_BUDGET.windows;
    const windows = Array.from({ length: n }, (_, k) => {
      const start = Math.round((k * (x.length - w)) / (n - 1));
      return x.subarray(start, start + w);
    });
    const part = analyzeVoice(join(windows), RATE);
    const VOICE = ["embedding", "f0MedianHz", "f0P10Hz", "f0P90Hz", "voicedRatio", "speakingRate", "ltasDb", "logSpectrumDb", "spectralCentroidHz", "spectralTiltDbPerOctave", "formantsHz"] as const;
    expect(pick(bounded, VOICE)).toEqual(pick(part, VOICE));
    // ...and within the stated tolerances of the whole (measured: cosine 0.9997-1, pitch within
    // 0.8 %, formants 1.9 %, pace 2.6 % on flite's four English voices, 3-11 minutes).
    expect(similarity(bounded.embedding, whole.embedding)).toBeGreaterThan(0.999);
    expect(off(bounded.f0MedianHz, whole.f0MedianHz)).toBeLessThan(0.02);
    expect(off(bounded.f0P10Hz, whole.f0P10Hz)).toBeLessThan(0.03);
    expect(off(bounded.f0P90Hz, whole.f0P90Hz)).toBeLessThan(0.03);
    for (let k = 0; k < 3; k++) expect(off(bounded.formantsHz[k], whole.formantsHz[k]), `F${k + 1}`).toBeLessThan(0.03);
    expect(off(bounded.speakingRate, whole.speakingRate)).toBeLessThan(0.04);
    expect(Math.abs(bounded.voicedRatio - whole.voicedRatio)).toBeLessThan(0.03);
    for (const [i, v] of bounded.ltasDb.entries()) expect(Math.abs(v - whole.ltasDb[i]), `band ${i}`).toBeLessThan(1);
  }, 120_000);

  it("analyses a sample no longer than the windows whole: the same result as without a budget, to the bit", async () => {
    const x = join(await reading("flite-slt", PASSAGES.en.heldOut));
    expect(x.length / RATE).toBeLessThan(SAMPLE_ANALYSIS_BUDGET.windows * SAMPLE_ANALYSIS_BUDGET.windowSecs);
    const whole = analyzeVoice(x, RATE);
    expect(analyzeVoiceBounded(x, RATE, SAMPLE_ANALYSIS_BUDGET)).toEqual(whole);
    // A budget of less than it lasts reads the windows only: the voice differs, the levels do not.
    const small = { windows: 2, windowSecs: 4 };
    expect(x.length / RATE).toBeGreaterThan(2 * small.windows * small.windowSecs);
    const bounded = analyzeVoiceBounded(x, RATE, small);
    expect(bounded.embedding).not.toEqual(whole.embedding);
    expect(pick(bounded, LEVELS)).toEqual(pick(whole, LEVELS));
    // Through the analyser's workers (what fine-tuning calls): the budget reaches the worker, the same result.
    expect(await analyzer.analyzeSamples(x, RATE, { budget: small })).toEqual(bounded);
    expect(await analyzer.analyzeSamples(x, RATE, { budget: SAMPLE_ANALYSIS_BUDGET })).toEqual(whole);
  }, 120_000);
});
