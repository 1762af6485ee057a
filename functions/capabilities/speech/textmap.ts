/**
 * A text derived from an original by replacing spans (normalisation, dictionary aliases), that
 * remembers where every output character came from. Alignment computed on the spoken text is
 * projected back through it, so timestamps always spell the request's own text.
 */
export interface Segment {
  origStart: number;
  origEnd: number;
  outStart: number;
  outEnd: number;
  /** false: copied character for character; true: a replacement span. */
  replaced: boolean;
  /** What produced the replacement (e.g. "normalize", "alias", "phoneme"). */
  tag?: string;
}

export interface Replacement {
  /** Range in the current output text. */
  start: number;
  end: number;
  text: string;
  tag?: string;
}

export interface CharTimes {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

export class MappedText {
  private constructor(
    readonly original: string,
    readonly text: string,
    readonly segments: Segment[],
  ) {}

  static identity(s: string): MappedText {
    return new MappedText(s, s, s.length ? [{ origStart: 0, origEnd: s.length, outStart: 0, outEnd: s.length, replaced: false }] : []);
  }

  /** The index of the first segment whose output ends after `i` (binary search: segments are in output order). */
  private segmentAfter(i: number): number {
    let lo = 0;
    let hi = this.segments.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.segments[mid].outEnd <= i) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Where output index `i` came from, as a range of the original. */
  originOf(i: number): { start: number; end: number; replaced: boolean } {
    for (let k = this.segmentAfter(i); k < this.segments.length; k++) {
      const s = this.segments[k];
      if (s.outStart > i) break;
      if (i >= s.outStart && i < s.outEnd) {
        if (!s.replaced) return { start: s.origStart + (i - s.outStart), end: s.origStart + (i - s.outStart) + 1, replaced: false };
        return { start: s.origStart, end: s.origEnd, replaced: true };
      }
    }
    return { start: this.original.length, end: this.original.length, replaced: false };
  }

  /**
   * Applies non-overlapping replacements given in this text's coordinates. A replacement that
   * touches an earlier replaced span absorbs it whole, so mappings stay monotonic.
   */
  replace(replacements: Replacement[]): MappedText {
    if (!replacements.length) return this;
    const reps = [...replacements].sort((a, b) => a.start - b.start);
    for (let i = 1; i < reps.length; i++) if (reps[i].start < reps[i - 1].end) throw new Error("overlapping replacements");

    // Break every segment at replacement boundaries, then rebuild.
    const out: Segment[] = [];
    let text = "";
    let cursor = 0; // position in this.text
    const copy = (from: number, to: number) => {
      // copy this.text[from, to) keeping its mapping; copies move forward, so start where it matters
      for (let k = this.segmentAfter(from); k < this.segments.length; k++) {
        const s = this.segments[k];
        if (s.outStart >= to) break;
        const a = Math.max(from, s.outStart);
        const b = Math.min(to, s.outEnd);
        if (a >= b) continue;
        if (s.replaced) {
          // Part of an earlier replacement: keep it whole (callers never split one).
          push({ origStart: s.origStart, origEnd: s.origEnd, outStart: text.length, outEnd: text.length + (b - a), replaced: true, tag: s.tag });
        } else {
          const o = s.origStart + (a - s.outStart);
          push({ origStart: o, origEnd: o + (b - a), outStart: text.length, outEnd: text.length + (b - a), replaced: false });
        }
        text += this.text.slice(a, b);
      }
    };
    const push = (seg: Segment) => {
      const last = out.at(-1);
      if (last && last.replaced && seg.replaced && last.origStart === seg.origStart && last.origEnd === seg.origEnd && last.outEnd === seg.outStart && last.tag === seg.tag) {
        last.outEnd = seg.outEnd;
      } else if (last && !last.replaced && !seg.replaced && last.origEnd === seg.origStart && last.outEnd === seg.outStart) {
        last.origEnd = seg.origEnd;
        last.outEnd = seg.outEnd;
      } else out.push(seg);
    };
    for (const r of reps) {
      copy(cursor, r.start);
      const a = this.originOf(r.start);
      const b = r.end > r.start ? this.originOf(r.end - 1) : a;
      const origStart = a.start;
      const origEnd = r.end > r.start ? b.end : a.start;
      out.push({ origStart, origEnd, outStart: text.length, outEnd: text.length + r.text.length, replaced: true, tag: r.tag });
      text += r.text;
      cursor = r.end;
    }
    copy(cursor, this.text.length);
    return new MappedText(this.original, text, out);
  }

  /** Maps a range of the output text to a range of the original text. */
  originalRange(outStart: number, outEnd: number): { start: number; end: number } {
    if (outEnd <= outStart) {
      const o = this.originOf(outStart);
      return { start: o.start, end: o.start };
    }
    return { start: this.originOf(outStart).start, end: this.originOf(outEnd - 1).end };
  }
}
