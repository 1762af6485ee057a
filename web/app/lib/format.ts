// A fixed locale and time zone: server and browser render the same text (no hydration mismatch).
const numbers = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const dates = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

/** Credits and counts with thousands separators: 1234567 -> "1,234,567". */
export const formatNumber = (n: number) => numbers.format(Math.round(n));

export const formatPercent = (p: number) => `${Math.floor(p)}%`;

/** A unix-seconds timestamp as a date (UTC), or the fallback when absent. */
export function formatDate(unixSeconds: number | null | undefined, fallback = "Never"): string {
  if (unixSeconds === null || unixSeconds === undefined || !Number.isFinite(unixSeconds)) return fallback;
  return dates.format(new Date(unixSeconds * 1000));
}

/** Initials for an avatar without a photo: "Ada Lovelace" -> "AL", "ada@x.io" -> "A". */
export function initials(name: string): string {
  const words = name.replace(/@.*/, "").split(/[\s._-]+/).filter(Boolean);
  return (words.slice(0, 2).map((w) => w[0]!.toUpperCase()).join("") || "?").slice(0, 2);
}

const dateTimes = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZone: "UTC" });

/** A unix-seconds time with the time of day, for hovering a date: "Nov 23, 2026, 10:15:02 UTC". */
export const formatDateTimeFull = (unixSeconds: number) => `${dateTimes.format(new Date(unixSeconds * 1000))} UTC`;
