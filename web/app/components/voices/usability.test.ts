import { describe, expect, it } from "vitest";
import { usabilityMessages, voiceUsability } from "./usability.js";

const voice = (over: Partial<Parameters<typeof voiceUsability>[0]> = {}) => ({ safety_control: null, voice_verification: null, sharing: null, ...over });

describe("usable voices (speech-generation.md §5)", () => {
  it("allows ordinary voices, and CAPTCHA voices once verified", () => {
    expect(voiceUsability(voice()).usable).toBe(true);
    expect(voiceUsability(voice({ safety_control: "NONE" })).usable).toBe(true);
    expect(voiceUsability(voice({ safety_control: "CAPTCHA", voice_verification: { requires_verification: false, is_verified: true } })).usable).toBe(true);
  });

  it("refuses banned voices, unverified CAPTCHA voices, voices awaiting verification and expired library voices, saying why", () => {
    expect(voiceUsability(voice({ safety_control: "BAN" }))).toEqual({ usable: false, reason: usabilityMessages.blocked });
    expect(voiceUsability(voice({ safety_control: "CAPTCHA", voice_verification: { requires_verification: false, is_verified: false } }))).toEqual({ usable: false, reason: usabilityMessages.captcha });
    expect(voiceUsability(voice({ voice_verification: { requires_verification: true, is_verified: false } }))).toEqual({ usable: false, reason: usabilityMessages.notVerified });
    expect(voiceUsability(voice({ sharing: { status: "copied_disabled" } }))).toEqual({ usable: false, reason: usabilityMessages.removed });
    expect(voiceUsability(voice({ sharing: { status: "copied" } })).usable).toBe(true);
  });
});
