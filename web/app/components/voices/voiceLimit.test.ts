import { describe, expect, it } from "vitest";
import { voiceMessages } from "../../../../functions/platform/contract/voices.js";
import { isVoiceLimitMessage, voiceLimitMessages, voiceLimitVariant } from "./voiceLimit.js";

describe("'Voice limit of {n} reached' and its variants", () => {
  it("recognises the server's message, also inside a longer one", () => {
    expect(isVoiceLimitMessage(voiceMessages.voiceLimitReached(3))).toBe(true);
    expect(isVoiceLimitMessage(`${voiceMessages.voiceLimitReached(160)}.`)).toBe(true);
    expect(isVoiceLimitMessage(`Failed to add voice. ${voiceMessages.voiceLimitReached(30)}`)).toBe(true);
    expect(isVoiceLimitMessage("Voice not found")).toBe(false);
    expect(isVoiceLimitMessage(null)).toBe(false);
  });

  it("offers the upgrade below the largest plans, and how to make room on them", () => {
    for (const tier of ["free", "starter", "creator", "pro"]) expect(voiceLimitVariant(tier)).toEqual({ text: voiceLimitMessages.upgrade, link: { label: "Upgrade", to: "/app/settings/subscription" } });
    for (const tier of ["scale", "business"]) expect(voiceLimitVariant(tier)).toEqual({ text: voiceLimitMessages.makeRoom, link: null });
  });
});
