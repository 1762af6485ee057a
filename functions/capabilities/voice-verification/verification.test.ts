import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challengeLanguage, decoysFor, levenshtein, newChallenge, wordsFor, WORDS_PER_CHALLENGE, DECOYS } from "./challenge.js";
import { attemptWindow } from "./attempts.js";
import { hashSeed, prng } from "../../media/engine/prng.js";
import { sentenceMargin, SENTENCE_MARGIN_THRESHOLD } from "./scoring.js";
import { PNG } from "pngjs";
import { CAPTCHA_MAX_WIDTH, canDraw, captchaPng, glyphsOf } from "./captcha.js";
import { blankVerification, type VerificationRecord } from "../../platform/stores/voices.js";
import { sentenceCosts, utteranceFeatures, dtwCost } from "../../media/voice-analysis/align.js";
import { EspeakEngine } from "../../media/engine/espeak/engine.js";
import { speak } from "../../media/voice-analysis/fixtures/voices.js";
import { profileFromLabels } from "../../media/engine/espeak/voices.js";
import { premadeVoices } from "../../media/voice-analysis/fixtures/voices.js";
import { PASSAGES } from "../../media/voice-analysis/fixtures/texts.js";
import { analyzeVoice } from "../../media/voice-analysis/analyze.js";
import { estimateProfile } from "../cloning/fit.js";
import type { VoiceProfile } from "../../media/engine/port.js";

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

  it("draws the same sentences from the same seeded source (tests), unpredictable ones from node:crypto", () => {
    const seeded = () => prng(hashSeed("verification-challenges", 1));
    const [a, b] = [seeded(), seeded()];
    const first = Array.from({ length: 5 }, () => newChallenge("en", a));
    expect(Array.from({ length: 5 }, () => newChallenge("en", b))).toEqual(first);
    expect(new Set(first).size).toBe(5);
    expect(new Set(Array.from({ length: 5 }, () => newChallenge("en"))).size).toBe(5);
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

  it("becomes a PNG for the professional clone's captcha: decodable, a sane size, drawn anew for every seed", () => {
    const text = "Apple, rivière, żółty, pôr do sol, garden, zonsondergang.";
    const a = captchaPng({ text, seed: 1 });
    const b = captchaPng({ text, seed: 2 });
    for (const img of [a, b]) {
      const png = PNG.sync.read(Buffer.from(img));
      expect(png.width).toBeGreaterThanOrEqual(200);
      expect(png.width).toBeLessThanOrEqual(CAPTCHA_MAX_WIDTH);
      expect(png.height).toBeGreaterThan(60);
      expect(png.height).toBeLessThan(600);
      expect(img.byteLength).toBeLessThan(300_000);
      // Ink: a good share of dark pixels (the letters), most of the image pale (the paper).
      let dark = 0;
      for (let i = 0; i < png.data.length; i += 4) if (png.data[i] + png.data[i + 1] + png.data[i + 2] < 300) dark++;
      const share = dark / (png.width * png.height);
      expect(share).toBeGreaterThan(0.03);
      expect(share).toBeLessThan(0.4);
    }
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    // More words, more ink.
    const one = PNG.sync.read(Buffer.from(captchaPng({ text: "Apple.", seed: 1 })));
    expect(one.width * one.height).toBeLessThan(PNG.sync.read(Buffer.from(a)).width * PNG.sync.read(Buffer.from(a)).height);
  });

  it("draws every letter of the Latin word lists, and says so for scripts it cannot draw", () => {
    for (const lang of ["en", "de", "fr", "es", "it", "pt", "pl", "nl", "sv"]) expect(canDraw(wordsFor(lang).join(" ")), lang).toBe(true);
    expect(canDraw(wordsFor("hi").join(" "))).toBe(false);
    expect(glyphsOf("Größe").length).toBe(6); // ß is drawn as SS
    expect(glyphsOf("é")[0].marks.length).toBe(1);
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

  it("reads with a profile estimated from the samples when the voice is not fitted yet (a deep old voice, three sentences)", async () => {
    const desmond = premadeVoices().find((v) => v.name === "Desmond")!.profile;
    const samples = await speak(engine, desmond, PASSAGES.en.tuning[0], { seed: 100 });
    const estimate = estimateProfile({ analysis: analyzeVoice(samples, 22050), language: "en", seed: 5 });
    expect(estimate.gender).toBe("male");
    // What a professional clone without labels starts with (functions/capabilities/pvc/records.ts).
    const fallback = profileFromLabels({ language: "en", gender: "neutral", age: "middle_aged" }, 5);
    for (let k = 0; k < 3; k++) {
      // A fixed sentence of six list words (decoys are seeded by the id).
      const text = decoysFor("Apple.", "en", `estimate-${k}`)[0];
      const candidates = [text, ...decoysFor(text, "en", `estimate-decoys-${k}`)];
      const recording = await speak(engine, desmond, text, { seed: 40 + k });
      const margin = async (p: VoiceProfile) => sentenceMargin(sentenceCosts(recording, 22050, await Promise.all(candidates.map((c) => speak(engine, p, c, { seed: 1 }))), 22050)).margin;
      const [withEstimate, withDefault] = [await margin(estimate), await margin(fallback)];
      expect(withEstimate).toBeGreaterThan(SENTENCE_MARGIN_THRESHOLD);
      expect(withEstimate).toBeGreaterThan(withDefault);
    }
  }, 60_000);

  it("cuts silence around the speech and refuses utterances of wildly different length", async () => {
    const speech = await speak(engine, speaker, "Silver, window.", { seed: 1 });
    const padded = new Float32Array(speech.length + 44100);
    padded.set(speech, 22050);
    expect(Math.abs(utteranceFeatures(padded, 22050).frames - utteranceFeatures(speech, 22050).frames)).toBeLessThan(15);
    const long = await speak(engine, speaker, "Silver, window, apple, river, yellow, garden, tiger, lemon, copper, candle.", { seed: 1 });
    expect(dtwCost(utteranceFeatures(speech, 22050), utteranceFeatures(long, 22050))).toBe(Infinity);
  });
});
