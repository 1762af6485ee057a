import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { UsageFields } from "../../platform/stores/history.js";
import { ApiError } from "../../platform/http/errors.js";

/**
 * Usage analytics (contract §13a `usage.get`): credits (or characters, or requests) per time
 * bucket, optionally broken down, read from the workspace's generation history. Linear in the
 * items read; the number of buckets is bounded before any work.
 */
export const BREAKDOWNS = ["none", "voice", "model", "api_keys", "user", "product_type"] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];
export const INTERVALS = ["hour", "day", "week", "month", "cumulative"] as const;
export type Interval = (typeof INTERVALS)[number];
export const METRICS = ["credits", "tts_characters", "request_count"] as const;
export type Metric = (typeof METRICS)[number];
export const MAX_BUCKETS = 2000;

export interface StatsQuery {
  startMs: number;
  endMs: number;
  includeWorkspace: boolean;
  breakdown: Breakdown;
  interval: Interval;
  bucketSeconds?: number;
  metric: Metric;
}

const DAY = 86_400_000;

/** Bucket start times from `start` (aligned to UTC hours, days, Mondays or months) up to `end`. */
export function bucketStarts(startMs: number, endMs: number, interval: Interval, bucketSeconds?: number): number[] {
  const out: number[] = [];
  const push = (t: number) => {
    if (out.length >= MAX_BUCKETS) throw new ApiError(422, "too_many_buckets", `That window and interval make more than ${MAX_BUCKETS} buckets; choose a longer interval or a shorter window.`);
    out.push(t);
  };
  if (bucketSeconds) {
    for (let t = startMs; t < endMs; t += bucketSeconds * 1000) push(t);
    return out;
  }
  const d = new Date(startMs);
  if (interval === "hour") {
    for (let t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()); t < endMs; t += 3_600_000) push(t);
  } else if (interval === "month") {
    for (let y = d.getUTCFullYear(), m = d.getUTCMonth(); Date.UTC(y, m, 1) < endMs; m === 11 ? ((m = 0), y++) : m++) push(Date.UTC(y, m, 1));
  } else {
    let t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    const step = interval === "week" ? 7 * DAY : DAY;
    if (interval === "week") t -= ((new Date(t).getUTCDay() + 6) % 7) * DAY;
    for (; t < endMs; t += step) push(t);
  }
  return out;
}

const PRODUCTS = { TTS: "Text to Speech", DIALOGUE: "Text to Dialogue", STS: "Voice Changer" } as const;

function measure(h: UsageFields, metric: Metric): number {
  if (metric === "request_count") return 1;
  if (metric === "tts_characters") return [...(h.dialogue ? h.dialogue.map((p) => p.text).join("") : h.text)].length;
  return Math.max(0, h.character_count_change_to - h.character_count_change_from);
}

export async function characterStats(ctx: AppContext, caller: Caller, q: StatsQuery): Promise<{ time: number[]; usage: Record<string, number[]> }> {
  if (q.endMs <= q.startMs) throw new ApiError(422, "invalid_window", "end_unix must be after start_unix.");
  if (q.breakdown === "user" && !q.includeWorkspace) throw new ApiError(422, "invalid_breakdown", 'breakdown_type cannot be "user" when include_workspace_metrics is false.');
  if (q.includeWorkspace) await caller.requireAdmin();
  const time = bucketStarts(q.startMs, q.endMs, q.interval, q.bucketSeconds);
  const bucketOf = (t: number) => {
    // Binary search: the last bucket starting at or before t.
    let lo = 0;
    let hi = time.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (time[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  const series = new Map<string, number[]>();
  const labels = await labeller(ctx, caller, q.breakdown);
  const from = Math.max(q.startMs, time[0] ?? q.startMs);
  for await (const page of ctx.stores.history.usageBetween(caller.workspaceId, from, q.endMs)) {
    for (const h of page) {
      if (!q.includeWorkspace && h.user_id !== caller.userId) continue;
      const key = labels(h);
      let s = series.get(key);
      if (!s) series.set(key, (s = new Array<number>(time.length).fill(0)));
      s[bucketOf(h.created_ms)] += measure(h, q.metric);
    }
  }
  if (q.interval === "cumulative" && !q.bucketSeconds) for (const s of series.values()) for (let i = 1; i < s.length; i++) s[i] += s[i - 1];
  if (!series.size) series.set(q.breakdown === "none" ? "All" : "None", new Array<number>(time.length).fill(0));
  return { time, usage: Object.fromEntries([...series.entries()].sort(([a], [b]) => a.localeCompare(b))) };
}

/** The series name of an item for a breakdown: what a person reads in the chart's legend. */
async function labeller(ctx: AppContext, caller: Caller, b: Breakdown): Promise<(h: UsageFields) => string> {
  switch (b) {
    case "none":
      return () => "All";
    case "model":
      return (h) => h.model_id;
    case "product_type":
      return (h) => (h.source === "STS" ? PRODUCTS.STS : h.dialogue ? PRODUCTS.DIALOGUE : PRODUCTS.TTS);
    case "voice":
      return (h) => h.voice_name || h.voice_id;
    case "user": {
      const members = await ctx.stores.workspaces.members(caller.workspaceId);
      const names = new Map(members.map((m) => [m.user_id, m.service_account?.name ?? m.email]));
      return (h) => names.get(h.user_id) ?? "Former member";
    }
    case "api_keys": {
      const members = await ctx.stores.workspaces.members(caller.workspaceId);
      const keys = (await Promise.all(members.map((m) => ctx.stores.apiKeys.list(caller.workspaceId, m.user_id)))).flat();
      const names = new Map(keys.map((k) => [k.key_id, `${k.name} (${k.prefix}…)`]));
      return (h) => (h.api_key_id ? (names.get(h.api_key_id) ?? "Revoked key") : "Web app");
    }
  }
}
