import { describe, expect, it } from "vitest";
import { planJobs } from "./espeak/engine.js";
import { planChunk, prosodyFor } from "./espeak/plan.js";
import type { SynthesisRequest } from "./port.js";

const base: SynthesisRequest = {
  text: "",
  voice: { language: "en", gender: "female", age: "young", pitch: 50, pitchRange: 50, rate: 170, timbre: 0.2, seed: 1 },
  settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 },
  seed: 9,
  model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false },
};

describe("planning a request", () => {
  const text = "The old lighthouse stood at the edge of the cliff, its white paint peeling after decades of salt and wind. It was quiet.";

  it("starts with a short first chunk, shorter still for the fast models", () => {
    const standard = planJobs({ ...base, text }).map((j) => j.job.text);
    const fast = planJobs({ ...base, text, model: { ...base.model, quality: "fast" } }).map((j) => j.job.text);
    expect(standard.join("")).toBe(text);
    expect(fast.join("")).toBe(text);
    expect(standard[0]).toBe("The old lighthouse stood at the edge of the cliff, ");
    expect(fast[0].length).toBeLessThan(standard[0].length);
  });

  it("marks chunks cut inside a sentence, and the last one only when next_text follows", () => {
    const jobs = planJobs({ ...base, text });
    expect(jobs.map((j) => j.job.continuation)).toEqual([true, true, false]);
    expect(planJobs({ ...base, text: "I went to the store", nextText: "and bought milk." })[0].job.continuation).toBe(true);
    // The hidden comma only goes where the text has no punctuation of its own.
    const bare = planChunk({ ...planJobs({ ...base, text: "I went to the store", nextText: "and then" })[0].job });
    expect(bare.line.line).toMatch(/store(<\/prosody>)?,<\/prosody>/);
    expect(planChunk(jobs[0].job).line.line).not.toMatch(/, ,/);
  });

  it("moves phoneme spans into chunk coordinates and never splits them", () => {
    const t = "First sentence here. Then I say tomato and leave.";
    const at = t.indexOf("tomato");
    const jobs = planJobs({ ...base, text: t, phonemeSpans: [{ start: at, end: at + 6, phonemes: "təˈmɑːtoʊ", alphabet: "ipa" }] });
    const withSpan = jobs.find((j) => j.job.phonemeSpans.length === 1)!;
    expect(withSpan.job.text.slice(withSpan.job.phonemeSpans[0].start, withSpan.job.phonemeSpans[0].end)).toBe("tomato");
    expect(planChunk(withSpan.job).line.line).toContain("[[t@'mA:toU]]");
  });

  it.each([
    ["escapes", "&<>".repeat(400)],
    ["three-byte script", "आज मौसम अच्छा है। ".repeat(60)],
    ["one endless word", "x".repeat(3000)],
    ["emoji", "😀 ".repeat(500)],
  ])("keeps every line within eSpeak's input limit (%s)", (_, t) => {
    const jobs = planJobs({ ...base, text: t, settings: { ...base.settings, stability: 0, style: 1 } });
    expect(jobs.map((j) => j.job.text).join("")).toBe(t);
    for (const j of jobs) expect(() => planChunk(j.job)).not.toThrow();
  });
});

describe("prosody numbers", () => {
  it("speed scales the rate; stability 1 removes the seeded variation", () => {
    expect(prosodyFor(base.voice, { ...base.settings, speed: 0.7 }, 1, 0).wpm).toBe(119);
    const steady = [1, 2, 3].map((seed) => prosodyFor(base.voice, { ...base.settings, stability: 1 }, seed, 0));
    expect(new Set(steady.map((p) => p.pitch)).size).toBe(1);
    expect(steady[0].jitter).toBe(0);
    const loose = [1, 2, 3, 4, 5].map((seed) => prosodyFor(base.voice, { ...base.settings, stability: 0 }, seed, 0));
    expect(new Set(loose.map((p) => p.pitch)).size).toBeGreaterThan(1);
  });

  it("style widens the range and adds emphasis", () => {
    const flat = prosodyFor(base.voice, { ...base.settings, style: 0 }, 1, 0);
    const expressive = prosodyFor(base.voice, { ...base.settings, style: 1 }, 1, 0);
    expect(expressive.range).toBeGreaterThan(flat.range);
    expect(flat.emphasis).toBe(0);
    expect(expressive.emphasis).toBeGreaterThan(0);
  });
});
