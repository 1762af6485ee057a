import { describe, expect, it } from "vitest";
import { LOW_QUOTA_DISMISS_MS, shouldShowLowQuotaBanner, usagePercent } from "./usage.js";

const now = Date.UTC(2026, 10, 22, 12);
const base = { tier: "pro", used: 400_000, limit: 500_000, dismissedAt: null, now };

describe("usage percent", () => {
  it("is the share of the limit used, capped at 100", () => {
    expect(usagePercent(0, 10_000)).toBe(0);
    expect(usagePercent(2_500, 10_000)).toBe(25);
    expect(usagePercent(12_000, 10_000)).toBe(100);
  });

  it("counts a plan without credits as fully used", () => {
    expect(usagePercent(0, 0)).toBe(100);
  });
});

describe("low-quota banner", () => {
  it("shows on a paid tier at 80% usage or more", () => {
    expect(shouldShowLowQuotaBanner(base)).toBe(true);
    expect(shouldShowLowQuotaBanner({ ...base, used: 500_000 })).toBe(true);
    expect(shouldShowLowQuotaBanner({ ...base, used: 600_000 })).toBe(true);
  });

  it("does not show below 80%", () => {
    expect(shouldShowLowQuotaBanner({ ...base, used: 399_999 })).toBe(false);
  });

  it("never shows on the free tier", () => {
    expect(shouldShowLowQuotaBanner({ ...base, tier: "free", used: 9_900, limit: 10_000 })).toBe(false);
  });

  it("stays hidden for 24 hours after dismissal, then comes back", () => {
    expect(shouldShowLowQuotaBanner({ ...base, dismissedAt: now - 1000 })).toBe(false);
    expect(shouldShowLowQuotaBanner({ ...base, dismissedAt: now - LOW_QUOTA_DISMISS_MS + 1 })).toBe(false);
    expect(shouldShowLowQuotaBanner({ ...base, dismissedAt: now - LOW_QUOTA_DISMISS_MS })).toBe(true);
  });

  it("ignores a dismissal time in the future (clock changes)", () => {
    expect(shouldShowLowQuotaBanner({ ...base, dismissedAt: now + 60_000 })).toBe(true);
  });
});
