import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challengeLanguage, decoysFor, levenshtein, newChallenge, wordsFor, WORDS_PER_CHALLENGE, DECOYS } from "./challenge.js";
import { attemptWindow } from "./attempts.js";
import { sentenceMargin, SENTENCE_MARGIN_THRESHOLD } from "./scoring.js";
import { captchaSvg } from "./captcha.js";
import { blankVerification, type VerificationRecord } from "../adapters/dynamo/voices.js";
import { sentenceCosts, utteranceFeatures, dtwCost } from "../voice-analysis/align.js";
import { EspeakEngine } from "../engine/espeak/engine.js";
import { speak } from "../voice-analysis/fixtures/voices.js";
import { profileFromLabels } from "../engine/espeak/voices.js";

describe("the sentence to read", () => {
  it("is six distinct words of the voice's language, new every time", () => {
    const a = newChallenge("de");
    const words = a.replace(/\.$/, "").split(", ");
    expect(words).toHaveLength(WORDS_PER_CHALLENGE);
    expect(new Set(words.map((w) => w.toLowerCase())).size).toBe(WORDS_PER_CHALLENGE);
    for (const w of words) expect(wordsFor("de").map((x) => x.toLowerCase())).toContain(w.toLowerCase());
    expect(new Set(Array.from({ length: 20 }, () => newChallenge("de"))).size).toBeGreaterThan(15);
    expect(challengeLanguage("fr")).toBe("fr");
    expect(challengeLanguage("fi")).toBe("en");
  });

  it("has decoys that share no word with it and are the same for the same attempt", () => {
    const text = newChallenge("en");
    const decoys = decoysFor(text, "en", "attempt-1");
    expect(decoys).toHaveLength(DECOYS);
    expect(decoysFor(text, "en", "attempt-1")).toEqual(decoys);
    const own = new Set(text.replace(/\.$/, "").toLowerCase().split(", "));
    for (const d of decoys) for (const w of d.replace(/\.$/, "").toLowerCase().split(", ")) expect(own.has(w)).toBe(false);
  });

  it("measures edit distance", () => {
    expect(levenshtein("kitten", "sitting")).toBe(3);
    expect(levenshtein("Apple, river.", "apple, river.")).toBe(0);
  });

  it("becomes an SVG image for the professional clone's captcha, with the words escaped", () => {
    const svg = captchaSvg("Apple, <river>, yellow.");
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain("&lt;river&gt;");
    expect(svg).not.toContain("<river>");
  });
});

describe("the attempt window", () => {
  const now = 1_800_000_000_000;
  const withAttempts = (n: number, resetMs: number | null, status: "rejected" | "error" = "rejected"): VerificationRecord => ({
    ...blankVerification("en", true),
    next_attempts_reset_unix_ms: resetMs,
    attempts: Array.from({ length: n }, () => ({ text: "x", date_unix: Math.floor(now / 1000) - 60, accepted: false, similarity: 0, levenshtein_distance: 0, recording: null, status })),
  });

  it("counts attempts since the window opened, and none once it has reset", () => {
    expect(attemptWindow(withAttempts(0, null), now)).toEqual({ used: 0, left: 5, resetMs: null });
    expect(attemptWindow(withAttempts(3, now + 3600_000), now)).toMatchObject({ used: 3, left: 2 });
    expect(attemptWindow(withAttempts(5, now + 1000), now)).toMatchObject({ used: 5, left: 0 });
    expect(attemptWindow(withAttempts(5, now - 1000), now)).toEqual({ used: 0, left: 5, resetMs: null });
  });

  it("does not count attempts that failed on our side", () => {
    expect(attemptWindow(withAttempts(4, now + 3600_000, "error"), now)).toMatchObject({ used: 0, left: 5 });
  });
});

describe("alignment by synthesis", () => {
  const engine = new EspeakEngine({ size: 2 });
  beforeAll(() => engine.warm(), 60_000);
  afterAll(() => engine.close());
  const speaker = profileFromLabels({ language: "en", gender: "male", age: "middle_aged" }, 31);
  const reader = profileFromLabels({ language: "en", gender: "male", age: "young" }, 32);

  it("finds the sentence a recording says among decoys, whoever reads it and at another pace", async () => {
    const text = "Apple, river, yellow, garden, window, silver.";
    const candidates = [text, ...decoysFor(text, "en", "align-test")];
    const readings = await Promise.all(candidates.map((c) => speak(engine, speaker, c, { seed: 1 })));
    const recording = await speak(engine, reader, text, { seed: 7, settings: { speed: 0.85 } });
    const costs = sentenceCosts(recording, 22050, readings, 22050);
    const m = sentenceMargin(costs);
    expect(costs.indexOf(Math.min(...costs))).toBe(0);
    expect(m.margin).toBeGreaterThan(SENTENCE_MARGIN_THRESHOLD);
    // Another sentence fits no candidate clearly.
    const other = await speak(engine, reader, "Tomorrow we will paint the fence and plant tulips.", { seed: 7 });
    expect(sentenceMargin(sentenceCosts(other, 22050, readings, 22050)).margin).toBeLessThan(SENTENCE_MARGIN_THRESHOLD);
  });

  it("cuts silence around the speech and refuses utterances of wildly different length", async () => {
    const speech = await speak(engine, speaker, "Silver, window.", { seed: 1 });
    const padded = new Float32Array(speech.length + 44100);
    padded.set(speech, 22050);
    expect(Math.abs(utteranceFeatures(padded, 22050).frames - utteranceFeatures(speech, 22050).frames)).toBeLessThan(15);
    const long = await speak(engine, speaker, "Silver, window, apple, river, yellow, garden, tiger, lemon, copper, candle.", { seed: 1 });
    expect(dtwCost(utteranceFeatures(speech, 22050), utteranceFeatures(long, 22050))).toBe(Infinity);
  });
});
