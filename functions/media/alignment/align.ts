/**
 * Alignment by synthesis: with no speech recogniser, the engine reads the known text (a
 * reference with exact character times), and the recording is aligned to that reading frame by
 * frame (./dtw.ts on ./features.ts). The path carries every character's time over from the
 * reference to the recording. How well the text fits the recording is the mean distance along
 * the path; compared with texts the recording does not say (decoys), it tells whether the
 * recording reads the text (the verification's sentence check).
 *
 * The functions here are pure and CPU-bound except `synthesizeReference`, which uses the engine
 * (its own worker pool); `alignRecording` runs on a worker (functions/platform/offload).
 */
import { toAnalysisRate } from "../audio/decode/rate.js";
import { int16ToFloat } from "../audio/resample.js";
import type { SpeechEngine, VoiceProfile } from "../engine/port.js";
import { FRAME_SECS } from "../separation/features.js";
import { alignSequences, type DtwPath } from "./dtw.js";
import { ALIGN_DIM, alignFeatures, type AlignFeatures } from "./features.js";

/** The engine reading a text: 16 kHz audio and when each character (code point) is spoken. */
export interface ReferenceReading {
  samples: Float32Array;
  characters: string[];
  starts: number[];
  ends: number[];
}

export interface AlignedUnit {
  text: string;
  start: number;
  end: number;
}

export interface ForcedAlignment {
  characters: AlignedUnit[];
  words: Array<AlignedUnit & { loss: number }>;
  /** Mean distance between the recording and the reading along the path (lower fits better). */
  loss: number;
}

/**
 * Voices that read references: one female and one male voice of the language (a premade voice of
 * it, else an English one told to speak it). Cepstra of a man and a woman differ more than two
 * readings of different words by the same person, so a recording is aligned to the reading of
 * its own kind: both are tried, the closer one wins.
 */
export function referenceVoices(language: string, all: readonly VoiceProfile[]): VoiceProfile[] {
  const primary = language.toLowerCase().split(/[-_]/)[0];
  return (["female", "male"] as const).map((gender) => {
    const own = all.find((p) => p.language === primary && p.gender === gender);
    return own ?? { ...all.find((p) => p.language === "en" && p.gender === gender)!, language: primary };
  });
}

/** The engine reading `text` in each reference voice, chosen from `voices` (the premade voices' profiles). */
export async function synthesizeReferences(engine: SpeechEngine, voices: readonly VoiceProfile[], text: string, language: string, signal?: AbortSignal): Promise<ReferenceReading[]> {
  return Promise.all(referenceVoices(language, voices).map((voice) => synthesizeReading(engine, voice, text, language, signal)));
}

async function synthesizeReading(engine: SpeechEngine, voice: VoiceProfile, text: string, language: string, signal?: AbortSignal): Promise<ReferenceReading> {
  const pcm: Int16Array[] = [];
  const characters: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let rate = engine.sampleRate;
  for await (const c of engine.synthesize(
    {
      text,
      voice,
      // Steady pitch and no style: the reading is a timing template, not a performance.
      settings: { stability: 1, similarity_boost: 0.75, style: 0, use_speaker_boost: false, speed: 1 },
      seed: 1,
      model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false },
      languageCode: language,
    },
    signal,
  )) {
    pcm.push(c.pcm);
    rate = c.sampleRate;
    characters.push(...c.alignment.characters);
    starts.push(...c.alignment.character_start_times_seconds);
    ends.push(...c.alignment.character_end_times_seconds);
  }
  const all = new Int16Array(pcm.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pcm) {
    all.set(p, at);
    at += p.length;
  }
  return { samples: toAnalysisRate(int16ToFloat(all), rate), characters, starts, ends };
}

/**
 * The recording (mono, any rate) aligned to the reference reading: every character's and word's
 * time in the recording. Characters the path cannot place (a text longer than the reading) get
 * the time of their neighbours.
 */
export function alignRecording(samples: Float32Array, sampleRate: number, refs: ReferenceReading[]): ForcedAlignment {
  const query = alignFeatures(toAnalysisRate(samples, sampleRate));
  let best: { ref: ReferenceReading; reading: AlignFeatures; path: DtwPath } | undefined;
  for (const ref of refs) {
    const reading = alignFeatures(ref.samples);
    const path = alignSequences(query.x, query.count, reading.x, reading.count);
    if (!best || path.cost < best.path.cost) best = { ref, reading, path };
  }
  if (!best) throw new Error("no reference reading to align to");
  const { ref, reading, path } = best;
  // Reference time -> recording time: for each kept reference frame, the mean of the query
  // frames the path pairs with it.
  const qSum = new Float64Array(reading.count);
  const qN = new Float64Array(reading.count);
  for (let s = 0; s < path.q.length; s++) {
    qSum[path.r[s]] += query.frame[path.q[s]];
    qN[path.r[s]]++;
  }
  const refTimes: number[] = [];
  const queryTimes: number[] = [];
  for (let j = 0; j < reading.count; j++) {
    if (!qN[j]) continue;
    refTimes.push(reading.frame[j] * FRAME_SECS);
    queryTimes.push((qSum[j] / qN[j]) * FRAME_SECS);
  }
  const map = (t: number) => interpolate(refTimes, queryTimes, t);
  const characters = ref.characters.map((text, i) => ({ text, start: round3(map(ref.starts[i])), end: round3(Math.max(map(ref.starts[i]), map(ref.ends[i]))) }));
  const words: ForcedAlignment["words"] = [];
  for (const w of wordSpans(ref.characters)) {
    const start = characters[w.from].start;
    const end = characters[w.to - 1].end;
    words.push({ text: ref.characters.slice(w.from, w.to).join(""), start, end, loss: round3(segmentLoss(path, query, reading, start, end)) });
  }
  return { characters, words, loss: round3(path.cost) };
}

/** Mean path distance of the recording alone against the reading (no character mapping): the text fit. */
/**
 * How well each text fits the recording: for each text, the lowest mean path distance over its
 * readings (lower fits better). `texts[i]` is the readings of one text (one per reference voice).
 */
export function fitLoss(samples: Float32Array, sampleRate: number, texts: ReferenceReading[][]): number[] {
  const query = alignFeatures(toAnalysisRate(samples, sampleRate));
  return texts.map((readings) =>
    round3(Math.min(...readings.map((ref) => {
      const reading = alignFeatures(ref.samples);
      return alignSequences(query.x, query.count, reading.x, reading.count).cost;
    }))),
  );
}

/** Word spans: runs of characters between whitespace. */
export function wordSpans(chars: string[]): Array<{ from: number; to: number }> {
  const out: Array<{ from: number; to: number }> = [];
  for (let i = 0; i < chars.length; ) {
    if (/\s/u.test(chars[i])) {
      i++;
      continue;
    }
    let j = i;
    while (j < chars.length && !/\s/u.test(chars[j])) j++;
    out.push({ from: i, to: j });
    i = j;
  }
  return out;
}

function segmentLoss(path: DtwPath, query: AlignFeatures, reading: AlignFeatures, start: number, end: number): number {
  // The mean local distance of the path steps whose recording time falls in [start, end].
  let s = 0, n = 0;
  for (let k = 0; k < path.q.length; k++) {
    const t = query.frame[path.q[k]] * FRAME_SECS;
    if (t < start || t > end) continue;
    const a = path.q[k] * ALIGN_DIM;
    const b = path.r[k] * ALIGN_DIM;
    let d = 0;
    for (let x = 0; x < ALIGN_DIM; x++) d += (query.x[a + x] - reading.x[b + x]) ** 2;
    s += Math.sqrt(d / ALIGN_DIM);
    n++;
  }
  return n ? s / n : path.cost;
}

/** Piecewise-linear interpolation through increasing xs (held flat beyond the ends). */
function interpolate(xs: number[], ys: number[], x: number): number {
  if (xs.length === 0) return x;
  if (x <= xs[0]) return ys[0];
  if (x >= xs[xs.length - 1]) return ys[ys.length - 1];
  let lo = 0, hi = xs.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= x) lo = mid;
    else hi = mid;
  }
  const t = (x - xs[lo]) / Math.max(1e-9, xs[hi] - xs[lo]);
  return ys[lo] + t * (ys[hi] - ys[lo]);
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
