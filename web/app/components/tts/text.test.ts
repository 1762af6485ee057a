import { describe, expect, it } from "vitest";
import { bracketWarning, downloadFileName, extensionForContentType, formatDateTime, limitText, requestText, textMessages } from "./text.js";

describe("editor text", () => {
  it("warns about curly braces or square brackets", () => {
    expect(bracketWarning("Hello there", { v3Dialogue: false })).toBeNull();
    expect(bracketWarning("Hello {there}", { v3Dialogue: false })).toBe(textMessages.brackets);
    expect(bracketWarning("Hello [laughs]", { v3Dialogue: false })).toBe(textMessages.brackets);
  });

  it("warns only about curly braces for the v3 dialogue model", () => {
    expect(bracketWarning("Hello [laughs]", { v3Dialogue: true })).toBeNull();
    expect(bracketWarning("Hello {x}", { v3Dialogue: true })).toBe(textMessages.curlyBraces);
  });

  it("truncates text over the limit and says so", () => {
    expect(limitText("abcdef", 10)).toEqual({ text: "abcdef", truncated: false });
    expect(limitText("abcdef", 4)).toEqual({ text: "abcd", truncated: true });
    expect(textMessages.tooManyCharacters(5000)).toBe("You can only have up to 5,000 characters in the speech.");
  });

  it("trims the text a request sends", () => {
    expect(requestText("  Hello.\n")).toBe("Hello.");
  });

  it("names downloads after the voice and the date", () => {
    const at = new Date(Date.UTC(2026, 10, 23, 10, 5, 2));
    expect(downloadFileName(["Avery"], at)).toBe("Avery_2026-11-23_10-05-02.mp3");
    expect(downloadFileName(["Studio Nora!", "Marcus", "Avery", "Zed"], at, "wav")).toBe("Studio_Nora-Marcus-Avery_2026-11-23_10-05-02.wav");
    expect(downloadFileName([], at)).toBe("speech_2026-11-23_10-05-02.mp3");
    expect(extensionForContentType("audio/mpeg")).toBe("mp3");
    expect(formatDateTime(Date.UTC(2026, 10, 23, 10, 5) / 1000)).toBe("Nov 23, 2026, 10:05 UTC");
  });
});
