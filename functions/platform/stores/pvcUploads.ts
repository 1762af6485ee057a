import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";

/**
 * A presigned sample upload in progress (main table, WS#{ws}/PVCUPLOAD#{id}): where the bytes go
 * (a temporary key the bucket's lifecycle rule expires), how large they must be, and, for large
 * files, the S3 multipart upload. Read back when the browser says it finished, so nothing the
 * client sends then is trusted; expired records are ignored on read (DynamoDB TTL is lazy and
 * dynalite has none).
 */
export interface PvcUploadRecord {
  upload_id: string;
  workspace_id: string;
  voice_id: string;
  user_id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  object_key: string;
  /** The S3 multipart upload id, for files over the single-PUT size. */
  multipart_upload_id: string | null;
  part_bytes: number | null;
  remove_background_noise: boolean;
  skip_warnings: string[];
  created_at_unix: number;
  expires_at_unix: number;
}

const keys = {
  upload: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `PVCUPLOAD#${id}` }),
};

export class PvcUploads {
  constructor(private readonly main: Table) {}

  async put(u: PvcUploadRecord): Promise<void> {
    await this.main.put({ ...keys.upload(u.workspace_id, u.upload_id), ...u, ttl: u.expires_at_unix }, { ifAbsent: true });
  }

  async get(ws: string, id: string, nowUnix: number): Promise<PvcUploadRecord | undefined> {
    const item = await this.main.get<Stored<PvcUploadRecord>>(keys.upload(ws, id));
    if (!item || item.expires_at_unix < nowUnix) return undefined;
    return withoutKeys<PvcUploadRecord>(item);
  }

  /** Every record of the workspace, expired ones included (for the pending caps and the sweep). */
  async list(ws: string): Promise<PvcUploadRecord[]> {
    return (await this.main.queryPrefix<Stored<PvcUploadRecord>>(`WS#${ws}`, "PVCUPLOAD#")).map((i) => withoutKeys<PvcUploadRecord>(i));
  }

  /** Moves the expiry on (a resumed upload got fresh URLs); false when the record is gone. */
  async extend(ws: string, id: string, expiresAtUnix: number): Promise<boolean> {
    const item = await this.main.get<Stored<PvcUploadRecord>>(keys.upload(ws, id));
    if (!item) return false;
    return this.main.put({ ...item, expires_at_unix: expiresAtUnix, ttl: expiresAtUnix }, { condition: "attribute_exists(pk)" });
  }

  /** Removes the record; false when it was already gone (another completion won). */
  async take(ws: string, id: string): Promise<boolean> {
    return this.main.delete(keys.upload(ws, id), { expression: "attribute_exists(pk)" });
  }
}
