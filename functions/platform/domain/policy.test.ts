import { describe, expect, it } from "vitest";
import { resolveFlags, FLAG_DEFAULTS } from "./flags.js";
import { effectivePermissions, permissionDeniedMessage, EVERYONE_GROUP_ID, PERMISSION_IDS } from "./permissions.js";
import { issueToken, verifyToken } from "./tokens.js";
import { TIERS, TIER_IDS, minimumTierFor } from "./tiers.js";

describe("feature flags", () => {
  it("layers defaults, configuration and the workspace's overrides, ignoring unknown names", () => {
    const flags = resolveFlags({ productions: true, "dark-mode": false, bogus: true }, { "dark-mode": true, productions: false });
    expect(flags.productions).toBe(false);
    expect(flags["dark-mode"]).toBe(true);
    expect(flags["speech-to-text-ui"]).toBe(FLAG_DEFAULTS["speech-to-text-ui"]);
    expect(Object.keys(flags)).not.toContain("bogus");
  });
});

describe("permissions", () => {
  const groups = [
    { group_id: EVERYONE_GROUP_ID, permissions: ["text_to_speech" as const], member_user_ids: [] },
    { group_id: "g1", permissions: ["dubbing" as const], member_user_ids: ["u1"] },
  ];
  it("grants Everyone's permissions plus those of the member's own groups", () => {
    expect([...effectivePermissions("u1", "workspace_member", groups)].sort()).toEqual(["dubbing", "text_to_speech"]);
    expect([...effectivePermissions("u2", "workspace_member", groups)]).toEqual(["text_to_speech"]);
  });
  it("gives admins everything", () => {
    expect(effectivePermissions("u2", "workspace_admin", []).size).toBe(PERMISSION_IDS.length);
  });
  it("words the denial as the spec does", () => {
    expect(permissionDeniedMessage("create_user_api_key")).toBe("You do not have access to API keys. Please contact your workspace administrator for access.");
  });
});

describe("session tokens", () => {
  const secret = "a-test-secret-that-is-at-least-32-chars";
  const claims = { sid: "s", uid: "u", ws: "w", exp: 2000 };
  it("verifies its own tokens until they expire", () => {
    const t = issueToken(secret, claims);
    expect(verifyToken(secret, t, 1999)).toEqual(claims);
    expect(verifyToken(secret, t, 2000)).toBeUndefined();
  });
  it("rejects tampered claims", () => {
    const t = issueToken(secret, claims);
    const [payload, mac] = t.slice(3).split(".");
    const forged = Buffer.from(JSON.stringify({ ...claims, ws: "other" })).toString("base64url");
    expect(verifyToken(secret, `tt_${forged}.${mac}`, 0)).toBeUndefined();
    expect(verifyToken("another-secret-that-is-at-least-32-chars", t, 0)).toBeUndefined();
    expect(payload.length).toBeGreaterThan(0);
  });
});

describe("tiers", () => {
  it("grow monotonically in credits, voices and concurrency", () => {
    for (let i = 1; i < TIER_IDS.length; i++) {
      const [lo, hi] = [TIERS[TIER_IDS[i - 1]], TIERS[TIER_IDS[i]]];
      expect(hi.characterLimit).toBeGreaterThan(lo.characterLimit);
      expect(hi.voiceLimit).toBeGreaterThanOrEqual(lo.voiceLimit);
      expect(hi.concurrency).toBeGreaterThanOrEqual(lo.concurrency);
    }
  });
  it("gate high-quality formats: 192 kbps MP3 from Creator, 44.1 kHz PCM from Pro", () => {
    expect(minimumTierFor("mp3_44100_192")?.id).toBe("creator");
    expect(minimumTierFor("pcm_44100")?.id).toBe("pro");
    expect(minimumTierFor("mp3_44100_128")?.id).toBe("free");
    expect(TIERS.free.canUseInstantVoiceCloning).toBe(false);
    expect(TIERS.starter.canUseInstantVoiceCloning).toBe(true);
    expect(TIERS.starter.professionalVoiceLimit).toBe(0);
    expect(TIERS.creator.professionalVoiceLimit).toBeGreaterThan(0);
  });
});
