/**
 * The library's counters as pure functions of a listing: usage windows and the trending score.
 *
 * Usage is kept per UTC day for the last 8 days and per month for the last 13: the 7-day figure
 * is exact, the 1-year figure counts the current month and the 11 before it (month granularity).
 *
 * Trending is exponentially decayed activity (characters generated, plus a weight per add and at
 * publishing) with a fixed half-life. Decaying every score by the same factor never changes the
 * order, so the score is stored as log2 of Σ weight · 2^((t - T0) / half-life): it only changes
 * when something happens to the voice, never needs a background job, and stays a plain number.
 */
export const TREND_HALF_LIFE_SECONDS = 3 * 86_400;
export const TREND_WEIGHT_PUBLISH = 1_000;
export const TREND_WEIGHT_ADD = 2_000;
const T0 = 1_735_689_600; // 2025-01-01

export function addActivity(trend: number | null, weight: number, atUnix: number): number {
  const x = Math.log2(Math.max(weight, 1)) + (atUnix - T0) / TREND_HALF_LIFE_SECONDS;
  if (trend === null || !Number.isFinite(trend)) return x;
  const hi = Math.max(trend, x);
  const lo = Math.min(trend, x);
  return hi + Math.log2(1 + 2 ** (lo - hi));
}

export const dayKey = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);
export const monthKey = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 7);

/** The month key `back` months before the month of `unix`. */
function monthsBefore(unix: number, back: number): string {
  const d = new Date(unix * 1000);
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1));
  return m.toISOString().slice(0, 7);
}

export interface UsageCounters {
  usage_days: Record<string, number>;
  usage_months: Record<string, number>;
}

/** Adds characters at `atUnix` and drops buckets that can no longer count. */
export function addUsage(c: UsageCounters, characters: number, atUnix: number): UsageCounters {
  const day = dayKey(atUnix);
  const month = monthKey(atUnix);
  const oldestDay = dayKey(atUnix - 7 * 86_400);
  const oldestMonth = monthsBefore(atUnix, 12);
  const usage_days: Record<string, number> = {};
  for (const [k, v] of Object.entries(c.usage_days)) if (k >= oldestDay) usage_days[k] = v;
  usage_days[day] = (usage_days[day] ?? 0) + characters;
  const usage_months: Record<string, number> = {};
  for (const [k, v] of Object.entries(c.usage_months)) if (k >= oldestMonth) usage_months[k] = v;
  usage_months[month] = (usage_months[month] ?? 0) + characters;
  return { usage_days, usage_months };
}

/** The 7-day and 1-year figures as of `nowUnix`. */
export function usageWindows(c: UsageCounters, nowUnix: number): { d7: number; y1: number } {
  const firstDay = dayKey(nowUnix - 6 * 86_400);
  const lastDay = dayKey(nowUnix);
  const firstMonth = monthsBefore(nowUnix, 11);
  const lastMonth = monthKey(nowUnix);
  let d7 = 0;
  let y1 = 0;
  for (const [k, v] of Object.entries(c.usage_days)) if (k >= firstDay && k <= lastDay) d7 += v;
  for (const [k, v] of Object.entries(c.usage_months)) if (k >= firstMonth && k <= lastMonth) y1 += v;
  return { d7, y1 };
}
