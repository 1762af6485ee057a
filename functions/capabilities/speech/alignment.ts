import type { Alignment } from "../../media/engine/port.js";
import type { CharTimes, MappedText, Segment } from "./textmap.js";

/**
 * Turns the engine's per-chunk timings of the spoken text into timings of the caller's own
 * characters, chunk by chunk, as a stream needs them.
 *
 * Entries are whole code points (an emoji is one character, as clients count it), times never
 * run backwards and every end is at or after its start. Each chunk costs time in proportion to
 * what it newly covers: the original is walked once, segment by segment, over the whole stream.
 */
export class AlignmentTracker {
  /** Times of the spoken text, per UTF-16 unit (the engine reports code points; both halves of a pair share them). */
  private readonly spokenStarts: Float64Array;
  private readonly spokenEnds: Float64Array;
  private spokenEnd = 0;
  /** Original units emitted so far, and the segment the walk is in. */
  private emitted = 0;
  private seg = 0;
  private lastTime = 0;
  private readonly original = new MonotonicTimes();
  private readonly spoken = new MonotonicTimes();
  /** A high surrogate whose pair is not emitted yet. */
  private pendingHigh: { ch: string; start: number; end: number } | null = null;

  constructor(
    readonly mapped: MappedText,
    /** Seconds added to every time (where this text starts in a longer audio). */
    readonly timeOffset = 0,
  ) {
    this.spokenStarts = new Float64Array(mapped.text.length);
    this.spokenEnds = new Float64Array(mapped.text.length);
  }

  /** Records a chunk and returns {spoken, original} timings of the characters it newly covers. */
  add(textOffset: number, a: Alignment): { spoken: CharTimes; original: CharTimes } {
    let pos = textOffset;
    const spoken = emptyTimes();
    for (let k = 0; k < a.characters.length; k++) {
      const ch = a.characters[k];
      const start = a.character_start_times_seconds[k] + this.timeOffset;
      const end = a.character_end_times_seconds[k] + this.timeOffset;
      for (let u = 0; u < ch.length && pos + u < this.spokenStarts.length; u++) {
        this.spokenStarts[pos + u] = start;
        this.spokenEnds[pos + u] = end;
      }
      pos += ch.length;
      this.spoken.push(spoken, ch, start, end);
    }
    this.spokenEnd = Math.max(this.spokenEnd, Math.min(pos, this.mapped.text.length));
    const done = this.spokenEnd >= this.mapped.text.length;
    return { spoken, original: this.advance(done) };
  }

  /** Whatever original characters no chunk covered (trailing whitespace, an empty text). */
  flush(): CharTimes {
    return this.advance(true);
  }

  /** Emits the original characters whose spoken counterpart is complete (all of them when `all`). */
  private advance(all: boolean): CharTimes {
    const out = emptyTimes();
    const text = this.mapped.original;
    const segments = this.mapped.segments;
    const emitUnit = (i: number, start: number, end: number) => {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        this.pendingHigh = { ch: text[i], start, end };
        return;
      }
      if (this.pendingHigh && c >= 0xdc00 && c <= 0xdfff) {
        const h = this.pendingHigh;
        this.pendingHigh = null;
        this.original.push(out, h.ch + text[i], h.start, end);
        return;
      }
      if (this.pendingHigh) {
        // A lone high surrogate: its own entry, as the text has it.
        const h = this.pendingHigh;
        this.pendingHigh = null;
        this.original.push(out, h.ch, h.start, h.end);
      }
      this.original.push(out, text[i], start, end);
    };
    const gapUntil = (limit: number) => {
      for (; this.emitted < limit; this.emitted++) emitUnit(this.emitted, this.lastTime, this.lastTime);
    };

    for (; this.seg < segments.length; this.seg++) {
      const s: Segment = segments[this.seg];
      gapUntil(s.origStart);
      if (!s.replaced) {
        const ready = all ? s.origEnd - s.origStart : Math.max(0, Math.min(s.origEnd - s.origStart, this.spokenEnd - s.outStart));
        for (let j = this.emitted - s.origStart; j < ready; j++, this.emitted++) {
          const start = this.spokenStarts[s.outStart + j] ?? this.lastTime;
          const end = this.spokenEnds[s.outStart + j] ?? start;
          emitUnit(s.origStart + j, start, end);
          this.lastTime = end;
        }
        if (ready < s.origEnd - s.origStart) break;
      } else {
        // A replaced span shares the time of what replaced it, once all of that was spoken.
        if (!all && s.outEnd > this.spokenEnd) break;
        const n = s.origEnd - s.origStart;
        const t0 = s.outEnd > s.outStart ? this.spokenStarts[s.outStart] : this.lastTime;
        const t1 = s.outEnd > s.outStart ? this.spokenEnds[s.outEnd - 1] : t0;
        for (let k = this.emitted - s.origStart; k < n; k++, this.emitted++) emitUnit(s.origStart + k, t0 + ((t1 - t0) * k) / n, t0 + ((t1 - t0) * (k + 1)) / n);
        if (n > 0) this.lastTime = t1;
      }
    }
    if (all) {
      gapUntil(text.length);
      if (this.pendingHigh) {
        const h = this.pendingHigh;
        this.pendingHigh = null;
        this.original.push(out, h.ch, h.start, h.end);
      }
    }
    return out;
  }
}

/** Appends entries with times made monotonic: starts and ends never decrease, and end >= start. */
class MonotonicTimes {
  private start = 0;
  private end = 0;

  push(into: CharTimes, ch: string, start: number, end: number): void {
    const s = Math.max(start, this.start);
    const e = Math.max(end, s, this.end);
    this.start = s;
    this.end = e;
    into.characters.push(ch);
    into.character_start_times_seconds.push(round(s));
    into.character_end_times_seconds.push(round(e));
  }
}

/** Whole-text projection (tests and callers without a stream): every spoken time at once. */
export function projectTimes(mapped: MappedText, spoken: Alignment): CharTimes {
  const t = new AlignmentTracker(mapped);
  const { original } = t.add(0, spoken);
  return concatTimes([original, t.flush()]);
}

const round = (t: number) => Math.round(t * 1000) / 1000;

export function emptyTimes(): CharTimes {
  return { characters: [], character_start_times_seconds: [], character_end_times_seconds: [] };
}

export function concatTimes(parts: CharTimes[]): CharTimes {
  const out = emptyTimes();
  for (const p of parts) {
    for (let i = 0; i < p.characters.length; i++) {
      out.characters.push(p.characters[i]);
      out.character_start_times_seconds.push(p.character_start_times_seconds[i]);
      out.character_end_times_seconds.push(p.character_end_times_seconds[i]);
    }
  }
  return out;
}
