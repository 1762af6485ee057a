import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";

/**
 * Webhooks, their deliveries and the durable delivery queue, all in the main table.
 *
 * The queue is the sparse index gsi2: an item is on it while it has work to do, under
 * `WHQ#{shard}` with sort key `{due ms}#{id}`. Two kinds of items sit there: events waiting to be
 * fanned out to the webhooks that want them, and deliveries waiting for their next attempt. A
 * dispatcher claims an item by moving its due time forward (a lease) with a conditional write, so
 * concurrent dispatchers never attempt the same delivery at once and a dispatcher that dies (a
 * killed process, a Lambda timeout) leaves the item to be picked up again when the lease ends.
 */
export const QUEUE_SHARDS = 4;

export interface WebhookRecord {
  webhook_id: string;
  workspace_id: string;
  /** Workspace webhooks get every event of the workspace; personal ones their owner's. */
  scope: "workspace" | "personal";
  owner_user_id: string;
  name: string;
  webhook_url: string;
  auth_type: "hmac";
  /** The signing secret, encrypted (functions/capabilities/webhooks/secrets.ts). */
  secret_enc: string;
  request_headers: Record<string, string>;
  /** Event types it is subscribed to; null means every event. */
  events: string[] | null;
  retry_enabled: boolean;
  is_disabled: boolean;
  is_auto_disabled: boolean;
  created_at_unix: number;
  consecutive_failures: number;
  /** When the current run of failures began (unix s), for the auto-disable rule. */
  failing_since_unix: number | null;
  most_recent_failure_error_code: number | null;
  most_recent_failure_timestamp: number | null;
}

export type DeliveryState = "pending" | "delivered" | "failed" | "skipped";

export interface DeliveryAttempt {
  at_unix: number;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface DeliveryRecord {
  delivery_id: string;
  workspace_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** The exact JSON body sent on every attempt. */
  body: string;
  state: DeliveryState;
  attempts: number;
  created_ms: number;
  next_attempt_ms: number | null;
  last_status: number | null;
  last_error: string | null;
  /** The latest attempts, newest last (at most MAX_ATTEMPT_LOG). */
  log: DeliveryAttempt[];
}

export const MAX_ATTEMPT_LOG = 20;

/** What the queue holds: the key of the item to work on and its kind. */
export interface QueueEntry {
  kind: "event" | "delivery";
  pk: string;
  sk: string;
  dueKey: string;
  workspace_id: string;
  id: string;
}

const pad = (n: number, w = 15) => String(Math.max(0, Math.floor(n))).padStart(w, "0");
const shardOf = (id: string) => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % QUEUE_SHARDS;

export const queueKeys = (id: string, dueMs: number) => ({ gsi2pk: `WHQ#${shardOf(id)}`, gsi2sk: `${pad(dueMs)}#${id}` });

const keys = {
  webhook: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `WEBHOOK#${id}` }),
  delivery: (ws: string, webhookId: string, createdMs: number, id: string) => ({ pk: `WS#${ws}`, sk: `WHD#${webhookId}#${pad(createdMs)}#${id}` }),
};

export class Webhooks {
  constructor(private readonly main: Table) {}

  async create(w: WebhookRecord): Promise<void> {
    await this.main.put({ ...keys.webhook(w.workspace_id, w.webhook_id), ...w }, { ifAbsent: true });
  }

  async get(ws: string, id: string): Promise<WebhookRecord | undefined> {
    const item = await this.main.get<Stored<WebhookRecord>>(keys.webhook(ws, id));
    return item ? withoutKeys<WebhookRecord>(item) : undefined;
  }

  async list(ws: string): Promise<WebhookRecord[]> {
    return (await this.main.queryPrefix<Stored<WebhookRecord>>(`WS#${ws}`, "WEBHOOK#")).map((i) => withoutKeys<WebhookRecord>(i));
  }

  async patch(ws: string, id: string, fields: Partial<Omit<WebhookRecord, "webhook_id" | "workspace_id">>): Promise<WebhookRecord | undefined> {
    const item = await this.main.patch<Stored<WebhookRecord>>(keys.webhook(ws, id), fields);
    return item ? withoutKeys<WebhookRecord>(item) : undefined;
  }

  /** Counts a failed attempt atomically; returns the webhook after it. */
  async recordFailure(ws: string, id: string, status: number | null, nowUnix: number): Promise<WebhookRecord | undefined> {
    const item = await this.main.update<Stored<WebhookRecord>>(keys.webhook(ws, id), {
      UpdateExpression:
        "SET consecutive_failures = consecutive_failures + :one, most_recent_failure_error_code = :code, most_recent_failure_timestamp = :now, failing_since_unix = if_not_exists(failing_since_unix, :now)",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeValues: { ":one": 1, ":code": status, ":now": nowUnix },
    });
    if (!item) return undefined;
    // if_not_exists keeps a null too: a streak that begins now starts its clock now.
    if (item.failing_since_unix === null) return (await this.patch(ws, id, { failing_since_unix: nowUnix })) ?? withoutKeys<WebhookRecord>(item);
    return withoutKeys<WebhookRecord>(item);
  }

  async recordSuccess(ws: string, id: string): Promise<void> {
    await this.main.update(keys.webhook(ws, id), {
      UpdateExpression: "SET consecutive_failures = :zero, failing_since_unix = :null",
      ConditionExpression: "attribute_exists(pk) AND consecutive_failures > :zero",
      ExpressionAttributeValues: { ":zero": 0, ":null": null },
    });
  }

  async delete(ws: string, id: string): Promise<boolean> {
    return this.main.delete(keys.webhook(ws, id), { expression: "attribute_exists(pk)" });
  }

  /** A delivery, queued for its first attempt now; false when it already exists (a re-run fan-out). */
  async createDelivery(d: DeliveryRecord): Promise<boolean> {
    return this.main.put(
      { ...keys.delivery(d.workspace_id, d.webhook_id, d.created_ms, d.delivery_id), ...queueKeys(d.delivery_id, d.next_attempt_ms ?? d.created_ms), kind: "delivery", ...d },
      { ifAbsent: true },
    );
  }

  async delivery(pk: string, sk: string): Promise<DeliveryRecord | undefined> {
    const item = await this.main.get<Stored<DeliveryRecord>>({ pk, sk });
    return item ? withoutKeys<DeliveryRecord>(item) : undefined;
  }

  /** A webhook's deliveries, newest first. */
  async deliveries(ws: string, webhookId: string, limit = 50): Promise<DeliveryRecord[]> {
    const items = await this.main.queryPrefix<Stored<DeliveryRecord>>(`WS#${ws}`, `WHD#${webhookId}#`, { newestFirst: true, limit });
    return items.map((i) => withoutKeys<DeliveryRecord & { kind?: string }>(i)).map(({ kind: _k, ...d }) => d as DeliveryRecord);
  }

  /** Queue entries due at `nowMs` in one shard, oldest first. */
  async due(shard: number, nowMs: number, limit: number): Promise<QueueEntry[]> {
    const r = await this.main.query<Stored<{ kind: "event" | "delivery"; workspace_id: string; event_id?: string; delivery_id?: string }>>({
      IndexName: "gsi2",
      KeyConditionExpression: "gsi2pk = :p AND gsi2sk <= :u",
      ExpressionAttributeValues: { ":p": `WHQ#${shard}`, ":u": `${pad(nowMs)}#\uffff` },
      limit,
    });
    return r.items.map((i) => ({ kind: i.kind, pk: i.pk, sk: i.sk, dueKey: i.gsi2sk!, workspace_id: i.workspace_id, id: (i.kind === "event" ? i.event_id : i.delivery_id)! }));
  }

  /** Takes an entry for `leaseMs` (its due time moves forward); false when another dispatcher took it first. */
  async claim(e: QueueEntry, untilMs: number): Promise<boolean> {
    const r = await this.main.update({ pk: e.pk, sk: e.sk }, {
      UpdateExpression: "SET gsi2sk = :lease",
      ConditionExpression: "gsi2sk = :seen",
      ExpressionAttributeValues: { ":lease": queueKeys(e.id, untilMs).gsi2sk, ":seen": e.dueKey },
    });
    return r !== undefined;
  }

  /** Leaves the queue (the work is done): the item keeps its record, without queue keys. */
  async dequeue(pk: string, sk: string, fields: Record<string, unknown> = {}): Promise<void> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets = Object.entries(fields).map(([k, v], i) => {
      names[`#f${i}`] = k;
      values[`:v${i}`] = v;
      return `#f${i} = :v${i}`;
    });
    await this.main.update({ pk, sk }, {
      UpdateExpression: `${sets.length ? `SET ${sets.join(", ")} ` : ""}REMOVE gsi2pk, gsi2sk`,
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: sets.length ? names : undefined,
      ExpressionAttributeValues: sets.length ? values : undefined,
    });
  }

  /** Puts an item back on the queue for `dueMs`, with the given fields. */
  async requeue(pk: string, sk: string, id: string, dueMs: number, fields: Record<string, unknown>): Promise<void> {
    const names: Record<string, string> = { "#qs": "gsi2sk" };
    const values: Record<string, unknown> = { ":qs": queueKeys(id, dueMs).gsi2sk };
    const sets = ["#qs = :qs"];
    Object.entries(fields).forEach(([k, v], i) => {
      names[`#f${i}`] = k;
      values[`:v${i}`] = v;
      sets.push(`#f${i} = :v${i}`);
    });
    await this.main.update({ pk, sk }, { UpdateExpression: `SET ${sets.join(", ")}`, ConditionExpression: "attribute_exists(pk)", ExpressionAttributeNames: names, ExpressionAttributeValues: values });
  }
}
