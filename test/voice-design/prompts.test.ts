import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { analyzeVoice } from "../../functions/media/voice-analysis/analyze.js";
import { speak } from "../../functions/media/voice-analysis/fixtures/voices.js";
import { parsePrompt, type PromptTraits } from "../../functions/capabilities/voice-design/prompt.js";
import { designProfiles } from "../../functions/capabilities/voice-design/profiles.js";
import { PREVIEW_TEXTS } from "../../functions/capabilities/voice-design/previewText.js";

/**
 * The prompt table: 20 descriptions in 10 languages, each designed into its three previews by
 * the real engine, measured (median F0, pace as words per second of speech, and gender by F0), and checked against a
 * plain man's and woman's voice of the same language designed the same way: each preview must
 * go the way the prompt asked. The table is printed for the engine README.
 */
type Dir = "low" | "high" | "slow" | "fast";
const TABLE: Array<{ prompt: string; gender: "male" | "female"; dirs: Dir[] }> = [
  { prompt: "a deep, slow, elderly British man", gender: "male", dirs: ["low", "slow"] },
  { prompt: "a bright young American woman, fast and cheerful", gender: "female", dirs: ["high", "fast"] },
  { prompt: "a calm, soothing middle-aged woman for guided meditation", gender: "female", dirs: ["slow"] },
  { prompt: "an energetic young man, a fast-talking sports commentator", gender: "male", dirs: ["fast"] },
  // No pace word: age alone sets 145-155 wpm against the plain voice's 167, and by speech time on the same words
  // one preview is no slower than the plain voice (issue 26 measured it); "slow" was only ever the old syllable count's.
  { prompt: "a gravelly old Scottish storyteller, a man in his seventies", gender: "male", dirs: ["low"] },
  { prompt: "a high-pitched, playful young girl", gender: "female", dirs: ["high"] },
  { prompt: "a whispery, soft woman's voice, slow and gentle", gender: "female", dirs: ["slow"] },
  { prompt: "a booming, authoritative man with a deep voice", gender: "male", dirs: ["low"] },
  { prompt: "a nervous, anxious young man who talks very quickly", gender: "male", dirs: ["high", "fast"] },
  { prompt: "a wise old woman, slow and warm", gender: "female", dirs: ["low", "slow"] },
  { prompt: "Eine tiefe, ruhige Männerstimme, sehr langsam", gender: "male", dirs: ["low", "slow"] },
  { prompt: "Une jeune femme française, joyeuse et rapide, à la voix aiguë", gender: "female", dirs: ["high", "fast"] },
  { prompt: "Una mujer mayor, tranquila y muy lenta", gender: "female", dirs: ["slow"] },
  { prompt: "Un uomo giovane, energico e veloce", gender: "male", dirs: ["fast"] },
  { prompt: "Uma mulher jovem com voz aguda e alegre", gender: "female", dirs: ["high"] },
  { prompt: "Głęboki, powolny głos starego mężczyzny", gender: "male", dirs: ["low", "slow"] },
  { prompt: "Een snelle, vrolijke jonge vrouw met een hoge stem", gender: "female", dirs: ["high", "fast"] },
  { prompt: "En lugn och mycket långsam äldre man med djup röst", gender: "male", dirs: ["low", "slow"] },
  { prompt: "एक तेज़ और खुशमिज़ाज युवा महिला", gender: "female", dirs: ["fast"] },
  { prompt: "a slow, sleepy man with a low, dark voice", gender: "male", dirs: ["low", "slow"] },
];
const OPTIONS = { seed: 20261123, guidanceScale: 5, quality: 0.9, loudness: 0.5, promptStrength: 0.25 };
const RATE = 22050;
/** Gender by median F0: the engine's male bases sit below 150 Hz at their middle setting, the female ones near 200. */
const genderOf = (f0: number) => (f0 < 154 ? "male" : "female");
const firstSentence = (text: string) => text.split(/(?<=[.!?।])\s/)[0];

const engine = new EspeakEngine({ size: 2 });
beforeAll(() => engine.warm(), 60_000);
afterAll(() => engine.close());

interface Measured {
  f0: number;
  rate: number;
}

async function measure(traits: PromptTraits): Promise<Measured[]> {
  const text = firstSentence(PREVIEW_TEXTS[traits.language].story);
  return Promise.all(
    designProfiles(traits, OPTIONS).map(async (v) => {
      const a = analyzeVoice(await speak(engine, v.profile, text, { seed: OPTIONS.seed, settings: v.settings }), RATE);
      // Pace on the same words as the plain voice: words over speech time, so no syllable count
      // (which a rough or echoing old voice shifts, issue 26) stands between the setting and the figure.
      return { f0: a.f0MedianHz ?? 0, rate: text.split(/\s+/).length / a.speechSecs };
    }),
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const baselines = new Map<string, { f0: number; rate: number }>();

/** A plain voice of that language and gender, designed the same way: the median of its three previews. */
async function baseline(language: string, gender: "male" | "female") {
  const key = `${language}:${gender}`;
  if (!baselines.has(key)) {
    const plain: PromptTraits = { ...parsePrompt("a voice"), language, promptLanguage: "en", gender, age: "middle_aged" };
    const m = await measure(plain);
    baselines.set(key, { f0: median(m.map((x) => x.f0)), rate: median(m.map((x) => x.rate)) });
  }
  return baselines.get(key)!;
}

describe("the prompt table: every preview goes the way its prompt asks", () => {
  const rows: string[] = [];
  afterAll(() => {
    console.log(["| prompt | language | previews: median F0 Hz / words per s / gender | plain voice F0 / rate |", "|---|---|---|---|", ...rows].join("\n"));
  });

  it.each(TABLE)("$prompt", async ({ prompt, gender, dirs }) => {
    const traits = parsePrompt(prompt);
    expect(traits.gender, "the prompt's gender").toBe(gender);
    const base = await baseline(traits.language, gender);
    const previews = await measure(traits);
    rows.push(
      `| ${prompt} | ${traits.language} | ${previews.map((p) => `${p.f0.toFixed(0)} / ${p.rate.toFixed(2)} / ${genderOf(p.f0)}`).join("; ")} | ${base.f0.toFixed(0)} / ${base.rate.toFixed(2)} |`,
    );
    for (const [k, p] of previews.entries()) {
      const at = `preview ${k}: ${p.f0.toFixed(0)} Hz, ${p.rate.toFixed(2)}/s vs plain ${base.f0.toFixed(0)} Hz, ${base.rate.toFixed(2)}/s`;
      expect(genderOf(p.f0), at).toBe(gender);
      if (dirs.includes("low")) expect(p.f0, at).toBeLessThan(base.f0);
      if (dirs.includes("high")) expect(p.f0, at).toBeGreaterThan(base.f0);
      if (dirs.includes("slow")) expect(p.rate, at).toBeLessThan(base.rate);
      if (dirs.includes("fast")) expect(p.rate, at).toBeGreaterThan(base.rate);
    }
  });
});
