import { describe, expect, it } from "vitest";
import { countCharacters, sliceCharacters } from "./characters.js";

describe("characters", () => {
  it("counts code points, so an emoji is one character", () => {
    expect(countCharacters("")).toBe(0);
    expect(countCharacters("Hello")).toBe(5);
    expect("😀".length).toBe(2);
    expect(countCharacters("😀")).toBe(1);
    expect(countCharacters("a😀b👍🏽")).toBe([..."a😀b👍🏽"].length);
    expect(countCharacters("𝄞 clef")).toBe(6);
  });

  it("cuts text to a number of characters without splitting a surrogate pair", () => {
    expect(sliceCharacters("😀😀😀", 2)).toBe("😀😀");
    expect(sliceCharacters("ab😀cd", 3)).toBe("ab😀");
    expect(sliceCharacters("abc", 10)).toBe("abc");
    expect(sliceCharacters("abc", 0)).toBe("");
    expect(countCharacters(sliceCharacters("😀".repeat(10), 7))).toBe(7);
  });
});
