import { describe, expect, it } from "vitest";
import { attemptsLinkShown, maxAttemptsScreen, relativeTime, remainingAttempts } from "./verification.js";

describe("the Verification screen's attempt rules", () => {
  const now = 1_800_000_000_000;
  const ft = (count: number, resetMs: number | null, max = 5) => ({ verification_attempts_count: count, max_verification_attempts: max, next_max_verification_attempts_reset_unix_ms: resetMs });

  it("counts what remains from the maximum (5 by default)", () => {
    expect(remainingAttempts(ft(2, null))).toBe(3);
    expect(remainingAttempts({ verification_attempts_count: 1 })).toBe(4);
    expect(remainingAttempts(ft(7, null))).toBe(0);
  });

  it("shows the attempts-left link at 3 or fewer with a reset in the future", () => {
    expect(attemptsLinkShown(ft(1, now + 1000), now)).toBe(false);
    expect(attemptsLinkShown(ft(2, now + 1000), now)).toBe(true);
    expect(attemptsLinkShown(ft(2, now - 1000), now)).toBe(false);
    expect(attemptsLinkShown(ft(4, null), now)).toBe(false);
  });

  it("shows the maximum screen with a time to try again, or the help center when no reset is ahead", () => {
    expect(maxAttemptsScreen(ft(4, now + 1000), false, now)).toEqual({ shown: false, resetMs: null });
    expect(maxAttemptsScreen(ft(5, now + 3_600_000), false, now)).toEqual({ shown: true, resetMs: now + 3_600_000 });
    expect(maxAttemptsScreen(ft(5, now - 1), false, now)).toEqual({ shown: true, resetMs: null });
    expect(maxAttemptsScreen(ft(1, now + 60_000), true, now)).toEqual({ shown: true, resetMs: now + 60_000 });
  });

  it("says the time relatively", () => {
    expect(relativeTime(now + 5 * 3_600_000, now)).toBe("in 5 hours");
    expect(relativeTime(now + 3 * 60_000, now)).toBe("in 3 minutes");
    expect(relativeTime(now + 86_400_000, now)).toBe("tomorrow");
  });
});
