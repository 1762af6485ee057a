/**
 * Builds one SSML line for eSpeak and remembers, for every code point of the line, which
 * characters of the original text it came from. eSpeak reports word positions as code point
 * indices into the line (markup included), so alignment maps them back through this table.
 */
export class LineBuilder {
  private readonly parts: string[] = [];
  /** Per line code point: original [start, end) in UTF-16 units, or -1 for markup. */
  private readonly origStart: number[] = [];
  private readonly origEnd: number[] = [];

  markup(s: string): this {
    this.parts.push(s);
    for (const _ of s) {
      this.origStart.push(-1);
      this.origEnd.push(-1);
    }
    return this;
  }

  /** Text to speak; `offset` is where `s` starts in the original text. */
  text(s: string, offset: number): this {
    let i = 0;
    for (const ch of s) {
      const escaped = escapeChar(ch, s[i + ch.length]);
      this.parts.push(escaped);
      for (const _ of escaped) {
        this.origStart.push(offset + i);
        this.origEnd.push(offset + i + ch.length);
      }
      i += ch.length;
    }
    return this;
  }

  /** eSpeak phoneme input standing for original text [start, end). */
  phonemes(mnemonics: string, start: number, end: number): this {
    const s = ` [[${mnemonics}]] `;
    this.parts.push(s);
    for (const _ of s) {
      this.origStart.push(start);
      this.origEnd.push(end);
    }
    return this;
  }

  build(): BuiltLine {
    return new BuiltLine(this.parts.join(""), this.origStart, this.origEnd);
  }
}

export class BuiltLine {
  constructor(
    readonly line: string,
    private readonly origStart: readonly number[],
    private readonly origEnd: readonly number[],
  ) {}

  get length(): number {
    return this.origStart.length;
  }

  /**
   * Original range covered by the line's code points [pos, pos + len), pos 1-based as eSpeak
   * reports it; null when they are all markup.
   */
  original(pos: number, len: number): { start: number; end: number } | null {
    let start = Infinity;
    let end = -1;
    const from = Math.max(0, pos - 1);
    const to = Math.min(this.origStart.length, from + Math.max(1, len));
    for (let i = from; i < to; i++) {
      if (this.origStart[i] < 0) continue;
      start = Math.min(start, this.origStart[i]);
      end = Math.max(end, this.origEnd[i]);
    }
    return end < 0 ? null : { start, end };
  }
}

/**
 * SSML needs &, < and > escaped. Line breaks would end the line, control characters are
 * eSpeak's embedded-command markers, and "[[" would switch to phoneme input: all become spaces.
 */
function escapeChar(ch: string, next: string | undefined): string {
  switch (ch) {
    case "&":
      return "&amp;";
    case "<":
      return "&lt;";
    case ">":
      return "&gt;";
    case "[":
      return next === "[" ? "( " : "[";
    default:
      return /[\u0000-\u001f\u007f\u2028\u2029]/.test(ch) ? " " : ch;
  }
}
