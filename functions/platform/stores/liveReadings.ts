import type { Table } from "./table.js";

/**
 * Live reading sessions on AWS (functions/capabilities/pvc/live-sessions.ts), in the ledger table with the
 * other short-lived counters. API Gateway runs one Lambda invocation per websocket message, so
 * a session lives here between messages:
 *
 *   LIVE#{connection}/SESSION      the session: workspace, passage generation, language, where its
 *                                  reference features are (S3), the aligner's progress (bytes, a few
 *                                  KB), words read, audio counters for the bounds, the number of the
 *                                  last chunk queued (`seq`) and of the last one followed (`applied`),
 *                                  and a lease naming the one invocation that follows them.
 *   LIVE#{connection}/CHUNK#{seq}  one queued audio chunk (16-bit PCM, at most 48 KB), numbered by
 *                                  the session's counter: a chunk per item, so a backlog (a passage
 *                                  still being read by the engine) is not bounded by one item's 400 KB.
 *   WS#{workspace}/LIVE            the workspace's open connections (id -> expiry ms), to cap them;
 *                                  expired entries (a $disconnect that never came) are dropped on read.
 *
 * TTL on all of them: the connection's longest life (API Gateway closes every websocket after 2
 * hours). Every write is a single-item conditional write: the lease and the passage generation
 * make sure that only the lease holder writes progress, and that a new passage discards the old.
 */
export interface LiveSessionRecord {
  connection_id: string;
  workspace_id: string;
  /** The passage generation: 0 before the first script, +1 for each new script. */
  gen: number;
  language?: string;
  /** The passage's reference features are in S3 and `progress` is set. */
  ready: boolean;
  reference_key?: string;
  progress?: Uint8Array;
  words: number;
  words_total: number;
  /** Samples received on this connection and when the first arrived (ms): the real-time bound. */
  received: number;
  first_audio_at?: number;
  /** The last chunk number given out, and the last one followed (or skipped). */
  seq: number;
  applied: number;
  lease?: string;
  lease_until?: number;
  ping_id: number;
  last_ping_at: number;
  version: number;
}

/** The fields every message needs, without the chunks and the progress. */
const HEAD = ["connection_id", "workspace_id", "gen", "language", "ready", "received", "first_audio_at", "ping_id", "last_ping_at", "version", "seq", "applied"] as const;
export type LiveSessionHead = Pick<LiveSessionRecord, (typeof HEAD)[number]>;

/** Where live readings keep their passages' reference features in the bucket (a lifecycle rule expires them). */
export const LIVE_OBJECT_PREFIX = "live/";

const sessionKey = (connectionId: string) => ({ pk: `LIVE#${connectionId}`, sk: "SESSION" });
const pad = (n: number) => String(n).padStart(10, "0");
const chunkKey = (connectionId: string, seq: number) => ({ pk: `LIVE#${connectionId}`, sk: `CHUNK#${pad(seq)}` });

export interface LiveChunk {
  seq: number;
  /** 16-bit little-endian 16 kHz PCM. */
  pcm: Uint8Array;
}
const workspaceKey = (workspaceId: string) => ({ pk: `WS#${workspaceId}`, sk: "LIVE" });
const ttlOf = (ms: number) => Math.ceil(ms / 1000);

interface WorkspaceLive {
  conns: Record<string, number>;
  version: number;
}

export class LiveReadings {
  constructor(private readonly ledger: Table) {}

  /** Takes one of the workspace's `max` places for the connection until `expiresAt`, or says there is none. */
  async enter(workspaceId: string, connectionId: string, max: number, now: number, expiresAt: number): Promise<boolean> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const item = await this.ledger.get<WorkspaceLive>(workspaceKey(workspaceId));
      const open = Object.entries(item?.conns ?? {}).filter(([id, until]) => until > now && id !== connectionId);
      if (open.length >= max) return false;
      const conns = Object.fromEntries([...open, [connectionId, expiresAt]]);
      const latest = Math.max(...Object.values(conns));
      const written = await this.ledger.put(
        { ...workspaceKey(workspaceId), conns, version: (item?.version ?? 0) + 1, ttl: ttlOf(latest) },
        item ? { condition: "version = :v", values: { ":v": item.version } } : { ifAbsent: true },
      );
      if (written) return true;
    }
    throw new Error("the workspace's live readings changed too often to take a place");
  }

  async leave(workspaceId: string, connectionId: string): Promise<void> {
    await this.ledger.update(
      workspaceKey(workspaceId),
      { UpdateExpression: "REMOVE conns.#c SET version = version + :one", ConditionExpression: "attribute_exists(pk)", ExpressionAttributeNames: { "#c": connectionId }, ExpressionAttributeValues: { ":one": 1 } },
      "UPDATED_NEW",
    );
  }

  async create(connectionId: string, workspaceId: string, now: number, expiresAt: number): Promise<void> {
    const record: LiveSessionRecord = {
      connection_id: connectionId,
      workspace_id: workspaceId,
      gen: 0,
      ready: false,
      words: 0,
      words_total: 0,
      received: 0,
      seq: 0,
      applied: 0,
      ping_id: 0,
      last_ping_at: now,
      version: 0,
    };
    await this.ledger.put({ ...sessionKey(connectionId), ...record, ttl: ttlOf(expiresAt) });
  }

  head(connectionId: string): Promise<LiveSessionHead | undefined> {
    return this.ledger.get<LiveSessionHead>(sessionKey(connectionId), true, [...HEAD]);
  }

  get(connectionId: string): Promise<LiveSessionRecord | undefined> {
    return this.ledger.get<LiveSessionRecord>(sessionKey(connectionId));
  }

  /** The session and any chunk still queued. */
  async remove(connectionId: string): Promise<void> {
    const chunks = await this.ledger.queryPrefix<{ pk: string; sk: string }>(`LIVE#${connectionId}`, "CHUNK#");
    await this.ledger.batchDelete(chunks.map(({ pk, sk }) => ({ pk, sk })));
    await this.ledger.delete(sessionKey(connectionId));
  }

  async setLanguage(connectionId: string, language: string): Promise<void> {
    await this.write(connectionId, { set: ["#language = :l"] }, "attribute_exists(pk)", { "#language": "language" }, { ":l": language });
  }

  /**
   * A new passage: the next generation, nothing read, and the lease to the invocation that
   * prepares it (whoever held it stops at its next write). Chunks queued so far stay queued and
   * are followed in the new passage, as the embedded session does. Returns the generation.
   */
  async newPassage(connectionId: string, language: string, owner: string, leaseUntil: number): Promise<number | undefined> {
    const r = await this.ledger.update<{ gen: number }>(
      sessionKey(connectionId),
      {
        UpdateExpression:
          "SET gen = gen + :one, #language = :l, ready = :f, words = :z, words_total = :z, lease = :me, lease_until = :u, version = version + :one REMOVE progress, reference_key",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#language": "language" },
        ExpressionAttributeValues: { ":one": 1, ":l": language, ":f": false, ":z": 0, ":me": owner, ":u": leaseUntil },
      },
      "UPDATED_NEW",
    );
    return r?.gen;
  }

  /** The passage is ready to follow (still this generation and this lease holder's). */
  started(connectionId: string, gen: number, owner: string, referenceKey: string, progress: Uint8Array, wordsTotal: number, leaseUntil: number): Promise<boolean> {
    return this.write(
      connectionId,
      { set: ["ready = :t", "reference_key = :k", "progress = :p", "words_total = :n", "lease_until = :u"] },
      "gen = :g AND lease = :me",
      {},
      { ":t": true, ":k": referenceKey, ":p": progress, ":n": wordsTotal, ":u": leaseUntil, ":g": gen, ":me": owner },
    );
  }

  /**
   * Numbers and counts an audio chunk (only once a script was sent). Returns its number and the
   * counters after it, or undefined when no script was sent yet. The chunk itself follows (putChunk).
   */
  async count(connectionId: string, samples: number, now: number) {
    return this.ledger.update<Pick<LiveSessionRecord, "seq" | "received" | "first_audio_at">>(
      sessionKey(connectionId),
      {
        UpdateExpression: "SET seq = seq + :one, received = received + :n, first_audio_at = if_not_exists(first_audio_at, :now), version = version + :one",
        ConditionExpression: "gen > :z",
        ExpressionAttributeValues: { ":n": samples, ":now": now, ":one": 1, ":z": 0 },
      },
      "UPDATED_NEW",
    );
  }

  async putChunk(connectionId: string, chunk: LiveChunk, expiresAt: number): Promise<void> {
    await this.ledger.put({ ...chunkKey(connectionId, chunk.seq), ...chunk, ttl: ttlOf(expiresAt) });
  }

  /** Queued chunks numbered from..to, in order, at most `limit`. */
  async chunks(connectionId: string, from: number, to: number, limit: number): Promise<LiveChunk[]> {
    const r = await this.ledger.query<LiveChunk>({
      KeyConditionExpression: "pk = :p AND sk BETWEEN :a AND :b",
      ExpressionAttributeValues: { ":p": `LIVE#${connectionId}`, ":a": chunkKey(connectionId, from).sk, ":b": chunkKey(connectionId, to).sk },
      ConsistentRead: true,
      limit,
    });
    return r.items.map((c) => ({ seq: c.seq, pcm: c.pcm }));
  }

  async deleteChunks(connectionId: string, seqs: number[]): Promise<void> {
    await this.ledger.batchDelete(seqs.map((seq) => chunkKey(connectionId, seq)));
  }

  /** The lease to follow the queued chunks, when nobody holds it (or its holder's time ran out). */
  lease(connectionId: string, owner: string, now: number, leaseUntil: number): Promise<boolean> {
    return this.write(
      connectionId,
      { set: ["lease = :me", "lease_until = :u"] },
      "attribute_exists(pk) AND (attribute_not_exists(lease) OR lease_until < :now)",
      {},
      { ":me": owner, ":u": leaseUntil, ":now": now },
    );
  }

  /** Progress after following the chunks up to `applied` (their items can go after this). */
  advance(connectionId: string, gen: number, owner: string, progress: Uint8Array, words: number, applied: number, leaseUntil: number): Promise<boolean> {
    return this.write(
      connectionId,
      { set: ["progress = :p", "words = :w", "applied = :a", "lease_until = :u"] },
      "gen = :g AND lease = :me",
      {},
      { ":p": progress, ":w": words, ":a": applied, ":u": leaseUntil, ":g": gen, ":me": owner },
    );
  }

  /**
   * Gives the lease up; with `ifIdleAt`, only when no chunk was numbered after that one (else the
   * holder goes on with it).
   */
  release(connectionId: string, owner: string, ifIdleAt?: number): Promise<boolean> {
    const idle = ifIdleAt !== undefined;
    return this.write(connectionId, { remove: ["lease", "lease_until"] }, `lease = :me${idle ? " AND seq = :a" : ""}`, {}, { ":me": owner, ...(idle ? { ":a": ifIdleAt } : {}) });
  }

  /** The next ping's id when one is due (one invocation wins it), else undefined. */
  async ping(connectionId: string, lastPingAt: number, now: number): Promise<number | undefined> {
    const r = await this.ledger.update<{ ping_id: number }>(
      sessionKey(connectionId),
      {
        UpdateExpression: "SET last_ping_at = :now, ping_id = ping_id + :one",
        ConditionExpression: "last_ping_at = :last",
        ExpressionAttributeValues: { ":now": now, ":one": 1, ":last": lastPingAt },
      },
      "UPDATED_NEW",
    );
    return r?.ping_id;
  }

  /** A conditional write that bumps the version; false when the condition failed. */
  private async write(connectionId: string, change: { set?: string[]; remove?: string[] }, condition: string, names: Record<string, string>, values: Record<string, unknown>): Promise<boolean> {
    const set = [...(change.set ?? []), "version = version + :one"].join(", ");
    const remove = change.remove?.length ? ` REMOVE ${change.remove.join(", ")}` : "";
    const r = await this.ledger.update(
      sessionKey(connectionId),
      {
        UpdateExpression: `SET ${set}${remove}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
        ExpressionAttributeValues: { ...values, ":one": 1 },
      },
      "UPDATED_NEW",
    );
    return r !== undefined;
  }
}
