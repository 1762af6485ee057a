import type { Alignment } from "../engine/port.js";
import type { CharTimes, MappedText } from "./textmap.js";

/**
 * Turns the engine's per-chunk timings of the spoken text into timings of the caller's own
 * characters, chunk by chunk, as a stream needs them.
 */
export class AlignmentTracker {
  private readonly starts: number[];
  private readonly ends: number[];
  private spokenEnd = 0;
  private originalEnd = 0;

  constructor(
    readonly mapped: MappedText,
    /** Seconds added to every time (where this text starts in a longer audio). */
    readonly timeOffset = 0,
  ) {
    this.starts = new Array(mapped.text.length).fill(0);
    this.ends = new Array(mapped.text.length).fill(0);
  }

  /** Records a chunk and returns {spoken, original} timings of the characters it newly covers. */
  add(textOffset: number, a: Alignment): { spoken: CharTimes; original: CharTimes } {
    const n = a.characters.length;
    for (let k = 0; k < n; k++) {
      this.starts[textOffset + k] = a.character_start_times_seconds[k] + this.timeOffset;
      this.ends[textOffset + k] = a.character_end_times_seconds[k] + this.timeOffset;
    }
    this.spokenEnd = Math.max(this.spokenEnd, textOffset + n);
    const spoken: CharTimes = {
      characters: a.characters,
      character_start_times_seconds: a.character_start_times_seconds.map((t) => round(t + this.timeOffset)),
      character_end_times_seconds: a.character_end_times_seconds.map((t) => round(t + this.timeOffset)),
    };
    const done = this.spokenEnd >= this.mapped.text.length;
    const target = done ? this.mapped.original.length : this.mapped.originalRange(0, this.spokenEnd).end;
    const from = this.originalEnd;
    this.originalEnd = Math.max(this.originalEnd, target);
    const all = this.mapped.projectTimes({ characters: [], character_start_times_seconds: this.starts, character_end_times_seconds: this.ends });
    return { spoken, original: slice(all, from, this.originalEnd) };
  }

  /** Whatever original characters no chunk covered (trailing whitespace, an empty text). */
  flush(): CharTimes {
    const all = this.mapped.projectTimes({ characters: [], character_start_times_seconds: this.starts, character_end_times_seconds: this.ends });
    const from = this.originalEnd;
    this.originalEnd = this.mapped.original.length;
    return slice(all, from, this.originalEnd);
  }
}

const round = (t: number) => Math.round(t * 1000) / 1000;

function slice(t: CharTimes, a: number, b: number): CharTimes {
  return {
    characters: t.characters.slice(a, b),
    character_start_times_seconds: t.character_start_times_seconds.slice(a, b),
    character_end_times_seconds: t.character_end_times_seconds.slice(a, b),
  };
}

export function emptyTimes(): CharTimes {
  return { characters: [], character_start_times_seconds: [], character_end_times_seconds: [] };
}

export function concatTimes(parts: CharTimes[]): CharTimes {
  return {
    characters: parts.flatMap((p) => p.characters),
    character_start_times_seconds: parts.flatMap((p) => p.character_start_times_seconds),
    character_end_times_seconds: parts.flatMap((p) => p.character_end_times_seconds),
  };
}
