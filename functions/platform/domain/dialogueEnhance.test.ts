import { describe, expect, it } from "vitest";
import { enhanceBlock } from "./dialogueEnhance.js";

describe("dialogue enhancer", () => {
  it("adds the tag the text asks for", () => {
    expect(enhanceBlock("we won the cup!")).toBe("[excited] We won the cup!");
    expect(enhanceBlock("Are you sure?")).toBe("[curious] Are you sure?");
    expect(enhanceBlock("I said STOP right now")).toBe("[shouting] I said STOP right now");
    expect(enhanceBlock("Well... maybe.")).toBe("[hesitates] Well... maybe.");
  });
  it("turns written actions into audio tags and keeps existing tags alone", () => {
    expect(enhanceBlock("*sighs* Fine, hahaha.")).toBe("[sighs] Fine, [laughs].");
    expect(enhanceBlock("[whispers] keep it down!")).toBe("[whispers] keep it down!");
  });
  it("is deterministic and tidies spacing", () => {
    expect(enhanceBlock("  hello.world  ")).toBe("Hello. world");
    expect(enhanceBlock("x")).toBe(enhanceBlock("x"));
  });
});
