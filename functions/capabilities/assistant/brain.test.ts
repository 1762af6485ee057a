import { describe, expect, it } from "vitest";
import { ASSISTANT_ROUTES, routeHref } from "../../platform/contract/assistant.js";
import { PERMISSION_IDS, permissionDeniedMessage, type PermissionId } from "../../platform/domain/permissions.js";
import { offlineReply } from "./brain.js";
import { CANNOT_ANSWER } from "./knowledge.js";
import type { AssistantAccount } from "./variables.js";

function account(over: { permissions?: PermissionId[]; used?: number; limit?: number; pvc?: boolean } = {}): AssistantAccount {
  return {
    vars: {
      firstName: "Ada",
      tier: "Creator",
      location: null,
      twoFactorAuthEnabled: false,
      maxSeats: 1,
      accountCreatedDate: "2026-01-02",
      canUseProfessionalVoiceCloning: over.pvc ?? true,
      currentCreditsUsage: over.used ?? 1234,
      totalAvailableMonthlyCredits: over.limit ?? 100_000,
      nextCharacterResetDate: "2026-12-01",
      goal: null,
    },
    email: "ada@example.com",
    tierId: "creator",
    voiceLimit: 30,
    canUseInstantVoiceCloning: true,
    permissions: new Set(over.permissions ?? PERMISSION_IDS),
  };
}

describe("the offline assistant", () => {
  it("takes the user to the voice library and searches it", () => {
    const r = offlineReply("Take me to the voice library and search for a deep voice", account(), null);
    expect(r.calls).toEqual([
      { name: "go_to_route", params: { route: "voice_library" } },
      { name: "set_value", params: { element: "Search the library", value: "deep" } },
    ]);
    expect(r.text).toContain("deep");
  });

  it("says the credits left with the account's real figures", () => {
    const r = offlineReply("How many credits do I have left?", account({ used: 1234, limit: 100_000 }), null);
    expect(r.text).toContain("98,766 credits left");
    expect(r.text).toContain("1,234 of your 100,000");
    expect(r.text).toContain("2026-12-01");
    expect(offlineReply("how many credits do I have left", account({ used: 99_999, limit: 100_000 }), null).text).toContain("You have 1 credits left");
  });

  it("explains how to clone and opens My Voices", () => {
    const r = offlineReply("How do I clone my voice?", account(), null);
    expect(r.text).toMatch(/Instant Voice Clone/);
    expect(r.calls).toEqual([{ name: "go_to_route", params: { route: "my_voices" } }]);
  });

  it("explains why a generation failed", () => {
    const r = offlineReply("Why did my generation fail?", account(), null);
    expect(r.text).toMatch(/quota exceeded/);
    expect(r.text).toMatch(/not charged unless the result appears in the history/);
  });

  it("says what the user's plan allows from the account", () => {
    const r = offlineReply("What plan am I on?", account({ pvc: false }), null);
    expect(r.text).toContain("Creator plan: 100,000 credits a month, 30 voice slots and 1 seat");
    expect(r.text).toContain("does not include professional voice cloning");
    expect(offlineReply("what does each tier allow", account(), null).text).toMatch(/Free 10,000 credits/);
  });

  it("finds where a setting is and takes the user there", () => {
    expect(offlineReply("Where do I find my API key?", account(), null).calls).toEqual([
      { name: "go_to_route", params: { route: "api_keys" } },
      { name: "show_documentation_link", params: { doc: "api-reference" } },
    ]);
    expect(offlineReply("how do I turn on two factor authentication", account(), null).calls).toEqual([{ name: "go_to_route", params: { route: "two_factor_authentication" } }]);
  });

  it("opens a support request with the user's e-mail", () => {
    const r = offlineReply("I want to talk to a human", account(), null);
    expect(r.calls).toEqual([{ name: "show_support_link", params: { email: "ada@example.com" } }]);
  });

  it("says plainly what it cannot answer", () => {
    expect(offlineReply("What is the capital of Peru?", account(), null)).toEqual({ text: CANNOT_ANSWER, calls: [] });
    expect(offlineReply("take me to the moon", account(), null).text).toContain("I can't find a page called “moon”");
  });

  it("applies the user's permission gates to its tools", () => {
    const r = offlineReply("go to the voice changer", account({ permissions: ["text_to_speech"] }), null);
    expect(r).toEqual({ text: permissionDeniedMessage("speech_to_speech"), calls: [] });
    const clone = offlineReply("how do I clone a voice", account({ permissions: [] }), null);
    expect(clone.calls).toEqual([]);
    expect(clone.text).toContain(permissionDeniedMessage("voice_lab"));
  });

  it("searches the page the user is on", () => {
    const r = offlineReply("search for calm", account(), { route: "/app/voice-lab", elements: [] });
    expect(r.calls).toEqual([{ name: "set_value", params: { element: "Search my voices", value: "calm" } }]);
  });

  it("reaches every route of the spec's list, and only with allowed parameters", () => {
    expect(ASSISTANT_ROUTES).toHaveLength(19);
    for (const r of ASSISTANT_ROUTES) expect(offlineReply(`go to ${r.label}`, account(), null).calls[0]).toEqual({ name: "go_to_route", params: { route: r.name } });
    expect(routeHref("studio", { create: "book" })).toBe("/app/studio?create=book");
    expect(routeHref("studio", { create: "novel" })).toBeNull();
    expect(routeHref("my_voices", { action: "verify" })).toBe("/app/voice-lab?action=verify");
    expect(routeHref("nowhere")).toBeNull();
  });
});
