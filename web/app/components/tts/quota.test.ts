import { describe, expect, it } from "vitest";
import { quotaCheck } from "./quota.js";

describe("credit check before generating", () => {
  it("lets a generation through when the credits cover it", () => {
    expect(quotaCheck({ cost: 100, tier: "free", used: 9_900, limit: 10_000 })).toMatchObject({ blocked: false, dialog: false });
    expect(quotaCheck({ cost: 0, tier: "free", used: 10_000, limit: 10_000 }).blocked).toBe(false);
  });

  it("blocks a free-tier user whose quota would be exceeded, with the API's message", () => {
    const r = quotaCheck({ cost: 101, tier: "free", used: 9_900, limit: 10_000 });
    expect(r).toMatchObject({ blocked: true, dialog: false });
    expect(r.message).toBe("This request exceeds your quota of 10000. You have 100 credits remaining, while 101 credits are required for this request.");
  });

  it("gives a paid user the quota dialog instead", () => {
    const r = quotaCheck({ cost: 600_000, tier: "pro", used: 0, limit: 500_000 });
    expect(r).toMatchObject({ blocked: false, dialog: true });
    expect(r.message).toContain("You have 500000 credits remaining, while 600000 credits are required");
  });
});
