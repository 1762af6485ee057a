import { describe, expect, it } from "vitest";
import { splitForSynthesis, utf8Length } from "./sentences.js";

const pieces = (text: string, opts: Parameters<typeof splitForSynthesis>[1]) => splitForSynthesis(text, opts).map((c) => text.slice(c.start, c.end));

describe("splitForSynthesis", () => {
  it("covers the text contiguously, whitespace included", () => {
    const text = "  Hello there.  How are you?\nFine!  ";
    const chunks = splitForSynthesis(text, { maxCost: 400 });
    expect(chunks[0].start).toBe(0);
    expect(chunks[chunks.length - 1].end).toBe(text.length);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i].start).toBe(chunks[i - 1].end);
    expect(chunks.map((c) => text.slice(c.start, c.end)).join("")).toBe(text);
  });

  it("splits at sentence ends but not after abbreviations, initials or decimals", () => {
    expect(pieces("Dr. Smith met J. R. Doe at 3.5 p.m. today. Then he left!", { maxCost: 400 })).toEqual([
      "Dr. Smith met J. R. Doe at 3.5 p.m. today. ",
      "Then he left!",
    ]);
  });

  it("keeps closing quotes with their sentence and splits CJK without spaces", () => {
    expect(pieces('He said "stop." She did.', { maxCost: 400 })).toEqual(['He said "stop." ', "She did."]);
    expect(pieces("你好。我很好！", { maxCost: 400 })).toEqual(["你好。", "我很好！"]);
  });

  it("cuts an over-long sentence at clause marks, then at spaces, within the limit", () => {
    const text = "This sentence is long, it has several clauses; each one adds words: and finally it ends here.";
    const out = pieces(text, { maxCost: 40 });
    expect(out.join("")).toBe(text);
    for (const p of out) expect(utf8Length(p)).toBeLessThanOrEqual(40);
    expect(out[0]).toBe("This sentence is long, ");
  });

  it("gives the first chunk its own smaller limit", () => {
    const out = pieces("A short opening clause, then a much longer continuation of the same sentence. Next.", { maxCost: 400, firstMaxCost: 30 });
    expect(out[0]).toBe("A short opening clause, ");
    expect(out[1]).toBe("then a much longer continuation of the same sentence. ");
  });

  it("never cuts inside a kept range", () => {
    const text = "Say supercalifragilistic loudly.";
    const keep = [{ start: 4, end: 24 }];
    for (const c of splitForSynthesis(text, { maxCost: 10, keepTogether: keep })) {
      expect(c.start <= 4 || c.start >= 24).toBe(true);
      expect(c.end <= 4 || c.end >= 24).toBe(true);
    }
  });

  it("hard-cuts text without spaces, never inside a surrogate pair", () => {
    const text = "😀".repeat(30);
    const out = pieces(text, { maxCost: 10 });
    expect(out.join("")).toBe(text);
    for (const p of out) expect(p.length % 2).toBe(0);
  });

  it("returns nothing for empty text", () => {
    expect(splitForSynthesis("", { maxCost: 10 })).toEqual([]);
  });
});

describe("splitForSynthesis on hostile input", () => {
  /** Interleaved best of seven of each size: a busy machine's pauses hit both alike. */
  const ratio = (small: string, large: string, opts: Parameters<typeof splitForSynthesis>[1], optsLarge = opts) => {
    const once = (text: string, o: Parameters<typeof splitForSynthesis>[1]) => {
      const t0 = performance.now();
      const chunks = splitForSynthesis(text, o);
      const ms = performance.now() - t0;
      expect(chunks.map((c) => text.slice(c.start, c.end)).join("")).toBe(text);
      return ms;
    };
    once(small, opts);
    let a = Infinity;
    let b = Infinity;
    for (let k = 0; k < 7; k++) {
      a = Math.min(a, once(small, opts));
      b = Math.min(b, once(large, optsLarge));
    }
    return b / a;
  };

  it("splits a 165,000-character text without punctuation in time linear in its length", () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 97}`).join(" ");
    // 16x the text: linear work ~16x; re-measuring the rest of the sentence per chunk ~256x. The wide margin
    // (64) keeps a shared machine's pauses, which hit the sub-millisecond small case hardest, from failing it.
    expect(ratio(words(1_500), words(24_000), { maxCost: 300, firstMaxCost: 80 })).toBeLessThan(64);
  });

  it("stays linear with many kept ranges and no spaces at all", () => {
    const spans = (n: number) => Array.from({ length: n / 50 }, (_, i) => ({ start: i * 50 + 10, end: i * 50 + 20 }));
    expect(ratio("x".repeat(5_000), "x".repeat(80_000), { maxCost: 300, keepTogether: spans(5_000) }, { maxCost: 300, keepTogether: spans(80_000) })).toBeLessThan(64);
  });
});
