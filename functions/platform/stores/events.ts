import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";
import { queueKeys } from "./webhooks.js";

/**
 * Durable events, one item per event under the workspace it concerns, listed by time. A new
 * event sits on the webhook queue (adapters/dynamo/webhooks.ts) until the dispatcher has fanned
 * it out into one delivery per webhook that wants it; `delivery` then says how many.
 */
export interface EventRecord {
  event_id: string;
  type: string;
  workspace_id: string;
  /** The member whose action or job it concerns (personal webhooks get these); null for the workspace. */
  user_id: string | null;
  /** Unix seconds. */
  event_timestamp: number;
  /** Milliseconds, for ordering what happened within one second (absent on records written before it was kept). */
  created_ms?: number;
  data: Record<string, unknown>;
  /** pending: not fanned out yet; dispatched: `webhooks` deliveries were queued. */
  delivery: { state: "pending" | "dispatched"; webhooks?: number; attempts?: number };
  /** Only this webhook gets it (a "Send test event"). */
  only_webhook_id?: string | null;
}

const keys = {
  event: (ws: string, at: number, id: string) => ({ pk: `WS#${ws}`, sk: `EVENT#${String(at).padStart(12, "0")}#${id}` }),
};

export class Events {
  constructor(private readonly main: Table) {}

  /** Writes the event and queues it for fan-out at once. */
  async put(e: EventRecord): Promise<void> {
    await this.main.put({ ...keys.event(e.workspace_id, e.event_timestamp, e.event_id), ...queueKeys(e.event_id, e.event_timestamp * 1000), kind: "event", ...e }, { ifAbsent: true });
  }

  async get(pk: string, sk: string): Promise<EventRecord | undefined> {
    const item = await this.main.get<Stored<EventRecord & { kind?: string }>>({ pk, sk });
    if (!item) return undefined;
    const { kind: _k, ...e } = withoutKeys<EventRecord & { kind?: string }>(item);
    return e;
  }

  /** The workspace's events, newest first. */
  async list(ws: string, opts: { limit?: number; type?: string } = {}): Promise<EventRecord[]> {
    const items = await this.main.queryPrefix<Stored<EventRecord & { kind?: string }>>(`WS#${ws}`, "EVENT#", { newestFirst: true, limit: opts.limit ?? 100 });
    return items
      .map((i) => withoutKeys<EventRecord & { kind?: string }>(i))
      .map(({ kind: _k, ...e }) => e as EventRecord)
      .filter((e) => !opts.type || e.type === opts.type);
  }
}
