import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";
import { RecentRecords } from "./recent.js";

/**
 * How long a process keeps an API key or a session it read (RecentRecords): every request
 * authenticates, and this saves the round trip in front of its work. Writes through these
 * stores take effect at once in the process that makes them; elsewhere within this time.
 */
export const CREDENTIALS_TTL_MS = 5_000;

export interface ApiKeyRecord {
  key_id: string;
  key_hash: string;
  /** The first characters of the key, shown in lists ("sk_3f9a…"). */
  prefix: string;
  name: string;
  user_id: string;
  workspace_id: string;
  created_at: number;
  last_used_at: number | null;
  /** Service-account keys may be narrowed to some permissions; absent means all. */
  permissions?: "all" | string[];
  is_disabled?: boolean;
  character_limit?: number | null;
}

export interface SessionRecord {
  session_hash: string;
  user_id: string;
  workspace_id: string;
  created_at: number;
  expires_at: number;
  user_agent: string;
}

const keys = {
  apiKey: (hash: string) => ({ pk: `APIKEY#${hash}`, sk: "APIKEY" }),
  /** GSI1: a user's keys in one workspace, oldest first. */
  apiKeyIndex: (ws: string, userId: string, createdAt: number, keyId: string) => ({
    gsi1pk: `WS#${ws}#USER#${userId}#APIKEYS`,
    gsi1sk: `${String(createdAt).padStart(12, "0")}#${keyId}`,
  }),
  session: (hash: string) => ({ pk: `SESSION#${hash}`, sk: "SESSION" }),
  /** GSI1: a user's sessions, oldest first (the profile's sessions list). */
  sessionIndex: (userId: string, createdAt: number, hash: string) => ({ gsi1pk: `USER#${userId}#SESSIONS`, gsi1sk: `${String(createdAt).padStart(12, "0")}#${hash}` }),
};


export class ApiKeys {
  private readonly recent: RecentRecords<ApiKeyRecord>;

  constructor(
    private readonly main: Table,
    ttlMs = CREDENTIALS_TTL_MS,
  ) {
    this.recent = new RecentRecords(ttlMs);
  }

  async create(k: ApiKeyRecord): Promise<boolean> {
    return this.main.put({ ...keys.apiKey(k.key_hash), ...keys.apiKeyIndex(k.workspace_id, k.user_id, k.created_at, k.key_id), ...k }, { ifAbsent: true });
  }

  /** The key with this hash (read again at most every CREDENTIALS_TTL_MS); callers must not change it. */
  async byHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.recent.get(hash, async () => {
      const item = await this.main.get<Stored<ApiKeyRecord>>(keys.apiKey(hash), false);
      return item ? withoutKeys<ApiKeyRecord>(item) : undefined;
    });
  }

  async list(workspaceId: string, userId: string): Promise<ApiKeyRecord[]> {
    const items = await this.main.queryPrefix<Stored<ApiKeyRecord>>(`WS#${workspaceId}#USER#${userId}#APIKEYS`, "", { index: "gsi1" });
    return items.map((i) => withoutKeys<ApiKeyRecord>(i));
  }

  /** Revokes one of the user's keys; false when no such key is theirs. */
  async revoke(workspaceId: string, userId: string, keyId: string): Promise<boolean> {
    const mine = (await this.list(workspaceId, userId)).find((k) => k.key_id === keyId);
    if (!mine) return false;
    try {
      return await this.main.delete(keys.apiKey(mine.key_hash), {
        expression: "user_id = :u AND workspace_id = :w",
        values: { ":u": userId, ":w": workspaceId },
      });
    } finally {
      // After the write: a read that began before it must not keep the old record.
      this.recent.forget(mine.key_hash);
    }
  }

  async patch(hash: string, fields: Partial<Pick<ApiKeyRecord, "name" | "permissions" | "is_disabled" | "character_limit">>): Promise<ApiKeyRecord | undefined> {
    try {
      const item = await this.main.patch<Stored<ApiKeyRecord>>(keys.apiKey(hash), fields);
      return item ? withoutKeys<ApiKeyRecord>(item) : undefined;
    } finally {
      this.recent.forget(hash);
    }
  }

  /** Records use at most once a minute, so a busy key does not write on every request. */
  async touch(hash: string, now: number): Promise<void> {
    await this.main.update(keys.apiKey(hash), {
      UpdateExpression: "SET last_used_at = :now",
      ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at = :null OR last_used_at < :stale)",
      ExpressionAttributeValues: { ":now": now, ":stale": now - 60, ":null": null },
    });
    this.recent.update(hash, (k) => ({ ...k, last_used_at: now }));
  }
}

export class Sessions {
  private readonly recent: RecentRecords<SessionRecord>;

  constructor(
    private readonly main: Table,
    ttlMs = CREDENTIALS_TTL_MS,
  ) {
    this.recent = new RecentRecords(ttlMs);
  }

  async create(s: SessionRecord): Promise<void> {
    await this.main.put({ ...keys.session(s.session_hash), ...keys.sessionIndex(s.user_id, s.created_at, s.session_hash), ...s, ttl: s.expires_at }, { ifAbsent: true });
  }

  /** The user's live sessions, newest first. */
  async ofUser(userId: string, now: number): Promise<SessionRecord[]> {
    const items = await this.main.queryPrefix<Stored<SessionRecord>>(`USER#${userId}#SESSIONS`, "", { index: "gsi1", newestFirst: true, limit: 200 });
    return items.filter((i) => i.expires_at > now).map((i) => withoutKeys<SessionRecord>(i));
  }

  /** Moves a session to another workspace (the user joined one through an invite). */
  async setWorkspace(hash: string, workspaceId: string): Promise<void> {
    try {
      await this.main.patch(keys.session(hash), { workspace_id: workspaceId });
    } finally {
      this.recent.forget(hash);
    }
  }

  /** A live session; expired ones read as absent (TTL deletion is lazy, and dynalite has none). */
  async get(hash: string, now: number): Promise<SessionRecord | undefined> {
    const s = await this.recent.get(hash, async () => {
      const item = await this.main.get<Stored<SessionRecord>>(keys.session(hash), false);
      return item ? withoutKeys<SessionRecord>(item) : undefined;
    });
    return s && s.expires_at > now ? s : undefined;
  }

  async delete(hash: string): Promise<void> {
    try {
      await this.main.delete(keys.session(hash));
    } finally {
      this.recent.forget(hash);
    }
  }
}
