import type { AppContext } from "../context.js";
import type { ChargeRecord, UsageRecord } from "../stores/ledger.js";
import { ApiError } from "../http/errors.js";
import { emitEvent } from "../events/index.js";
import { capExceeded, quotaExceeded, type SpendingCap } from "./quota.js";
import type { Caller } from "./caller.js";

/**
 * Credits: a charge is one conditional atomic update of the workspace's usage item (it can
 * never go below zero remaining, whatever the concurrency) plus an idempotency record per
 * request key, opened before the deduction, so a retried request is never charged twice.
 * The record is opened first on purpose: a crash between the two writes undercharges, never
 * double-charges; a pending record older than PENDING_TAKEOVER_SECONDS is taken over.
 */
export const PENDING_TAKEOVER_SECONDS = 120;
export const CHARGE_RECORD_TTL_SECONDS = 3 * 24 * 3600;
/** A cap's counter outlives its period (at most a month) with room to spare. */
const CAP_RECORD_TTL_SECONDS = 40 * 24 * 3600;

/** The first instant of the month after `unix`, counted from the anchor day, in UTC. */
export function addMonth(unix: number): number {
  const d = new Date(unix * 1000);
  const day = d.getUTCDate();
  const next = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return Math.floor(next.getTime() / 1000);
}

export function initialUsage(workspaceId: string, limit: number, nowUnix: number): UsageRecord {
  return {
    workspace_id: workspaceId,
    character_count: 0,
    character_limit: limit,
    remaining: limit,
    period_start_unix: nowUnix,
    next_reset_unix: addMonth(nowUnix),
    voice_add_edit_counter: 0,
  };
}

/** The usage of the current period, starting a new period first when the old one has ended. */
export async function currentUsage(ctx: AppContext, workspaceId: string): Promise<UsageRecord> {
  const now = Math.floor(ctx.now() / 1000);
  let usage = await ctx.stores.ledger.usage(workspaceId);
  if (!usage) throw new ApiError(500, "usage_missing", "The workspace has no usage record");
  while (usage.next_reset_unix <= now) {
    let start = usage.next_reset_unix;
    let next = addMonth(start);
    while (next <= now) {
      start = next;
      next = addMonth(next);
    }
    const reset = await ctx.stores.ledger.resetPeriod(workspaceId, usage.next_reset_unix, start, next);
    // Lost the race to another request: read what it wrote.
    usage = reset ?? (await ctx.stores.ledger.usage(workspaceId))!;
  }
  return usage;
}

export interface ChargeResult {
  /** False when this key was already charged (a retry): nothing was deducted now. */
  charged: boolean;
  amount: number;
  usage: UsageRecord;
}

// The message is shared with the web (which must not bundle this module's server imports).
export { quotaExceeded } from "./quota.js";

/**
 * The spending caps a caller's charges count against: its API key's `character_limit` and its
 * membership's `usage_limit`, where set.
 */
export async function spendingCaps(caller: Caller): Promise<SpendingCap[]> {
  const caps: SpendingCap[] = [];
  const { apiKeyId, apiKeyCharacterLimit } = caller.principal;
  if (apiKeyId && typeof apiKeyCharacterLimit === "number") caps.push({ id: `key:${apiKeyId}`, kind: "api_key", limit: apiKeyCharacterLimit });
  const member = await caller.member();
  if (typeof member.usage_limit === "number") caps.push({ id: `member:${caller.userId}`, kind: "member", limit: member.usage_limit });
  return caps;
}

/** The spec's billing message (app-shell.md §8) for a workspace whose free tier an administrator disabled. */
export const FREE_TIER_DISABLED = "Your free tier access has been disabled. Please upgrade to a paid plan.";

/**
 * Paid work needs a workspace whose plan is usable: a free tier that a server administrator disabled
 * (`free_disabled`) is refused with the spec's message. An incomplete or failed payment only warns (the shell's
 * banner), as a grace period.
 */
export async function requireUsablePlan(caller: Caller): Promise<void> {
  if ((await caller.workspace()).status === "free_disabled") throw new ApiError(403, "free_tier_disabled", FREE_TIER_DISABLED);
}

export async function charge(ctx: AppContext, input: { workspaceId: string; key: string; amount: number; overage?: number; caps?: SpendingCap[] }): Promise<ChargeResult> {
  const { workspaceId: ws, key } = input;
  const amount = Math.max(0, Math.ceil(input.amount));
  const ledger = ctx.stores.ledger;
  const now = Math.floor(ctx.now() / 1000);
  const caps = input.caps ?? [];
  const open = (capRefs: ChargeRecord["caps"]) => ledger.openCharge({ workspace_id: ws, key, amount, state: "pending", updated_at: now, caps: capRefs }, now + CHARGE_RECORD_TTL_SECONDS);
  // The usage is read (and its period rolled over when due) before anything is deducted. Without
  // caps the charge record does not name the period, so it is opened in the same round trip.
  let period: number;
  let opened: boolean;
  if (caps.length) {
    period = (await currentUsage(ctx, ws)).period_start_unix;
    opened = await open(caps.map((c) => ({ id: c.id, period })));
  } else {
    const [usage, record] = await Promise.allSettled([currentUsage(ctx, ws), open([])]);
    if (usage.status === "rejected") {
      if (record.status === "fulfilled" && record.value) await ledger.dropCharge(ws, key, "pending").catch(() => undefined);
      throw usage.reason;
    }
    if (record.status === "rejected") throw record.reason;
    period = usage.value.period_start_unix;
    opened = record.value;
  }
  const capRefs = caps.map((c) => ({ id: c.id, period }));

  if (!opened) {
    const existing = await ledger.charge(ws, key);
    if (existing?.state === "charged") return { charged: false, amount: existing.amount, usage: await currentUsage(ctx, ws) };
    const takenOver =
      existing?.state === "refunded"
        ? await ledger.transitionCharge(ws, key, "refunded", "pending", now, { amount, caps: capRefs })
        : await ledger.transitionCharge(ws, key, "pending", "pending", now, { amount, caps: capRefs, olderThan: now - PENDING_TAKEOVER_SECONDS });
    if (!takenOver) throw new ApiError(409, "request_in_progress", "An identical request is already being processed. Please retry shortly.");
  }

  // The caps first (each atomic, given back if a later one or the workspace refuses), then the workspace.
  const taken: SpendingCap[] = [];
  const giveBack = () => Promise.all(taken.map((c) => ledger.capSubtract(ws, c.id, period, amount)));
  for (const cap of caps) {
    if ((await ledger.capAdd(ws, cap.id, period, amount, cap.limit, now + CAP_RECORD_TTL_SECONDS)) === undefined) {
      await giveBack();
      await ledger.dropCharge(ws, key, "pending");
      throw capExceeded(cap, await ledger.capUsed(ws, cap.id, period), amount);
    }
    taken.push(cap);
  }
  const usage = await ledger.deduct(ws, amount, input.overage ?? 0);
  if (!usage) {
    await giveBack();
    await ledger.dropCharge(ws, key, "pending");
    throw quotaExceeded(await currentUsage(ctx, ws), amount);
  }
  await ledger.transitionCharge(ws, key, "pending", "charged", now);
  await announceThresholds(ctx, usage, amount);
  return { charged: true, amount, usage };
}

/** Usage levels a workspace hears about (webhook event quota_threshold_reached), in percent of its limit. */
export const QUOTA_THRESHOLDS = [80, 100] as const;

/**
 * Emits quota_threshold_reached for each threshold this charge crossed. Deductions are atomic,
 * so exactly one charge sees the count pass a threshold in a period.
 */
async function announceThresholds(ctx: AppContext, usage: UsageRecord, amount: number): Promise<void> {
  if (usage.character_limit <= 0 || amount <= 0) return;
  const after = usage.character_count;
  const before = after - amount;
  for (const percent of QUOTA_THRESHOLDS) {
    const level = (usage.character_limit * percent) / 100;
    if (before < level && after >= level) {
      await emitEvent(ctx, usage.workspace_id, "quota_threshold_reached", {
        threshold_percent: percent,
        character_count: after,
        character_limit: usage.character_limit,
        next_character_count_reset_unix: usage.next_reset_unix,
      }).catch((e: unknown) => ctx.log.error("quota event not recorded", { error: e }));
    }
  }
}

/**
 * Keeps `keep` of a charge and gives the rest back (a stream the client left early: what was
 * synthesised is paid for, the rest is not). Safe to call twice: the second finds another amount.
 */
export async function refundPart(ctx: AppContext, workspaceId: string, key: string, keep: number): Promise<number> {
  const now = Math.floor(ctx.now() / 1000);
  const record = await ctx.stores.ledger.charge(workspaceId, key);
  if (!record || record.state !== "charged") return 0;
  const kept = Math.max(0, Math.min(record.amount, Math.ceil(keep)));
  const back = record.amount - kept;
  if (back <= 0 || !(await ctx.stores.ledger.reduceCharge(workspaceId, key, record.amount, kept, now))) return 0;
  await ctx.stores.ledger.credit(workspaceId, back);
  await creditCaps(ctx, record, back);
  return back;
}

/** Gives back a charge whose work failed. Safe to call twice: only a charged record is refunded. */
export async function refund(ctx: AppContext, workspaceId: string, key: string): Promise<boolean> {
  const now = Math.floor(ctx.now() / 1000);
  const record = await ctx.stores.ledger.charge(workspaceId, key);
  if (!record || record.state !== "charged") return false;
  if (!(await ctx.stores.ledger.transitionCharge(workspaceId, key, "charged", "refunded", now))) return false;
  await ctx.stores.ledger.credit(workspaceId, record.amount);
  await creditCaps(ctx, record, record.amount);
  return true;
}

/** Gives `amount` back to the caps a charge counted against (a counter of a past period is left alone). */
async function creditCaps(ctx: AppContext, record: ChargeRecord, amount: number): Promise<void> {
  const period = (await currentUsage(ctx, record.workspace_id)).period_start_unix;
  for (const c of record.caps ?? []) if (c.period === period) await ctx.stores.ledger.capSubtract(record.workspace_id, c.id, c.period, amount);
}

/** Moves the workspace to a new limit (tier change), keeping what was used. */
export async function changeLimit(ctx: AppContext, workspaceId: string, newLimit: number): Promise<UsageRecord> {
  for (;;) {
    const usage = await currentUsage(ctx, workspaceId);
    const updated = await ctx.stores.ledger.setLimit(workspaceId, usage.character_limit, newLimit);
    if (updated) return updated;
  }
}
