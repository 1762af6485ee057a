import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";

/**
 * Remote speech engines a workspace's administrators added over HTTP (capabilities/engines), in
 * the main table under the workspace: `WS#{ws}` / `ENGINE#{engine_id}`. The key is stored sealed
 * (platform/domain/sealed.ts) beside a masked hint; it is never read back out through the API.
 */
export interface WorkspaceEngineRecord {
  engine_id: string;
  workspace_id: string;
  created_by_user_id: string;
  kind: "openai" | "elevenlabs" | "xtts";
  url: string;
  model: string;
  language: string;
  /** The key, sealed; null without one. */
  key_enc: string | null;
  /** The key's last four characters behind dots ("••••1a2b"), for the list. */
  key_hint: string | null;
  created_at_unix: number;
  /** Per-engine timeouts (ms); absent on records from before they could be set: the defaults. */
  first_byte_timeout_ms?: number;
  total_timeout_ms?: number;
}

const key = (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `ENGINE#${id}` });

export class WorkspaceEngines {
  constructor(private readonly main: Table) {}

  /** False when the workspace already has an engine with this id. */
  async create(r: WorkspaceEngineRecord): Promise<boolean> {
    return this.main.put({ ...key(r.workspace_id, r.engine_id), ...r }, { ifAbsent: true });
  }

  async get(ws: string, id: string): Promise<WorkspaceEngineRecord | undefined> {
    const item = await this.main.get<Stored<WorkspaceEngineRecord>>(key(ws, id));
    return item ? withoutKeys<WorkspaceEngineRecord>(item) : undefined;
  }

  async list(ws: string): Promise<WorkspaceEngineRecord[]> {
    return (await this.main.queryPrefix<Stored<WorkspaceEngineRecord>>(`WS#${ws}`, "ENGINE#")).map((i) => withoutKeys<WorkspaceEngineRecord>(i));
  }

  /** Replaces an existing record (false when there is none). */
  async replace(r: WorkspaceEngineRecord): Promise<boolean> {
    return this.main.put({ ...key(r.workspace_id, r.engine_id), ...r }, { condition: "attribute_exists(pk)" });
  }

  /** False when there was none. */
  async delete(ws: string, id: string): Promise<boolean> {
    return this.main.delete(key(ws, id), { expression: "attribute_exists(pk)" });
  }
}
