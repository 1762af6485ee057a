import { describe, expect, it } from "vitest";
import { addActivity, addUsage, usageWindows, TREND_HALF_LIFE_SECONDS } from "./counters.js";

const DAY = 86_400;
const t0 = Date.UTC(2026, 10, 23) / 1000;

describe("library counters", () => {
  it("counts usage over the last 7 days exactly and over the last 12 months", () => {
    let c = { usage_days: {}, usage_months: {} };
    c = addUsage(c, 100, t0 - 400 * DAY); // more than a year ago
    c = addUsage(c, 50, t0 - 40 * DAY);
    c = addUsage(c, 20, t0 - 8 * DAY);
    c = addUsage(c, 7, t0 - 6 * DAY);
    c = addUsage(c, 3, t0);
    expect(usageWindows(c, t0)).toEqual({ d7: 10, y1: 80 });
    // A week later without use, the 7-day figure has gone and the year remains.
    expect(usageWindows(c, t0 + 7 * DAY)).toEqual({ d7: 0, y1: 80 });
    // Buckets that can no longer count are dropped when writing.
    expect(Object.keys(c.usage_days).length).toBeLessThanOrEqual(8);
    expect(Object.keys(c.usage_months).length).toBeLessThanOrEqual(13);
  });

  it("ranks recent activity above the same activity a half-life earlier, and by size at equal times", () => {
    const old = addActivity(null, 1000, t0 - TREND_HALF_LIFE_SECONDS);
    const recent = addActivity(null, 1000, t0);
    expect(recent).toBeGreaterThan(old);
    // Twice the activity one half-life earlier ranks the same as the activity now.
    expect(addActivity(null, 2000, t0 - TREND_HALF_LIFE_SECONDS)).toBeCloseTo(recent, 9);
    // Accumulating: two events add up like their decayed sum.
    expect(addActivity(addActivity(null, 1000, t0), 1000, t0)).toBeCloseTo(addActivity(null, 2000, t0), 9);
  });
});
