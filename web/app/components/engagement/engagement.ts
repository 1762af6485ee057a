/**
 * The shell's engagement widgets' words and rules (app-shell.md §4, §5, §8, §9), in one place.
 */
export const FEEDBACK_MESSAGES = {
  empty: "Please enter your feedback",
  failed: "Sending failed. Please try again later.",
  thanks: "Thank you for your feedback!",
} as const;
/** The thank-you returns to the form this long after the popover closes. */
export const FEEDBACK_RESET_MS = 60_000;

export const notificationsFailed = (status: number) => `Error occurred while fetching notifications, status_code ${status}`;
export const NOTIFICATIONS_CACHE_MS = 10 * 60_000;
export const AUTO_OPEN_DELAY_MS = 5_000;
export const AUTO_OPEN_MIN_ACCOUNT_AGE_DAYS = 3;

export const AFFILIATE = {
  failed: "Error generating affiliate link",
  commission: "Earn 22% of the payments of everyone you refer, for their first 12 months.",
  eligibleAfterDays: 7,
  chance: 0.1,
  tiers: ["creator", "pro", "scale", "business"],
} as const;

export interface Notification {
  id: string;
  title: string;
  description: string;
  timestamp: number;
  largeImage: { url: string; alt: string } | null;
  smallImage: { url: string; alt: string } | null;
  linkTo: string | null;
  isImportant: boolean;
  /** An upsell or auto-regenerate notification shown only while its flag is on (app-shell.md §4). */
  featureFlagControlled: boolean;
  /** When the reader was first shown it (unix seconds; flag-controlled ones only), null before. */
  first_shown: number | null;
}

/** The flag-controlled notifications of a feed the reader has not been shown yet: their first-shown time is to be stored. */
export function firstShowings(docs: Notification[]): string[] {
  return docs.filter((d) => d.featureFlagControlled && d.first_shown === null).map((d) => d.id);
}

const READ_KEY = "timbre.notifications.read";
const AUTO_OPENED_KEY = "timbre.notifications.autoOpened";
export const AUTO_OPEN_OFF_KEY = "timbre.notifications.autoOpenOff";

function read(key: string): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(key) ?? "[]") as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** Unread state is tracked by the ids stored as read (the newest 200). */
export const readIds = () => new Set(read(READ_KEY));
export function markRead(id: string): void {
  const ids = [id, ...read(READ_KEY).filter((x) => x !== id)].slice(0, 200);
  localStorage.setItem(READ_KEY, JSON.stringify(ids));
}

/**
 * Whether to open the popover by itself (app-shell.md §4): once, when the newest notification is
 * unread and important, the trigger is visible, auto-open is not turned off, and the account is at
 * least 3 days old.
 */
export function shouldAutoOpen(input: { newest: Notification | undefined; read: Set<string>; triggerVisible: boolean; autoOpenOff: boolean; alreadyAutoOpened: string | null; accountAgeDays: number }): boolean {
  const n = input.newest;
  if (!n || input.read.has(n.id) || !n.isImportant) return false;
  if (!input.triggerVisible || input.autoOpenOff) return false;
  if (input.alreadyAutoOpened === n.id) return false;
  return input.accountAgeDays >= AUTO_OPEN_MIN_ACCOUNT_AGE_DAYS;
}

export const autoOpenedFor = () => (typeof localStorage === "undefined" ? null : localStorage.getItem(AUTO_OPENED_KEY));
export const rememberAutoOpen = (id: string) => localStorage.setItem(AUTO_OPENED_KEY, id);

/** The affiliate promotion: 7 days old, one of the tiers, and a 10% chance (app-shell.md §4). */
export function affiliatePromoEligible(input: { accountAgeDays: number; tier: string; hasLink: boolean; random: number }): boolean {
  return !input.hasLink && input.accountAgeDays >= AFFILIATE.eligibleAfterDays && (AFFILIATE.tiers as readonly string[]).includes(input.tier) && input.random < AFFILIATE.chance;
}
