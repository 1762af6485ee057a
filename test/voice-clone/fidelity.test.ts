import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { analyzeVoice } from "../../functions/media/voice-analysis/analyze.js";
import { similarity } from "../../functions/media/voice-analysis/search.js";
import { speak } from "../../functions/media/voice-analysis/fixtures/voices.js";
import { PASSAGES } from "../../functions/media/voice-analysis/fixtures/texts.js";
import { profileFromLabels } from "../../functions/media/engine/espeak/voices.js";
import { fitProfile } from "../../functions/capabilities/cloning/fit.js";
import { calibrationPassage } from "../../functions/capabilities/cloning/passages.js";
import type { VoiceProfile } from "../../functions/media/engine/port.js";

/**
 * How close a clone comes to its speaker, on speakers nothing was tuned on: engine voices drawn
 * from labels with seeds no other fixture uses (no human recordings exist offline). Each
 * speaker's samples are its readings of the three tuning passages of its language; the fit
 * renders its own calibration passage; the comparison is on a held-out passage neither used.
 * scripts/voice-clone-measure.ts runs the same on a larger random set for the README.
 */
const RATE = 22050;
const SPEAKERS: Array<{ name: string; profile: VoiceProfile }> = [
  { name: "en female young", profile: profileFromLabels({ language: "en", gender: "female", age: "young" }, 81_001) },
  { name: "en male old", profile: profileFromLabels({ language: "en", gender: "male", age: "old" }, 81_002) },
  { name: "de male middle-aged", profile: profileFromLabels({ language: "de", gender: "male", age: "middle_aged" }, 81_003) },
  { name: "fr female old", profile: profileFromLabels({ language: "fr", gender: "female", age: "old" }, 81_004) },
  { name: "es male young", profile: profileFromLabels({ language: "es", gender: "male", age: "young" }, 81_005) },
  { name: "it female middle-aged", profile: profileFromLabels({ language: "it", gender: "female", age: "middle_aged" }, 81_006) },
];

const engine = new EspeakEngine({ size: 2 });
beforeAll(() => engine.warm(), 60_000);
afterAll(() => engine.close());

function join(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length + 4000, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length + 4000;
  }
  return out;
}

describe("a clone measures like its speaker", () => {
  const results: Array<{ name: string; source: ReturnType<typeof analyzeVoice>; clone: ReturnType<typeof analyzeVoice> }> = [];

  beforeAll(async () => {
    for (const s of SPEAKERS) {
      const lang = s.profile.language;
      const samples = join(await Promise.all(PASSAGES[lang].tuning.map((t, k) => speak(engine, s.profile, t, { seed: 100 + k }))));
      const target = analyzeVoice(samples, RATE);
      const { profile } = await fitProfile({ analysis: target, language: lang, seed: 1 }, { render: async (p) => analyzeVoice(await speak(engine, p, calibrationPassage(lang), { seed: 3, settings: { stability: 1 } }), RATE) });
      const held = PASSAGES[lang].heldOut[0];
      results.push({
        name: s.name,
        source: analyzeVoice(await speak(engine, s.profile, held, { seed: 55 }), RATE),
        clone: analyzeVoice(await speak(engine, profile, held, { seed: 56 }), RATE),
      });
    }
  }, 600_000);

  it("median pitch within 10% and speaking rate within 15% of the speaker's", () => {
    for (const r of results) {
      expect(Math.abs(r.clone.f0MedianHz! / r.source.f0MedianHz! - 1), r.name).toBeLessThan(0.1);
      // Pace as speech time of the same words: the analyser's syllable-nucleus rate is what the
      // fit matches, so it would grade the fit by its own measure.
      expect(Math.abs(r.source.speechSecs / r.clone.speechSecs - 1), r.name).toBeLessThan(0.15);
    }
  });

  it("its embedding is nearer its own speaker than any other enrolled speaker", () => {
    for (const r of results) {
      const scores = results.map((o) => ({ name: o.name, score: similarity(r.clone.embedding, o.source.embedding) }));
      const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
      expect(best.name, JSON.stringify(scores)).toBe(r.name);
    }
  });
});
