import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../../infra/local/stack.js";
import { startTestStack, createTestAccount } from "../../../test/support/stack.js";
import { addMonth, charge, currentUsage, refund, changeLimit } from "./credits.js";
import { ApiError } from "../http/errors.js";

let stack: EmbeddedStack;
let clock = Date.UTC(2026, 0, 31, 12, 0, 0);
beforeAll(async () => {
  stack = await startTestStack({ now: () => clock });
});
afterAll(async () => stack?.close());

async function workspaceWithLimit(limit: number) {
  const acct = await createTestAccount(stack, "free");
  await changeLimit(stack.ctx, acct.workspace.workspace_id, limit);
  return acct.workspace.workspace_id;
}

describe("credits", () => {
  it("never overspends: 25 concurrent charges of 10 against 100 credits let exactly 10 through", async () => {
    const ws = await workspaceWithLimit(100);
    const results = await Promise.allSettled(Array.from({ length: 25 }, (_, i) => charge(stack.ctx, { workspaceId: ws, key: `req-${i}`, amount: 10 })));
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    expect(ok).toHaveLength(10);
    expect(refused.every((r) => r.reason instanceof ApiError && r.reason.status === "quota_exceeded")).toBe(true);
    const usage = await currentUsage(stack.ctx, ws);
    expect(usage.character_count).toBe(100);
    expect(usage.remaining).toBe(0);
  });

  it("charges a retried request once, even when the retries race", async () => {
    const ws = await workspaceWithLimit(1000);
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => charge(stack.ctx, { workspaceId: ws, key: "same-request", amount: 30 })));
    const fulfilled = results.filter((r) => r.status === "fulfilled") as PromiseFulfilledResult<Awaited<ReturnType<typeof charge>>>[];
    expect(fulfilled.filter((r) => r.value.charged)).toHaveLength(1);
    // Others either saw the finished charge or were told the identical request is in flight.
    for (const r of results) if (r.status === "rejected") expect((r.reason as ApiError).status).toBe("request_in_progress");
    const again = await charge(stack.ctx, { workspaceId: ws, key: "same-request", amount: 30 });
    expect(again.charged).toBe(false);
    expect((await currentUsage(stack.ctx, ws)).character_count).toBe(30);
  });

  it("refunds a failed request once and lets the retry charge again", async () => {
    const ws = await workspaceWithLimit(100);
    await charge(stack.ctx, { workspaceId: ws, key: "r1", amount: 40 });
    expect(await refund(stack.ctx, ws, "r1")).toBe(true);
    expect(await refund(stack.ctx, ws, "r1")).toBe(false);
    expect((await currentUsage(stack.ctx, ws)).remaining).toBe(100);
    const retry = await charge(stack.ctx, { workspaceId: ws, key: "r1", amount: 40 });
    expect(retry.charged).toBe(true);
    expect((await currentUsage(stack.ctx, ws)).character_count).toBe(40);
  });

  it("refuses with quota_exceeded and the numbers, and records nothing", async () => {
    const ws = await workspaceWithLimit(50);
    const err = await charge(stack.ctx, { workspaceId: ws, key: "big", amount: 60 }).catch((e: ApiError) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe("quota_exceeded");
    expect((err as ApiError).message).toContain("You have 50 credits remaining, while 60 credits are required");
    expect(await stack.ctx.stores.ledger.charge(ws, "big")).toBeUndefined();
  });

  it("starts a new monthly period once, keeping the anchor day", async () => {
    const ws = await workspaceWithLimit(100);
    await charge(stack.ctx, { workspaceId: ws, key: "m1", amount: 70 });
    const before = await currentUsage(stack.ctx, ws);
    expect(new Date(before.next_reset_unix * 1000).toISOString()).toBe("2026-02-28T12:00:00.000Z");
    clock = before.next_reset_unix * 1000 + 1000;
    const after = await Promise.all([currentUsage(stack.ctx, ws), currentUsage(stack.ctx, ws)]);
    expect(after[0].character_count).toBe(0);
    expect(after[0].remaining).toBe(100);
    expect(after[1].next_reset_unix).toBe(after[0].next_reset_unix);
    expect(new Date(after[0].next_reset_unix * 1000).toISOString()).toBe("2026-03-28T12:00:00.000Z");
  });

  it("adds calendar months, clamping to the month's last day", () => {
    expect(new Date(addMonth(Date.UTC(2026, 0, 31) / 1000) * 1000).toISOString().slice(0, 10)).toBe("2026-02-28");
    expect(new Date(addMonth(Date.UTC(2026, 11, 15) / 1000) * 1000).toISOString().slice(0, 10)).toBe("2027-01-15");
  });
});
