import { describe, expect, it } from "vitest";
import { affiliatePromoEligible, firstShowings, shouldAutoOpen, type Notification } from "./engagement.js";

const n = (id: string, isImportant = true): Notification => ({ id, title: id, description: "", timestamp: 1, largeImage: null, smallImage: null, linkTo: null, isImportant, featureFlagControlled: false, first_shown: null });
const base = { newest: n("a"), read: new Set<string>(), triggerVisible: true, autoOpenOff: false, alreadyAutoOpened: null, accountAgeDays: 3 };

describe("first showings", () => {
  it("are the flag-controlled notifications without a first-shown time", () => {
    const flagged = (id: string, first_shown: number | null): Notification => ({ ...n(id, false), featureFlagControlled: true, first_shown });
    expect(firstShowings([n("release"), flagged("upsell", null), flagged("regen", 1_700_000_000)])).toEqual(["upsell"]);
  });
});

describe("notification auto-open rule", () => {
  it("opens for an unread important newest notification on an account at least 3 days old, once", () => {
    expect(shouldAutoOpen(base)).toBe(true);
    expect(shouldAutoOpen({ ...base, accountAgeDays: 2.9 })).toBe(false);
    expect(shouldAutoOpen({ ...base, newest: n("a", false) })).toBe(false);
    expect(shouldAutoOpen({ ...base, read: new Set(["a"]) })).toBe(false);
    expect(shouldAutoOpen({ ...base, triggerVisible: false })).toBe(false);
    expect(shouldAutoOpen({ ...base, autoOpenOff: true })).toBe(false);
    expect(shouldAutoOpen({ ...base, alreadyAutoOpened: "a" })).toBe(false);
    expect(shouldAutoOpen({ ...base, newest: undefined })).toBe(false);
  });
});

describe("affiliate promotion", () => {
  it("is for accounts 7 days old on the eligible tiers, 10% of the time, without a link yet", () => {
    const ok = { accountAgeDays: 7, tier: "pro", hasLink: false, random: 0.05 };
    expect(affiliatePromoEligible(ok)).toBe(true);
    expect(affiliatePromoEligible({ ...ok, random: 0.1 })).toBe(false);
    expect(affiliatePromoEligible({ ...ok, accountAgeDays: 6 })).toBe(false);
    expect(affiliatePromoEligible({ ...ok, tier: "free" })).toBe(false);
    expect(affiliatePromoEligible({ ...ok, hasLink: true })).toBe(false);
  });
});
