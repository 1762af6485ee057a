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

  /** Decides a pending request (compare-and-set on its status); undefined when it was not pending. */
  async decide(r: ManualVerificationRecord, decision: { status: "approved" | "rejected"; reviewed_by: string; reviewed_at_unix: number; rejection_reason: string | null }): Promise<ManualVerificationRecord | undefined> {
    const item = await this.main.update<Stored<ManualVerificationRecord>>(key(r.request_time_unix, r.request_id), {
      UpdateExpression: "SET #s = :s, reviewed_by = :by, reviewed_at_unix = :at, rejection_reason = :why",
      ConditionExpression: "attribute_exists(pk) AND #s = :pending",
      ExpressionAttributeNames: { "#s": "status" },
      ExpressionAttributeValues: { ":s": decision.status, ":by": decision.reviewed_by, ":at": decision.reviewed_at_unix, ":why": decision.rejection_reason, ":pending": "pending" },
    });
    return item ? withoutKeys<ManualVerificationRecord>(item) : undefined;
  }
}
