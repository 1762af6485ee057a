/**
 * Issue 26's measures of voice verification on speech Timbre's engine did not make, shared by the calibration scripts
 * (scripts/voice-verification-outside.ts, scripts/voice-verification-speakers.ts) and the test that asserts the goals
 * (./outside.test.ts). The checks are the workflow's own: functions/media/voice-analysis/align.ts with the reading
 * voices of functions/capabilities/voice-verification/scoring.ts, and the cohort score of
 * test/voice-verification/cohort.ts.
 */
import type { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { costsAgainst, utteranceFeatures } from "../../functions/media/voice-analysis/align.js";
import { analyzeVoice } from "../../functions/media/voice-analysis/analyze.js";
import { speak } from "../../functions/media/voice-analysis/fixtures/voices.js";
import { cohortScore } from "./cohort.js";
import { similarity } from "../../functions/media/voice-analysis/search.js";
import { decoysFor, newChallenge } from "../../functions/capabilities/voice-verification/challenge.js";
import { readingVoices, sentenceMargin } from "../../functions/capabilities/voice-verification/scoring.js";
import { hashSeed, prng } from "../../functions/media/engine/prng.js";
import { denoise } from "../../functions/media/audio/denoise/index.js";
import { decodeWav } from "../../functions/media/audio/wav.js";
import { profileFromLabels } from "../../functions/media/engine/espeak/voices.js";
import { OUTSIDE_VOICES, outsideSpeech, outsideVoiceAvailable, type Degradation, type OutsideVoice } from "../support/outside-speech.js";
import { SPEAKER_TEXTS } from "./outside-texts.js";

export const CONDITIONS: Record<string, Degradation[]> = {
  clean: [],
  "white 20 dB": [{ kind: "noise", color: "white", snrDb: 20 }],
  "pink 15 dB": [{ kind: "noise", color: "pink", snrDb: 15 }],
};

/** Mono float samples at 16 kHz of an outside voice reading `text`. */
export async function outsidePcm(v: OutsideVoice | string, text: string, deg: Degradation[] = []): Promise<Float32Array> {
  const { pcm } = decodeWav(new Uint8Array(await outsideSpeech(v, text, deg)));
  return Float32Array.from(pcm);
}

/** What the server does to a recording before both checks (the workflow's prepare step). */
export const prepared = async (x: Float32Array) => denoise(x, 16000);

export interface SentenceRow { voice: string; split: string; condition: string; genuine: number; wrong: number }

/**
 * The sentence check on outside English readers: for sentence i, the shown sentence (six list words) and its decoys; a
 * genuine reading says the sentence, a wrong-words reading says another six-word sentence. The reading voices are the
 * workflow's, with a neutral designed profile as "the voice's own" (what an unfitted clone reads with).
 */
export async function sentenceRows(engine: EspeakEngine, opts: { sentences: number; first?: number; conditions: string[]; voices?: string[] }): Promise<SentenceRow[]> {
  const own = profileFromLabels({ language: "en", gender: "neutral", age: "middle_aged" }, 5);
  const voices = readingVoices("en", own);
  const readers = OUTSIDE_VOICES.filter((v) => v.language === "en" && outsideVoiceAvailable(v) && (!opts.voices || opts.voices.includes(v.id)));
  const rows: SentenceRow[] = [];
  for (let i = opts.first ?? 0; i < (opts.first ?? 0) + opts.sentences; i++) {
    const rand = prng(hashSeed("outside-sentences", i));
    const text = newChallenge("en", rand);
    const wrongText = newChallenge("en", rand);
    const candidates = [text, ...decoysFor(text, "en", `outside-${i}`)];
    const readings = await Promise.all(candidates.flatMap((c) => voices.map((p) => speak(engine, p, c, { seed: 1 }))));
    // sentenceCosts(rec, 16000, readings, 22050), with the readings' features made once for every recording of sentence i.
    const features = readings.map((r) => utteranceFeatures(r, 22050));
    const margin = (rec: Float32Array) => sentenceMargin(costsAgainst(rec, 16000, features), voices.length).margin;
    for (const v of readers) {
      for (const condition of opts.conditions) {
        const genuine = margin(await prepared(await outsidePcm(v, text, CONDITIONS[condition])));
        const wrong = margin(await prepared(await outsidePcm(v, wrongText, CONDITIONS[condition])));
        rows.push({ voice: v.id, split: v.split, condition, genuine, wrong });
      }
    }
  }
  return rows;
}

export interface Speaker { id: string; voice: OutsideVoice; shift: Degradation[]; split: "tune" | "heldout"; gender: string; language: string }

/** Every available outside voice and two sox-shifted variants of it (other vocal tracts of the same gender). */
export function speakers(variants = true): Speaker[] {
  const shifts: Array<{ suffix: string; shift: Degradation[] }> = [
    { suffix: "", shift: [] },
    ...(variants
      ? [
          { suffix: "+250c", shift: [{ kind: "pitch", cents: 250 }, { kind: "tempo", factor: 0.92 }] as Degradation[] },
          { suffix: "-250c", shift: [{ kind: "pitch", cents: -250 }, { kind: "tempo", factor: 1.08 }] as Degradation[] },
        ]
      : []),
  ];
  return OUTSIDE_VOICES.filter(outsideVoiceAvailable).flatMap((v) => shifts.map((x) => ({ id: v.id + x.suffix, voice: v, shift: x.shift, split: v.split, gender: v.gender, language: v.language })));
}

function join(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length + 8000, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length + 8000;
  }
  return out;
}

/** A speaker's samples (its two enrolment passages) as the clone's analysis sees them. */
export async function enrolment(s: Speaker): Promise<number[]> {
  return analyzeVoice(join(await Promise.all(SPEAKER_TEXTS[s.language].enrol.map((x) => outsidePcm(s.voice, x, s.shift)))), 16000).embedding;
}

export interface SpeakerTrial { target: string; test: string; genuine: boolean; split: string; sameLanguage: boolean; condition: string; raw: number; score: number }

/**
 * Trials of the speaker check: each speaker's test utterances (prepared like the server's) against its own enrolment
 * (genuine) and every other same-gender speaker's (impostor). A trial's split is its target's. The cohort never holds
 * either voice of a trial.
 */
export async function speakerTrials(list: Speaker[], conditions: string[]): Promise<SpeakerTrial[]> {
  const enrol = new Map<string, number[]>();
  const tests = new Map<string, Array<{ condition: string; e: number[] }>>();
  for (const s of list) {
    enrol.set(s.id, await enrolment(s));
    const t: Array<{ condition: string; e: number[] }> = [];
    for (const text of SPEAKER_TEXTS[s.language].test)
      for (const condition of conditions) t.push({ condition, e: analyzeVoice(await prepared(await outsidePcm(s.voice, text, [...s.shift, ...CONDITIONS[condition]])), 16000).embedding });
    tests.set(s.id, t);
  }
  const trials: SpeakerTrial[] = [];
  for (const target of list) {
    const ref = enrol.get(target.id)!;
    for (const test of list) {
      if (test.gender !== target.gender) continue;
      const exclude = new Set([`outside:${target.voice.id}`, `outside:${test.voice.id}`]);
      for (const t of tests.get(test.id)!)
        trials.push({ target: target.id, test: test.id, genuine: test.id === target.id, split: target.split, sameLanguage: test.language === target.language, condition: t.condition, raw: similarity(ref, t.e), score: cohortScore(ref, t.e, exclude) });
    }
  }
  return trials;
}

export const rate = <T>(xs: T[], f: (x: T) => boolean) => (xs.length ? xs.filter(f).length / xs.length : 0);
