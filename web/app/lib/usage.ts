/** Credit usage rules of the shell (app-shell.md §2, §9). */
export const LOW_QUOTA_PERCENT = 80;
export const LOW_QUOTA_DISMISS_MS = 24 * 60 * 60 * 1000;

/** Share of the period's credits used, 0..100 (capped at 100; no credits at all counts as 100). */
export function usagePercent(used: number, limit: number): number {
  if (!(limit > 0)) return 100;
  return Math.min(100, Math.max(0, (used / limit) * 100));
}

export interface LowQuotaInput {
  tier: string;
  used: number;
  limit: number;
  /** When the banner was last dismissed (ms since epoch), if ever. */
  dismissedAt: number | null;
  now: number;
}

/** Non-free tiers at 80% usage or more see the banner, unless dismissed in the last 24 hours. */
export function shouldShowLowQuotaBanner({ tier, used, limit, dismissedAt, now }: LowQuotaInput): boolean {
  if (tier === "free") return false;
  if (usagePercent(used, limit) < LOW_QUOTA_PERCENT) return false;
  if (dismissedAt === null || dismissedAt > now) return true;
  return now - dismissedAt >= LOW_QUOTA_DISMISS_MS;
}
