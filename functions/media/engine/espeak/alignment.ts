/**
 * Character timing from eSpeak's own word events. Each word event carries the sample where
 * eSpeak starts the word and its position in the line; we map positions back to the original
 * text, end each word where its audio falls silent (or the next word starts), spread a word's
 * time evenly over its characters and give spaces and punctuation the pauses between words.
 */
import type { EspeakEvent } from "./runtime.js";
import type { BuiltLine } from "./line.js";
import { EventType } from "./wasm.js";

export interface ChunkAlignment {
  characters: string[];
  /** Seconds from the start of the chunk's audio. */
  starts: number[];
  ends: number[];
}

interface Word {
  start: number;
  end: number;
  sample: number;
}

export function alignChunk(text: string, line: BuiltLine, events: readonly EspeakEvent[], pcm: Int16Array, fs: number): ChunkAlignment {
  const total = pcm.length;
  const words = wordsFromEvents(line, events, total);
  const frame = Math.max(1, Math.round(fs * 0.005));
  const loud = loudFrames(pcm, frame);

  // Code points with their UTF-16 offsets: the characters of the result.
  const chars: Array<{ ch: string; at: number }> = [];
  for (let i = 0; i < text.length; ) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    chars.push({ ch, at: i });
    i += ch.length;
  }
  const starts = new Array<number>(chars.length).fill(0);
  const ends = new Array<number>(chars.length).fill(0);

  const spread = (idx: number[], from: number, to: number) => {
    const d = (to - from) / Math.max(1, idx.length);
    idx.forEach((c, k) => {
      starts[c] = from + k * d;
      ends[c] = from + (k + 1) * d;
    });
  };

  if (words.length === 0) {
    spread(chars.map((_, i) => i), 0, total);
  } else {
    // Word audio ends at its last loud frame before the next word begins.
    const wordEnds = words.map((w, i) => {
      const next = i + 1 < words.length ? words[i + 1].sample : total;
      let f = Math.floor((next - 1) / frame);
      const first = Math.floor(w.sample / frame);
      while (f >= first && !loud[f]) f--;
      return f < first ? next : Math.min(next, Math.max(w.sample + 1, (f + 1) * frame));
    });
    let c = 0;
    let cursor = 0;
    for (let w = 0; w <= words.length; w++) {
      const word = words[w];
      const gapEnd = word ? word.sample : total;
      const gap: number[] = [];
      while (c < chars.length && (!word || chars[c].at < word.start)) gap.push(c++);
      spread(gap, cursor, Math.max(cursor, gapEnd));
      if (!word) break;
      const inWord: number[] = [];
      while (c < chars.length && chars[c].at < word.end) inWord.push(c++);
      spread(inWord, word.sample, wordEnds[w]);
      cursor = wordEnds[w];
    }
  }
  return {
    characters: chars.map((c) => c.ch),
    starts: starts.map((s) => s / fs),
    ends: ends.map((e) => e / fs),
  };
}

/** Word events mapped to original ranges, merged where eSpeak splits one word (numbers, CJK). */
function wordsFromEvents(line: BuiltLine, events: readonly EspeakEvent[], total: number): Word[] {
  const raw: Word[] = [];
  for (const e of events) {
    if (e.type !== EventType.word) continue;
    const r = line.original(e.position, e.length);
    if (r) raw.push({ start: r.start, end: r.end, sample: Math.min(total, Math.max(0, e.sample)) });
  }
  raw.sort((a, b) => a.start - b.start || a.sample - b.sample);
  const merged: Word[] = [];
  for (const w of raw) {
    const last = merged[merged.length - 1];
    if (last && w.start < last.end) {
      last.end = Math.max(last.end, w.end);
      last.sample = Math.min(last.sample, w.sample);
    } else merged.push({ ...w });
  }
  // Times must not run backwards even if eSpeak reorders (e.g. "$5" said as "five dollars").
  for (let i = 1; i < merged.length; i++) merged[i].sample = Math.max(merged[i].sample, merged[i - 1].sample);
  return merged;
}

function loudFrames(pcm: Int16Array, frame: number): Uint8Array {
  const n = Math.ceil(pcm.length / frame);
  const power = new Float64Array(n);
  let peak = 0;
  for (let f = 0; f < n; f++) {
    let s = 0;
    const end = Math.min(pcm.length, (f + 1) * frame);
    for (let i = f * frame; i < end; i++) s += pcm[i] * pcm[i];
    power[f] = s / Math.max(1, end - f * frame);
    peak = Math.max(peak, power[f]);
  }
  // Within 40 dB of the loudest frame, and above a small absolute floor.
  const gate = Math.max(peak * 1e-4, 150 * 150);
  return Uint8Array.from(power, (p) => (p >= gate ? 1 : 0));
}
