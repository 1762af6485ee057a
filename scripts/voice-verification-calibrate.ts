/**
 * Calibrates and measures voice verification on speakers nothing was tuned on.
 *
 *   node --import tsx scripts/voice-verification-calibrate.ts [speakers per set, default 24]
 *
 * Two disjoint sets of designed voices (seeds unlike every other fixture): on the first the
 * thresholds are chosen (equal error rate for the speaker score, the midpoint of the gap for the
 * sentence margin), on the second their false accept and false reject rates are measured. Each
 * speaker's "samples" are its reading of the three tuning passages of its language (denoised
 * like a clone's), its clone is fitted as the API fits it, and its "recording" is a reading of a
 * fresh challenge sentence at a different pace with 25 dB of white noise, denoised like the
 * server does. An impostor is another speaker of the set reading the same sentence; a wrong text
 * is the genuine speaker reading another sentence.
 *
 * Two speaker scores are calibrated: the mean of the two cosines (a fitted voice: instant clones,
 * professional clones after fine-tuning) and the cosine to the samples alone (a professional clone
 * before fine-tuning, whose engine reading is not its speaker yet).
 */
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { analyzeVoice } from "../functions/media/voice-analysis/analyze.js";
import { sentenceCosts } from "../functions/media/voice-analysis/align.js";
import { designedVoices, speak, type NamedVoice } from "../functions/media/voice-analysis/fixtures/voices.js";
import { PASSAGES } from "../functions/media/voice-analysis/fixtures/texts.js";
import { equalErrorRate, summary } from "../functions/media/voice-analysis/fixtures/metrics.js";
import { denoise } from "../functions/media/audio/denoise/index.js";
import { fitProfile } from "../functions/capabilities/cloning/fit.js";
import { calibrationPassage } from "../functions/capabilities/cloning/passages.js";
import { challengeLanguage, decoysFor, newChallenge } from "../functions/capabilities/voice-verification/challenge.js";
import { SAMPLES_ONLY_THRESHOLD, SENTENCE_MARGIN_THRESHOLD, SPEAKER_THRESHOLD, sentenceMargin, speakerScore, speakerSimilarity } from "../functions/capabilities/voice-verification/scoring.js";
import type { VoiceProfile } from "../functions/media/engine/port.js";

const N = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 24);
/** --held-out-only: measure the thresholds in use without choosing them again. */
const HELD_OUT_ONLY = process.argv.includes("--held-out-only");
const RATE = 22050;
const engine = new EspeakEngine();
await engine.warm();

function noisy(x: Float32Array, snrDb: number, seed: number): Float32Array {
  let p = 0;
  for (const v of x) p += v * v;
  const amp = Math.sqrt((p / x.length / 10 ** (snrDb / 10)) * 3);
  const out = Float32Array.from(x);
  let s = seed >>> 0;
  for (let i = 0; i < out.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] += amp * ((s / 2 ** 32) * 2 - 1);
  }
  return out;
}

interface Speaker {
  voice: NamedVoice;
  language: string;
  samplesEmbedding: number[];
  clone: VoiceProfile;
}

async function enrol(v: NamedVoice): Promise<Speaker> {
  const lang = v.profile.language;
  const parts = await Promise.all(PASSAGES[lang].tuning.map((t, k) => speak(engine, v.profile, t, { seed: 100 + k })));
  const joined = new Float32Array(parts.reduce((n, p) => n + p.length + 4000, 0));
  let at = 0;
  for (const p of parts) {
    joined.set(p, at);
    at += p.length + 4000;
  }
  const a = analyzeVoice(await denoise(joined, RATE), RATE);
  const fit = await fitProfile({ analysis: a, language: lang, seed: 1 }, { render: async (p) => analyzeVoice(await speak(engine, p, calibrationPassage(lang), { seed: 3, settings: { stability: 1 } }), RATE) });
  return { voice: v, language: lang, samplesEmbedding: a.embedding, clone: fit.profile };
}

async function reading(v: VoiceProfile, text: string, seed: number): Promise<Float32Array> {
  const speed = 0.9 + ((seed * 7) % 5) * 0.05;
  return denoise(noisy(await speak(engine, v, text, { seed, settings: { speed } }), 25, seed), RATE);
}

interface Scores {
  genuine: number[];
  impostor: number[];
  hardImpostor: number[];
  /** The cosine to the samples alone. */
  genuineSamples: number[];
  impostorSamples: number[];
  hardImpostorSamples: number[];
  margins: number[];
  wrongText: number[];
}

async function scoreSet(seed: number): Promise<Scores> {
  const speakers: Speaker[] = [];
  for (const v of designedVoices(N, seed)) speakers.push(await enrol(v));
  const out: Scores = { genuine: [], impostor: [], hardImpostor: [], genuineSamples: [], impostorSamples: [], hardImpostorSamples: [], margins: [], wrongText: [] };
  for (const [i, s] of speakers.entries()) {
    const lang = challengeLanguage(s.language);
    const text = newChallenge(lang);
    const candidates = [text, ...decoysFor(text, lang, `calibration-${seed}-${i}`)];
    const readings = await Promise.all(candidates.map((c) => speak(engine, s.clone, c, { seed: 1 })));
    const sentenceEmbedding = analyzeVoice(readings[0], RATE).embedding;
    const score = (rec: Float32Array) => {
      const e = analyzeVoice(rec, RATE).embedding;
      const toSamples = speakerSimilarity(e, s.samplesEmbedding);
      return { fitted: speakerScore(toSamples, speakerSimilarity(e, sentenceEmbedding)), samplesOnly: toSamples };
    };
    const own = await reading(s.voice.profile, text, 500 + i);
    const g = score(own);
    out.genuine.push(g.fitted);
    out.genuineSamples.push(g.samplesOnly);
    out.margins.push(sentenceMargin(sentenceCosts(own, RATE, readings, RATE)).margin);
    const other = await reading(s.voice.profile, newChallenge(lang), 600 + i);
    out.wrongText.push(sentenceMargin(sentenceCosts(other, RATE, readings, RATE)).margin);
    for (const [j, t] of speakers.entries()) {
      if (i === j) continue;
      const sc = score(await reading(t.voice.profile, text, 700 + j));
      out.impostor.push(sc.fitted);
      out.impostorSamples.push(sc.samplesOnly);
      if (t.language === s.language && t.voice.profile.gender === s.voice.profile.gender) {
        out.hardImpostor.push(sc.fitted);
        out.hardImpostorSamples.push(sc.samplesOnly);
      }
    }
  }
  return out;
}

const rate = (xs: number[], pass: (x: number) => boolean) => (xs.length ? xs.filter(pass).length / xs.length : NaN);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

let suggested: { speaker: number; samplesOnly: number } | undefined;
if (!HELD_OUT_ONLY) {
  const tune = await scoreSet(31_337);
  const speakerEer = equalErrorRate(tune.genuine, tune.impostor);
  const samplesOnlyEer = equalErrorRate(tune.genuineSamples, tune.impostorSamples);
  const gapLow = Math.max(...tune.wrongText);
  const gapHigh = Math.min(...tune.margins);
  suggested = { speaker: speakerEer.threshold, samplesOnly: samplesOnlyEer.threshold };
  console.log("tuning set:", { speakerEer, samplesOnlyEer, sentenceGap: [gapLow, gapHigh], suggestedSpeakerThreshold: speakerEer.threshold, suggestedMargin: (gapLow + gapHigh) / 2 });
}

const test = await scoreSet(27_182);
console.log(`held-out set (${N} speakers), thresholds in use: speaker ${SPEAKER_THRESHOLD}, sentence margin ${SENTENCE_MARGIN_THRESHOLD}`);
console.log("speaker score genuine", summary(test.genuine), "impostor", summary(test.impostor), "same language and gender", test.hardImpostor.length ? summary(test.hardImpostor) : "none");
console.log("speaker: false reject", pct(rate(test.genuine, (x) => x < SPEAKER_THRESHOLD)), "false accept", pct(rate(test.impostor, (x) => x >= SPEAKER_THRESHOLD)), "false accept (same language and gender)", pct(rate(test.hardImpostor, (x) => x >= SPEAKER_THRESHOLD)), `(${test.hardImpostor.length} pairs)`);
console.log(`samples only (professional clones before fine-tuning), threshold ${SAMPLES_ONLY_THRESHOLD}: genuine`, summary(test.genuineSamples), "impostor", summary(test.impostorSamples));
console.log("samples only: false reject", pct(rate(test.genuineSamples, (x) => x < SAMPLES_ONLY_THRESHOLD)), "false accept", pct(rate(test.impostorSamples, (x) => x >= SAMPLES_ONLY_THRESHOLD)), "false accept (same language and gender)", pct(rate(test.hardImpostorSamples, (x) => x >= SAMPLES_ONLY_THRESHOLD)));
if (suggested) {
  const at = suggested;
  console.log(`held-out at the suggested thresholds (speaker ${at.speaker.toFixed(3)}, samples only ${at.samplesOnly.toFixed(3)}):`, {
    speaker: { falseReject: pct(rate(test.genuine, (x) => x < at.speaker)), falseAccept: pct(rate(test.impostor, (x) => x >= at.speaker)), sameLanguageAndGender: pct(rate(test.hardImpostor, (x) => x >= at.speaker)) },
    samplesOnly: { falseReject: pct(rate(test.genuineSamples, (x) => x < at.samplesOnly)), falseAccept: pct(rate(test.impostorSamples, (x) => x >= at.samplesOnly)), sameLanguageAndGender: pct(rate(test.hardImpostorSamples, (x) => x >= at.samplesOnly)) },
  });
}
console.log("sentence margin genuine", summary(test.margins), "wrong text", summary(test.wrongText));
console.log("sentence: false reject", pct(rate(test.margins, (x) => x < SENTENCE_MARGIN_THRESHOLD)), "false accept", pct(rate(test.wrongText, (x) => x >= SENTENCE_MARGIN_THRESHOLD)));
await engine.close();
