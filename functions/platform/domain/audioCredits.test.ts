import { describe, expect, it } from "vitest";
import { isolationCredits, speechToSpeechCredits } from "./audioCredits.js";

describe("audio credits", () => {
  it("charges speech to speech at seconds × 60 × model multiplier × voice rate, rounded up", () => {
    expect(speechToSpeechCredits(10, 1)).toBe(600);
    expect(speechToSpeechCredits(10, 1, 1.5)).toBe(900);
    expect(speechToSpeechCredits(2.5, 0.5)).toBe(75);
    expect(speechToSpeechCredits(1.0001, 1)).toBe(61);
    // Floating point noise does not cost a credit: 10 s at 1.1 is 660, not 661.
    expect(speechToSpeechCredits(10, 1.1)).toBe(660);
  });

  it("charges the isolator 1,000 credits per minute, rounded up", () => {
    expect(isolationCredits(60)).toBe(1000);
    expect(isolationCredits(30)).toBe(500);
    expect(isolationCredits(0.05)).toBe(1);
    expect(isolationCredits(0)).toBe(0);
  });
});
