import type { Table } from "./table.js";

/**
 * Support assistant calls on AWS (functions/capabilities/assistant/aws-calls.ts), in the ledger
 * table beside the live readings. API Gateway runs one Lambda invocation per websocket message,
 * so a call lives here between messages:
 *
 *   ASSIST#{connection}/CALL        the call: who is calling (the principal admitted at $connect),
 *                                   the page's context, the conversation so far (bounded), the turn
 *                                   counter, the turn asked to stop (barge-in) and recent turn times.
 *   ASSIST#{connection}/TOOL#{id}   a tool call sent to the page; the page's result is written here
 *                                   by the invocation that receives it, and read by the one running
 *                                   the turn.
 *   WS#{workspace}/ASSISTANT        the workspace's open calls (id -> expiry ms), to cap them.
 *
 * TTL on all of them: the connection's longest life.
 */
export interface AssistantCallRecord {
  connection_id: string;
  workspace_id: string;
  /** The Principal admitted at $connect (no credential: the session is identified by its hash). */
  principal: Record<string, unknown>;
  page?: unknown;
  /** The conversation (the model path's messages), as JSON. */
  history: string;
  turn: number;
  /** When the last barge-in was received (ms): turns received before it stop. */
  stop_at: number;
  turn_times: number[];
}

export interface ToolResultRecord {
  ok?: boolean;
  value?: string;
  error?: string;
  done: boolean;
}

const callKey = (connectionId: string) => ({ pk: `ASSIST#${connectionId}`, sk: "CALL" });
const toolKey = (connectionId: string, id: string) => ({ pk: `ASSIST#${connectionId}`, sk: `TOOL#${id}` });
const workspaceKey = (workspaceId: string) => ({ pk: `WS#${workspaceId}`, sk: "ASSISTANT" });
const ttlOf = (ms: number) => Math.ceil(ms / 1000);

export class AssistantCalls {
  constructor(private readonly ledger: Table) {}

  /** Takes one of the workspace's `max` places for the connection until `expiresAt`, or says there is none. */
  async enter(workspaceId: string, connectionId: string, max: number, now: number, expiresAt: number): Promise<boolean> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const item = await this.ledger.get<{ conns: Record<string, number>; version: number }>(workspaceKey(workspaceId));
      const open = Object.entries(item?.conns ?? {}).filter(([id, until]) => until > now && id !== connectionId);
      if (open.length >= max) return false;
      const conns = Object.fromEntries([...open, [connectionId, expiresAt]]);
      const written = await this.ledger.put(
        { ...workspaceKey(workspaceId), conns, version: (item?.version ?? 0) + 1, ttl: ttlOf(Math.max(...Object.values(conns))) },
        item ? { condition: "version = :v", values: { ":v": item.version } } : { ifAbsent: true },
      );
      if (written) return true;
    }
    throw new Error("the workspace's assistant calls changed too often to take a place");
  }

  async leave(workspaceId: string, connectionId: string): Promise<void> {
    await this.ledger.update(
      workspaceKey(workspaceId),
      { UpdateExpression: "REMOVE conns.#c SET version = version + :one", ConditionExpression: "attribute_exists(pk)", ExpressionAttributeNames: { "#c": connectionId }, ExpressionAttributeValues: { ":one": 1 } },
      "UPDATED_NEW",
    );
  }

  async create(record: AssistantCallRecord, expiresAt: number): Promise<void> {
    await this.ledger.put({ ...callKey(record.connection_id), ...record, ttl: ttlOf(expiresAt) });
  }

  get(connectionId: string): Promise<AssistantCallRecord | undefined> {
    return this.ledger.get<AssistantCallRecord>(callKey(connectionId));
  }

  /** The call and its tool items. */
  async remove(connectionId: string): Promise<void> {
    const tools = await this.ledger.queryPrefix<{ pk: string; sk: string }>(`ASSIST#${connectionId}`, "TOOL#");
    await this.ledger.batchDelete(tools.map(({ pk, sk }) => ({ pk, sk })));
    await this.ledger.delete(callKey(connectionId));
  }

  /** Sets fields of an existing call. */
  async patch(connectionId: string, fields: Partial<Pick<AssistantCallRecord, "page" | "history" | "turn_times">>): Promise<void> {
    await this.ledger.patch(callKey(connectionId), fields);
  }

  /** The next turn's number (one atomic increment), or undefined when the call is gone. */
  async nextTurn(connectionId: string): Promise<number | undefined> {
    const r = await this.ledger.update<{ turn: number }>(
      callKey(connectionId),
      { UpdateExpression: "SET turn = turn + :one", ConditionExpression: "attribute_exists(pk)", ExpressionAttributeValues: { ":one": 1 } },
      "UPDATED_NEW",
    );
    return r?.turn;
  }

  /** Barge-in received at `at` (ms): turns received before it stop. */
  async stop(connectionId: string, at: number): Promise<void> {
    await this.ledger.update(
      callKey(connectionId),
      { UpdateExpression: "SET stop_at = :at", ConditionExpression: "attribute_exists(pk) AND stop_at < :at", ExpressionAttributeValues: { ":at": at } },
      "UPDATED_NEW",
    );
  }

  async pendTool(connectionId: string, id: string, expiresAt: number): Promise<void> {
    await this.ledger.put({ ...toolKey(connectionId, id), done: false, ttl: ttlOf(expiresAt) });
  }

  /** The page's result, accepted only for a tool call this call is waiting on. */
  async resolveTool(connectionId: string, id: string, result: Omit<ToolResultRecord, "done">): Promise<boolean> {
    const fields = Object.fromEntries(Object.entries(result).filter(([, v]) => v !== undefined));
    const names = Object.fromEntries(Object.keys(fields).map((k) => [`#${k}`, k]));
    const values = Object.fromEntries(Object.entries(fields).map(([k, v]) => [`:${k}`, v]));
    const sets = Object.keys(fields).map((k) => `#${k} = :${k}`);
    const r = await this.ledger.update(
      toolKey(connectionId, id),
      {
        UpdateExpression: `SET ${[...sets, "#done = :t"].join(", ")}`,
        ConditionExpression: "attribute_exists(pk) AND #done = :f",
        ExpressionAttributeNames: { ...names, "#done": "done" },
        ExpressionAttributeValues: { ...values, ":t": true, ":f": false },
      },
      "UPDATED_NEW",
    );
    return r !== undefined;
  }

  async tool(connectionId: string, id: string): Promise<ToolResultRecord | undefined> {
    return this.ledger.get<ToolResultRecord>(toolKey(connectionId, id));
  }

  async dropTool(connectionId: string, id: string): Promise<void> {
    await this.ledger.delete(toolKey(connectionId, id));
  }
}
