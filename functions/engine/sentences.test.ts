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
