import { describe, expect, it } from "vitest";
import { closeCreation, creationMessages, creationTiles, isCreationOpen, openCreation, resetCreationType, resolveCreationType, type CreationContext } from "./creation.js";

const ALL = new Set(["create_instant_voice_clone", "create_professional_voice_clone", "add_voice_from_voice_library"]);
const slots = (over: Partial<NonNullable<CreationContext["slots"]>> = {}) => ({
  voice_limit: 30,
  voice_slots_used: 2,
  professional_voice_limit: 1,
  can_use_instant_voice_cloning: true,
  ...over,
});

describe("the Add a new voice dialog's state", () => {
  it("opens with mode=create on the chooser; each choice is kept in creationType", () => {
    const open = openCreation(new URLSearchParams("voiceId=x"));
    expect(open.toString()).toBe("voiceId=x&mode=create");
    expect(isCreationOpen(open)).toBe(true);
    expect(openCreation(open, "cloneVoice").get("creationType")).toBe("cloneVoice");
    // Closing keeps the type for now; the reset a second later removes it.
    const closed = closeCreation(openCreation(open, "voiceDesign"));
    expect(closed.toString()).toBe("voiceId=x&creationType=voiceDesign");
    expect(resetCreationType(closed).toString()).toBe("voiceId=x");
    // The professional wizard's clone and edit/verify flag go in the same update.
    const pvc = new URLSearchParams("mode=create&creationType=professionalVoiceClone&createdVoiceId=p&pvcMode=verify");
    expect(closeCreation(pvc).toString()).toBe("creationType=professionalVoiceClone");
  });

  it("returns to the chooser for unknown types and types the user may not use", () => {
    const ctx: CreationContext = { permissions: ALL, slots: slots() };
    expect(resolveCreationType("cloneVoice", ctx)).toBe("cloneVoice");
    expect(resolveCreationType("nonsense", ctx)).toBe("chooseVoiceType");
    expect(resolveCreationType(null, ctx)).toBe("chooseVoiceType");
    expect(resolveCreationType("cloneVoice", { permissions: ALL, slots: slots({ can_use_instant_voice_cloning: false }) })).toBe("chooseVoiceType");
    expect(resolveCreationType("professionalVoiceClone", { permissions: new Set(["create_instant_voice_clone"]), slots: slots() })).toBe("chooseVoiceType");
  });

  it("says why a choice is closed, in the spec's words", () => {
    const free = creationTiles({ permissions: ALL, slots: slots({ can_use_instant_voice_cloning: false, professional_voice_limit: 0, voice_slots_used: 3, voice_limit: 3 }) });
    expect(free.cloneVoice).toEqual({ allowed: false, reason: "You need to be on at least the Starter plan to use Instant Voice Cloning" });
    expect(free.professionalVoiceClone.reason).toBe(creationMessages.pvcPlan);
    expect(free.voiceDesign.reason).toBe("You’ve used all of your custom voice slots. Upgrade to unlock more");
    const member = creationTiles({ permissions: new Set(), slots: slots() });
    expect(member.cloneVoice.reason).toMatch(/^You do not have access to .+\. Please contact your workspace administrator for access\.$/);
    expect(member.voiceLibrary.allowed).toBe(false);
    expect(creationTiles({ permissions: ALL, slots: null }).cloneVoice.allowed).toBe(true);
  });
});
