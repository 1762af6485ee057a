import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../../infra/local/stack.js";
import { startTestStack } from "../../../test/support/stack.js";

let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

describe("generation slots", () => {
  it("hands out at most `limit` slots at once, whatever the concurrency", async () => {
    const l = stack.ctx.stores.ledger;
    const got = await Promise.all(Array.from({ length: 12 }, (_, i) => l.takeSlot("ws-slots", 5, `req${i}`, 1000, 60)));
    const taken = got.filter((n) => n !== undefined);
    expect(taken).toHaveLength(5);
    expect(new Set(taken).size).toBe(5);
    await l.releaseSlot("ws-slots", taken[0]!, "someone-else");
    expect(await l.takeSlot("ws-slots", 5, "late", 1000, 60)).toBeUndefined();
    const owner = `req${got.indexOf(taken[0])}`;
    await l.releaseSlot("ws-slots", taken[0]!, owner);
    expect(await l.takeSlot("ws-slots", 5, "late", 1000, 60)).toBe(taken[0]);
  });

  it("lets an expired lease be taken over", async () => {
    const l = stack.ctx.stores.ledger;
    expect(await l.takeSlot("ws-lease", 1, "crashed", 1000, 30)).toBe(0);
    expect(await l.takeSlot("ws-lease", 1, "next", 1010, 30)).toBeUndefined();
    expect(await l.takeSlot("ws-lease", 1, "next", 1031, 30)).toBe(0);
  });
});

describe("identical-request counting", () => {
  it("counts generations within the window from the first, then starts over", async () => {
    const l = stack.ctx.stores.ledger;
    expect(await l.countGeneration("ws-r", "fp", 7200, 10_000)).toBe(1);
    expect(await l.countGeneration("ws-r", "fp", 7200, 10_100)).toBe(2);
    await l.uncountGeneration("ws-r", "fp");
    expect(await l.countGeneration("ws-r", "fp", 7200, 10_200)).toBe(2);
    expect(await l.countGeneration("ws-r", "fp", 7200, 10_000 + 7200)).toBe(1);
    expect(await l.countGeneration("ws-r", "other", 7200, 10_000)).toBe(1);
  });
});

describe("attempt windows", () => {
  it("takes at most `max` in a window, and when sliding at most `max` over any span of one window", async () => {
    const l = stack.ctx.stores.ledger;
    const w = 900;
    const boundary = 900 * 2000;
    const sliding = { sliding: true };
    // Fixed windows alone: the limit starts over at the boundary.
    const fixed = await Promise.all(Array.from({ length: 6 }, () => l.takeAttempt("t-fixed", "a", w, boundary - 1, 4)));
    expect(fixed.filter((c) => c !== undefined).sort()).toEqual([1, 2, 3, 4]);
    expect(await l.takeAttempt("t-fixed", "a", w, boundary, 4)).toBe(1);
    expect(await l.attemptRetryAfter("t-fixed", "a", w, boundary - 1, 4)).toBe(1);
    // Sliding: three just before the boundary leave one just after it, parallel callers included.
    for (let i = 1; i <= 3; i++) expect(await l.takeAttempt("t-slide", "a", w, boundary - 10, 4, sliding)).toBe(i);
    const after = await Promise.all(Array.from({ length: 5 }, () => l.takeAttempt("t-slide", "a", w, boundary + 10, 4, sliding)));
    expect(after.filter((c) => c !== undefined)).toEqual([4]);
    // The three (in the third of the window before the boundary) count until a window and a third after that
    // third began: the boundary plus one window.
    expect(await l.attemptRetryAfter("t-slide", "a", w, boundary + 10, 4, sliding)).toBe(w - 10);
    expect(await l.takeAttempt("t-slide", "a", w, boundary + w - 1, 4, sliding)).toBeUndefined();
    const later = await Promise.all(Array.from({ length: 5 }, () => l.takeAttempt("t-slide", "a", w, boundary + w, 4, sliding)));
    expect(later.filter((c) => c !== undefined).sort()).toEqual([2, 3, 4]);
    // The one just after the boundary counts a third of a window longer.
    expect(await l.attemptRetryAfter("t-slide", "a", w, boundary + w, 4, sliding)).toBe(300);
    // Clearing a sliding window clears every bucket it counts.
    await l.clearWindow("t-slide", "a", w, boundary + w + 10, sliding);
    expect(await l.takeAttempt("t-slide", "a", w, boundary + w + 20, 4, sliding)).toBe(1);
    expect(await l.attemptRetryAfter("t-slide", "a", w, boundary + w + 20, 4, sliding)).toBe(0);
  });
});
