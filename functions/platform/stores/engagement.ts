import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";

/**
 * Product-wide records in the main table: the notification feed (one partition, newest first)
 * and feedback (one partition for the server's admins to read, newest first).
 */
export interface NotificationRecord {
  id: string;
  title: string;
  description: string;
  /** Unix seconds; notifications in the future are not shown yet. */
  timestamp: number;
  large_image: { url: string; alt: string } | null;
  small_image: { url: string; alt: string } | null;
  link_to: string | null;
  is_important: boolean;
  /** A feature flag that must be on for the reader's workspace, if any. */
  feature_flag_controlled: string | null;
  /** "all" or tier ids. */
  tiers: string[];
  /** "all" or onboarding roles/subroles. */
  onboarding_personas: string[];
  created_by: string | null;
  /** When it was posted, in milliseconds: orders notifications that share a second (absent on seeded notes). */
  posted_ms?: number;
}

export interface FeedbackRecord {
  feedback_id: string;
  user_id: string;
  workspace_id: string;
  email: string;
  feedback: string;
  relevant: boolean;
  category: string;
  positive: boolean;
  created_at: number;
}

const pad = (n: number) => String(n).padStart(12, "0");
const keys = {
  notification: (at: number, id: string) => ({ pk: "NOTIFICATIONS", sk: `N#${pad(at)}#${id}` }),
  feedback: (at: number, id: string) => ({ pk: "FEEDBACK", sk: `F#${pad(at)}#${id}` }),
  userNotification: (userId: string, at: number, id: string) => ({ pk: `USERNOTES#${userId}`, sk: `N#${pad(at)}#${id}` }),
  shown: (userId: string, id: string) => ({ pk: `NOTESHOWN#${userId}`, sk: `S#${id}` }),
};

export class Engagement {
  constructor(private readonly main: Table) {}

  /** Writes a notification; the same id and time replaces it (seeding is idempotent). */
  async putNotification(n: NotificationRecord): Promise<void> {
    await this.main.put({ ...keys.notification(n.timestamp, n.id), ...n });
  }

  /** Newest first, up to `now`, at most `scan` items read (filters apply after). */
  async notifications(nowUnix: number, scan = 200): Promise<NotificationRecord[]> {
    const r = await this.main.query<Stored<NotificationRecord>>({
      KeyConditionExpression: "pk = :p AND sk <= :upto",
      ExpressionAttributeValues: { ":p": "NOTIFICATIONS", ":upto": `N#${pad(nowUnix)}#\uffff` },
      ScanIndexForward: false,
      limit: scan,
    });
    return r.items.map((i) => withoutKeys<NotificationRecord>(i));
  }

  /** A notification for one user only (a decision about their request), in their own partition. */
  async putUserNotification(userId: string, n: NotificationRecord): Promise<void> {
    await this.main.put({ ...keys.userNotification(userId, n.timestamp, n.id), ...n });
  }

  /** One user's own notifications, newest first, up to `now`. */
  async userNotifications(userId: string, nowUnix: number, limit = 20): Promise<NotificationRecord[]> {
    const r = await this.main.query<Stored<NotificationRecord>>({
      KeyConditionExpression: "pk = :p AND sk <= :upto",
      ExpressionAttributeValues: { ":p": `USERNOTES#${userId}`, ":upto": `N#${pad(nowUnix)}#\uffff` },
      ScanIndexForward: false,
      limit,
    });
    return r.items.map((i) => withoutKeys<NotificationRecord>(i));
  }

  async deleteNotification(id: string): Promise<boolean> {
    const all = await this.main.queryPrefix<Stored<NotificationRecord>>("NOTIFICATIONS", "N#");
    const found = all.find((n) => n.id === id);
    if (!found) return false;
    await this.main.delete({ pk: found.pk, sk: found.sk });
    return true;
  }

  /** Stores when a user was first shown a notification; later calls keep the first time. Answers the stored time. */
  async markShown(userId: string, id: string, atUnix: number): Promise<number> {
    const key = keys.shown(userId, id);
    if (await this.main.put({ ...key, notification_id: id, first_shown: atUnix }, { ifAbsent: true })) return atUnix;
    return (await this.main.get<{ first_shown: number }>(key))?.first_shown ?? atUnix;
  }

  /** When the user was first shown each notification they have been shown (a handful: flag-controlled ones only). */
  async shownTimes(userId: string): Promise<Map<string, number>> {
    const items = await this.main.queryPrefix<{ notification_id: string; first_shown: number }>(`NOTESHOWN#${userId}`, "S#", { limit: 100 });
    return new Map(items.map((i) => [i.notification_id, i.first_shown]));
  }

  async putFeedback(f: FeedbackRecord): Promise<void> {
    await this.main.put({ ...keys.feedback(f.created_at, f.feedback_id), ...f });
  }

  async feedback(limit = 100): Promise<FeedbackRecord[]> {
    return (await this.main.queryPrefix<Stored<FeedbackRecord>>("FEEDBACK", "F#", { newestFirst: true, limit })).map((i) => withoutKeys<FeedbackRecord>(i));
  }
}
