import { describe, expect, it } from "vitest";
import { cloneActionParams, cloneActions, createFlagParams } from "./cloneLinks.js";

const ivc = { voice_id: "v1", category: "cloned", voice_verification: { requires_verification: true, is_verified: false } };
const pvc = { voice_id: "p1", category: "professional", voice_verification: { requires_verification: false, is_verified: true } };

describe("ways back into a clone", () => {
  it("offers Edit for clones and Verify only while one needs verification, nothing for other voices", () => {
    expect(cloneActions(ivc)).toEqual(["edit", "verify"]);
    expect(cloneActions(pvc)).toEqual(["edit"]);
    expect(cloneActions({ ...pvc, voice_verification: { requires_verification: true, is_verified: false } })).toEqual(["edit", "verify"]);
    expect(cloneActions({ voice_id: "g", category: "generated", voice_verification: null })).toEqual([]);
    expect(cloneActions({ voice_id: "d", category: "premade", voice_verification: { requires_verification: true, is_verified: false } })).toEqual([]);
  });

  it("opens an instant clone with mode and voiceId, a professional one with pvcMode and createdVoiceId, keeping the rest of the query", () => {
    const base = new URLSearchParams("search=ava");
    expect(Object.fromEntries(cloneActionParams(base, ivc, "verify"))).toEqual({ search: "ava", creationType: "cloneVoice", mode: "verify", voiceId: "v1" });
    expect(Object.fromEntries(cloneActionParams(base, ivc, "edit"))).toMatchObject({ mode: "edit", voiceId: "v1" });
    expect(Object.fromEntries(cloneActionParams(base, pvc, "edit"))).toEqual({ search: "ava", mode: "create", creationType: "professionalVoiceClone", createdVoiceId: "p1", pvcMode: "edit" });
    expect(base.toString()).toBe("search=ava");
  });

  it("turns create=true into the open Add a new voice dialog, and leaves other queries alone", () => {
    expect(createFlagParams(new URLSearchParams("create=true&voiceId=x"))?.toString()).toBe("voiceId=x&mode=create");
    expect(createFlagParams(new URLSearchParams("create=false"))).toBeNull();
    expect(createFlagParams(new URLSearchParams(""))).toBeNull();
  });
});
