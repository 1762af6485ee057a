import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";

/**
 * Durable events, one item per event under the workspace it concerns, listed by time. The
 * webhook issue delivers from here; until then an event is recorded and stays "pending".
 */
export interface EventRecord {
  event_id: string;
  type: string;
  workspace_id: string;
  /** Unix seconds. */
  event_timestamp: number;
  data: Record<string, unknown>;
  delivery: { state: "pending" | "delivered" | "failed"; attempts: number };
}

const keys = {
  event: (ws: string, at: number, id: string) => ({ pk: `WS#${ws}`, sk: `EVENT#${String(at).padStart(12, "0")}#${id}` }),
};

export class Events {
  constructor(private readonly main: Table) {}

  async put(e: EventRecord): Promise<void> {
    await this.main.put({ ...keys.event(e.workspace_id, e.event_timestamp, e.event_id), ...e }, { ifAbsent: true });
  }

  /** The workspace's events, newest first. */
  async list(ws: string, opts: { limit?: number; type?: string } = {}): Promise<EventRecord[]> {
    const items = await this.main.queryPrefix<Stored<EventRecord>>(`WS#${ws}`, "EVENT#", { newestFirst: true, limit: opts.limit ?? 100 });
    return items.map((i) => withoutKeys<EventRecord>(i)).filter((e) => !opts.type || e.type === opts.type);
  }
}
