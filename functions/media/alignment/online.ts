/**
 * The recorder's live reading highlight: audio arrives in small chunks while the user reads a
 * known script; each chunk moves an online DTW (./dtw.ts) along the engine's readings of the
 * script, and the position says which words have been read. Frames are computed as the audio
 * arrives (the last frame's tail is kept for the next chunk); levels, means and spreads are
 * learnt as the reading goes, since the whole recording is not there to normalise by.
 *
 * The session is plain data (typed arrays and numbers), so each step can run on a worker and
 * hand the session back (functions/platform/offload: `live-align`).
 */
import { applyFilterbank, dbOf, dctMatrix, hamming, melFilterbank, powerSpectrum } from "../voice-analysis/dsp.js";
import { FRAME, FRAME_SECS, HOP, SR } from "../separation/features.js";
import { onlineDtw, pushFrame, type OnlineDtwState } from "./dtw.js";
import { ALIGN_DIM, alignFeatures } from "./features.js";
import { wordSpans, type ReferenceReading } from "./align.js";

const STATIC = 12;
const NFFT = 512;
const WINDOW = hamming(FRAME);
const MEL = melFilterbank(40, NFFT, SR, 60, 7600);
const DCT = dctMatrix(STATIC + 1, 40);
/** Speech frames to learn levels from before the position starts to move. */
const WARMUP = 60;

export interface LiveReference {
  dtw: OnlineDtwState;
  /** Original frame index (10 ms) of each kept reference frame. */
  frame: Int32Array;
  /** Reading time (s) at which each character ends. */
  charEnds: Float64Array;
}

export interface LiveSession {
  refs: LiveReference[];
  /** Word spans over the characters (same for every reading of the script). */
  wordFrom: Int32Array;
  wordTo: Int32Array;
  characters: string[];
  /** Samples not yet framed (less than a frame's worth beyond the last hop). */
  tail: Float32Array;
  /** Static cepstra of the last 5 frames (for deltas), their levels, and how many frames were seen. */
  recent: Float32Array;
  recentDb: Float64Array;
  seen: number;
  /** Running statistics of speech frames: count, sums and squares per dimension. */
  n: number;
  sum: Float64Array;
  sq: Float64Array;
  /** Level histogram (1 dB bins from -120 to 0) for the silence threshold. */
  levels: Uint32Array;
  /** Frames held back until the statistics are learnt. */
  held: Float32Array[];
  words: number;
}

export function liveSession(readings: ReferenceReading[]): LiveSession {
  const first = readings[0];
  const spans = liveWordSpans(first.characters);
  return {
    refs: readings.map((r) => {
      const f = alignFeatures(r.samples);
      return { dtw: onlineDtw(f.x, f.count), frame: f.frame, charEnds: Float64Array.from(r.ends) };
    }),
    wordFrom: Int32Array.from(spans.map((s) => s.from)),
    wordTo: Int32Array.from(spans.map((s) => s.to)),
    characters: first.characters,
    tail: new Float32Array(0),
    recent: new Float32Array(5 * STATIC),
    recentDb: new Float64Array(5),
    seen: 0,
    n: 0,
    sum: new Float64Array(ALIGN_DIM),
    sq: new Float64Array(ALIGN_DIM),
    levels: new Uint32Array(121),
    held: [],
    words: 0,
  };
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * Words for the highlight: runs between spaces, except that Chinese and Japanese, written without
 * spaces, count each character as a word (punctuation goes with the character before it), so the
 * highlight moves through a sentence of them too.
 */
export function liveWordSpans(chars: string[]): Array<{ from: number; to: number }> {
  const out: Array<{ from: number; to: number }> = [];
  for (const span of wordSpans(chars)) {
    let from = span.from;
    for (let i = span.from; i < span.to; i++) {
      if (!CJK.test(chars[i])) continue;
      // Close the run before this character (if it holds a CJK character or other letters), then the character itself.
      if (i > from) out.push({ from, to: i });
      let end = i + 1;
      while (end < span.to && !CJK.test(chars[end]) && !/[\p{L}\p{N}]/u.test(chars[end])) end++;
      out.push({ from: i, to: end });
      from = end;
      i = end - 1;
    }
    if (from < span.to) out.push({ from, to: span.to });
  }
  return out;
}

/** Feeds 16 kHz samples; returns the number of words read so far (never decreasing). */
export function liveStep(s: LiveSession, samples: Float32Array): number {
  const x = new Float32Array(s.tail.length + samples.length);
  x.set(s.tail);
  x.set(samples, s.tail.length);
  let at = 0;
  const frame = new Float64Array(FRAME);
  const re = new Float64Array(NFFT);
  const im = new Float64Array(NFFT);
  const power = new Float64Array(NFFT / 2 + 1);
  const mel = new Float64Array(40);
  for (; at + FRAME <= x.length; at += HOP) {
    let e = 0;
    for (let i = 0; i < FRAME; i++) {
      const v = x[at + i];
      e += v * v;
      frame[i] = v * WINDOW[i];
    }
    const db = e > 0 ? dbOf(e / FRAME) : -120;
    powerSpectrum(frame, NFFT, re, im, power);
    applyFilterbank(MEL, power, mel);
    for (let m = 0; m < 40; m++) mel[m] = Math.log(mel[m] + 1e-10);
    // Shift the recent frames and add this one.
    s.recent.copyWithin(0, STATIC);
    s.recentDb.copyWithin(0, 1);
    for (let k = 1; k <= STATIC; k++) {
      let acc = 0;
      for (let m = 0; m < 40; m++) acc += DCT[k][m] * mel[m];
      s.recent[4 * STATIC + k - 1] = acc;
    }
    s.recentDb[4] = db;
    s.seen++;
    s.levels[Math.max(0, Math.min(120, Math.round(db + 120)))]++;
    if (s.seen >= 5) consider(s);
  }
  s.tail = x.slice(at);
  return s.words;
}

/** The middle of the five recent frames, with its delta, if it is speech. */
function consider(s: LiveSession): void {
  const db = s.recentDb[2];
  if (!(db > threshold(s.levels, s.seen))) return;
  const v = new Float32Array(ALIGN_DIM);
  for (let k = 0; k < STATIC; k++) {
    const at = (i: number) => s.recent[i * STATIC + k];
    v[k] = at(2);
    v[STATIC + k] = (2 * (at(4) - at(0)) + (at(3) - at(1))) / 10;
  }
  s.n++;
  for (let d = 0; d < ALIGN_DIM; d++) {
    s.sum[d] += v[d];
    s.sq[d] += v[d] * v[d];
  }
  s.held.push(v);
  if (s.n < WARMUP) return;
  for (const h of s.held.splice(0)) step(s, h);
}

function step(s: LiveSession, v: Float32Array): void {
  const z = new Float32Array(ALIGN_DIM);
  for (let d = 0; d < ALIGN_DIM; d++) {
    const m = s.sum[d] / s.n;
    const sd = Math.sqrt(Math.max(1e-9, s.sq[d] / s.n - m * m));
    z[d] = (v[d] - m) / sd;
  }
  let best = -1;
  let bestCost = Infinity;
  s.refs.forEach((r, i) => {
    pushFrame(r.dtw, z);
    const c = r.dtw.position >= 0 ? r.dtw.D[r.dtw.position] / r.dtw.L[r.dtw.position] : Infinity;
    if (c < bestCost) [bestCost, best] = [c, i];
  });
  if (best < 0) return;
  const r = s.refs[best];
  const t = r.frame[r.dtw.position] * FRAME_SECS;
  // Words whose last character ends by the reached time have been read.
  let words = s.words;
  while (words < s.wordFrom.length && r.charEnds[s.wordTo[words] - 1] <= t + 0.02) words++;
  s.words = Math.max(s.words, words);
}

/** Halfway between the quietest tenth of the frames and the loudest, at least 10 dB over the quiet. */
function threshold(levels: Uint32Array, total: number): number {
  const at = (q: number) => {
    let acc = 0;
    for (let i = 0; i < levels.length; i++) {
      acc += levels[i];
      if (acc >= q * total) return i - 120;
    }
    return 0;
  };
  const floor = at(0.1);
  const loud = at(0.98);
  if (loud - floor < 10) return floor + 10;
  return Math.max(floor + 10, Math.min(floor + 0.35 * (loud - floor), loud - 10), loud - 40);
}

/** The text read so far: the first `words` words of the script, as written. */
export function transcriptOf(s: Pick<LiveSession, "characters" | "wordTo">, words: number): string {
  if (words <= 0) return "";
  return s.characters.slice(0, s.wordTo[Math.min(words, s.wordTo.length) - 1]).join("");
}
