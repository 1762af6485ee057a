import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { NotificationRecord } from "../../platform/stores/engagement.js";
import { newId } from "../../platform/adapters/ids.js";
import type { FlagName } from "../../platform/domain/flags.js";

/**
 * The notification feed (app-shell.md §7): stored in the product, seeded with Timbre's own
 * release notes, and written by the server's admins. A reader gets the newest `limit` whose
 * tiers include "all" or their tier, whose personas include "all" (or their role), whose flag (if
 * any) is on, and whose time has come.
 */
export const NOTIFICATIONS_LIMIT = 10;

const note = (id: string, iso: string, title: string, description: string, link_to: string | null, is_important = false, flag: FlagName | null = null, tiers: string[] = ["all"]): NotificationRecord => ({
  id,
  title,
  description,
  timestamp: Math.floor(Date.parse(iso) / 1000),
  large_image: null,
  small_image: null,
  link_to,
  is_important,
  feature_flag_controlled: flag,
  tiers,
  onboarding_personas: ["all"],
  created_by: null,
});

/** What landed, in the project's own history (the merges of 2026-11-22 and 2026-11-23). */
export const RELEASE_NOTES: NotificationRecord[] = [
  note("release-speech", "2026-11-22T06:01:00Z", "Text to speech and dialogue", "Generate speech and multi-speaker dialogue with 28 premade voices in 10 languages, streamed as it is made, with every output format.", "/app/speech-synthesis/text-to-speech"),
  note("release-dictionaries", "2026-11-22T07:36:00Z", "Pronunciation dictionaries", "Teach Timbre how to say names and terms: alias and phoneme rules, PLS import and export, versions, and workspace-wide dictionaries.", "/app/dictionaries"),
  note("release-web", "2026-11-23T15:00:00Z", "A new look on every screen", "The web app has a design system, a shared audio player with a waveform, and works on phones as well as desktops.", "/app"),
  note("release-voice-library", "2026-11-23T15:45:00Z", "The voice library", "Browse 46 community voices, filter by language, accent, gender and age, add them to your voices, and publish your own.", "/app/voice-library"),
  note("release-voice-analysis", "2026-11-23T15:50:00Z", "Voice analysis", "Uploaded audio is decoded and analysed for pitch, loudness, noise and a speaker embedding for similar-voice search.", null),
  note(
    "release-workspaces",
    "2026-11-23T17:00:00Z",
    "Workspaces, sharing and webhooks",
    "Invite your team, grant features per group, share dictionaries and voices, and receive signed webhooks for your workspace's events.",
    "/app/settings/workspace",
    true,
  ),
];

/**
 * The flag-controlled notifications (app-shell.md §4: "Some upsell and auto-regenerate notifications are
 * flag-controlled and store their first-shown time"): each shows only while its flag is on for the reader's
 * workspace, and the feed says when the reader was first shown it.
 */
export const FLAGGED_NOTES: NotificationRecord[] = [
  note(
    "upsell-more-credits",
    "2026-12-07T00:00:00Z",
    "More credits and professional clones",
    "Paid plans add credits every month, higher-quality audio formats and professional voice clones trained on your own recordings.",
    "/app/settings/subscription",
    false,
    "upsell-notifications",
    ["free", "starter"],
  ),
  note(
    "auto-regenerate-free",
    "2026-12-07T00:00:01Z",
    "Regenerate for free",
    "Not happy with a take? Regenerate it within 2 hours: the same text with the same voice and settings is free up to 3 times (6 times for a dialogue).",
    "/app/speech-synthesis/text-to-speech",
    false,
    "auto-regenerate-notifications",
  ),
];

export async function seedReleaseNotes(ctx: AppContext): Promise<void> {
  for (const n of [...RELEASE_NOTES, ...FLAGGED_NOTES]) await ctx.stores.engagement.putNotification(n);
}

/** A notification as its reader sees it: with when they were first shown it, for the flag-controlled ones. */
export type ReaderNotification = NotificationRecord & { first_shown?: number | null };

/**
 * Records that the reader was shown a flag-controlled notification (the first time only). Only those the reader's
 * feed can hold: a flag-controlled notification whose flag is on and whose tiers include the reader's.
 */
export async function markNotificationShown(ctx: AppContext, caller: Caller, id: string): Promise<number | null> {
  const n = FLAGGED_NOTES.find((f) => f.id === id);
  if (!n) return null;
  const [tier, flags] = await Promise.all([caller.tier(), caller.flags()]);
  if (!(n.tiers.includes("all") || n.tiers.includes(tier.id)) || flags[n.feature_flag_controlled as FlagName] !== true) return null;
  return ctx.stores.engagement.markShown(caller.userId, id, Math.floor(ctx.now() / 1000));
}

export async function notificationsFor(ctx: AppContext, caller: Caller, limit = NOTIFICATIONS_LIMIT): Promise<ReaderNotification[]> {
  const [tier, flags, user] = await Promise.all([caller.tier(), caller.flags(), caller.user()]);
  // Personas: "all", or the user's onboarding role or subrole (app-shell.md §8, the notifications call).
  const personas = new Set(["all", user.onboarding_survey?.role, user.onboarding_survey?.subrole].filter((p): p is string => Boolean(p)));
  const nowUnix = Math.floor(ctx.now() / 1000);
  const [all, own] = await Promise.all([ctx.stores.engagement.notifications(nowUnix), ctx.stores.engagement.userNotifications(caller.userId, nowUnix, limit)]);
  const shared = all
    .filter((n) => n.tiers.includes("all") || n.tiers.includes(tier.id))
    .filter((n) => n.onboarding_personas.some((p) => personas.has(p)))
    .filter((n) => !n.feature_flag_controlled || (flags as Record<string, boolean>)[n.feature_flag_controlled] === true);
  // The user's own notifications (decisions about their requests) mixed in by time.
  // Newest first; within one second, the later post first.
  const feed: ReaderNotification[] = [...own, ...shared].sort((a, b) => b.timestamp - a.timestamp || (b.posted_ms ?? 0) - (a.posted_ms ?? 0)).slice(0, limit);
  if (!feed.some((n) => n.feature_flag_controlled)) return feed;
  const shown = await ctx.stores.engagement.shownTimes(caller.userId);
  return feed.map((n) => (n.feature_flag_controlled ? { ...n, first_shown: shown.get(n.id) ?? null } : n));
}

export async function postNotification(
  ctx: AppContext,
  caller: Caller,
  input: { title: string; description: string; link_to?: string | null; is_important?: boolean; tiers?: string[]; onboarding_personas?: string[]; timestamp?: number | null; image_url?: string | null; image_alt?: string | null },
): Promise<NotificationRecord> {
  await caller.requireServerAdmin();
  const n: NotificationRecord = {
    id: newId(),
    title: input.title,
    description: input.description,
    timestamp: input.timestamp ?? Math.floor(ctx.now() / 1000),
    large_image: input.image_url ? { url: input.image_url, alt: input.image_alt ?? "" } : null,
    small_image: null,
    link_to: input.link_to ?? null,
    is_important: input.is_important ?? false,
    feature_flag_controlled: null,
    tiers: input.tiers?.length ? input.tiers : ["all"],
    onboarding_personas: input.onboarding_personas?.length ? input.onboarding_personas : ["all"],
    created_by: caller.userId,
    posted_ms: ctx.now(),
  };
  await ctx.stores.engagement.putNotification(n);
  return n;
}

export function notificationWire(n: ReaderNotification) {
  return {
    id: n.id,
    title: n.title,
    description: n.description,
    timestamp: n.timestamp,
    largeImage: n.large_image,
    smallImage: n.small_image,
    linkTo: n.link_to,
    isImportant: n.is_important,
    featureFlagControlled: n.feature_flag_controlled !== null,
    tiers: n.tiers,
    onboarding_personas: n.onboarding_personas,
    /** Timbre's: when the reader was first shown a flag-controlled notification (unix seconds), null before. */
    first_shown: n.feature_flag_controlled ? (n.first_shown ?? null) : null,
  };
}
