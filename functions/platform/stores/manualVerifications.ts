import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";

/**
 * Manual verification requests of professional clones (professional-voice-clone.md §5): the
 * documents a user sent to prove a voice is theirs, for the server's administrators to review.
 * One partition holds every request (admins list them across workspaces, newest first); the
 * voice keeps a copy of its latest request's state (VoiceRecord.manual_verification).
 */
export type ManualVerificationStatus = "pending" | "approved" | "rejected";

export interface ManualVerificationFile {
  file_id: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  upload_date_unix: number;
  object_key: string;
}

export interface ManualVerificationRecord {
  request_id: string;
  workspace_id: string;
  voice_id: string;
  voice_name: string;
  user_id: string;
  email: string;
  extra_text: string;
  request_time_unix: number;
  files: ManualVerificationFile[];
  status: ManualVerificationStatus;
  reviewed_by: string | null;
  reviewed_at_unix: number | null;
  rejection_reason: string | null;
  /** The voice's language when the request was made (producers filter by the languages they review). */
  language?: string | null;
  /** Producer Mode: the producer who took the request to review it, and when. */
  claimed_by?: string | null;
  claimed_at_unix?: number | null;
}

const pad = (n: number) => String(n).padStart(12, "0");
const PK = "MANUAL_VERIFICATIONS";
const key = (at: number, id: string) => ({ pk: PK, sk: `R#${pad(at)}#${id}` });
const byId = (id: string) => ({ gsi1pk: `MANUALVERIFY#${id}`, gsi1sk: "REQUEST" });

export class ManualVerifications {
  constructor(private readonly main: Table) {}

  async put(r: ManualVerificationRecord): Promise<void> {
    await this.main.put({ ...key(r.request_time_unix, r.request_id), ...byId(r.request_id), ...r });
  }

  async get(requestId: string): Promise<ManualVerificationRecord | undefined> {
    const [hit] = await this.main.queryPrefix<Stored<ManualVerificationRecord>>(`MANUALVERIFY#${requestId}`, "REQUEST", { index: "gsi1", limit: 1 });
    if (!hit) return undefined;
    // The index is eventually consistent: read the item itself.
    const item = await this.main.get<Stored<ManualVerificationRecord>>(key(hit.request_time_unix, hit.request_id));
    return item ? withoutKeys<ManualVerificationRecord>(item) : undefined;
  }

  /** Newest first, at most `limit`. */
  async list(limit = 200): Promise<ManualVerificationRecord[]> {
    return (await this.main.queryPrefix<Stored<ManualVerificationRecord>>(PK, "R#", { newestFirst: true, limit })).map((i) => withoutKeys<ManualVerificationRecord>(i));
  }

  /**
   * Decides a pending request (compare-and-set on its status); undefined when it was not pending. With `claimedBy`,
   * only while that producer still holds it (a release racing the decision loses one or the other, never both).
   */
  async decide(
    r: ManualVerificationRecord,
    decision: { status: "approved" | "rejected"; reviewed_by: string; reviewed_at_unix: number; rejection_reason: string | null },
    claimedBy?: string,
  ): Promise<ManualVerificationRecord | undefined> {
    const item = await this.main.update<Stored<ManualVerificationRecord>>(key(r.request_time_unix, r.request_id), {
      UpdateExpression: "SET #s = :s, reviewed_by = :by, reviewed_at_unix = :at, rejection_reason = :why",
      ConditionExpression: `attribute_exists(pk) AND #s = :pending${claimedBy ? " AND claimed_by = :me" : ""}`,
      ExpressionAttributeNames: { "#s": "status" },
      ExpressionAttributeValues: {
        ":s": decision.status, ":by": decision.reviewed_by, ":at": decision.reviewed_at_unix, ":why": decision.rejection_reason, ":pending": "pending",
        ...(claimedBy ? { ":me": claimedBy } : {}),
      },
    });
    return item ? withoutKeys<ManualVerificationRecord>(item) : undefined;
  }

  /** Takes a pending, unclaimed request for `userId`; undefined when someone else holds it or it was decided. */
  async claim(r: ManualVerificationRecord, userId: string, at: number): Promise<ManualVerificationRecord | undefined> {
    const item = await this.main.update<Stored<ManualVerificationRecord>>(key(r.request_time_unix, r.request_id), {
      UpdateExpression: "SET claimed_by = :me, claimed_at_unix = :at",
      ConditionExpression: "attribute_exists(pk) AND #s = :pending AND (attribute_not_exists(claimed_by) OR claimed_by = :none)",
      ExpressionAttributeNames: { "#s": "status" },
      ExpressionAttributeValues: { ":me": userId, ":at": at, ":pending": "pending", ":none": null },
    });
    return item ? withoutKeys<ManualVerificationRecord>(item) : undefined;
  }

  /** Gives a pending request back to the queue; undefined unless `userId` held it. */
  async release(r: ManualVerificationRecord, userId: string): Promise<ManualVerificationRecord | undefined> {
    const item = await this.main.update<Stored<ManualVerificationRecord>>(key(r.request_time_unix, r.request_id), {
      UpdateExpression: "SET claimed_by = :none, claimed_at_unix = :none",
      ConditionExpression: "attribute_exists(pk) AND #s = :pending AND claimed_by = :me",
      ExpressionAttributeNames: { "#s": "status" },
      ExpressionAttributeValues: { ":me": userId, ":pending": "pending", ":none": null },
    });
    return item ? withoutKeys<ManualVerificationRecord>(item) : undefined;
  }
}
