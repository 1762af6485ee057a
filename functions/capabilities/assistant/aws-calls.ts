/**
 * The support assistant's websocket where each message is its own invocation (API Gateway's
 * WebSocket API on AWS): the same admission, messages, brain and speech as the embedded socket
 * (infra/local/assistant-socket.ts, ./session.ts), with the call's state in the ledger table
 * (functions/platform/stores/assistantCalls.ts).
 *
 * A typed or spoken turn runs in the invocation that received it: it restores the call
 * (the caller admitted at $connect, whose membership is checked again; the page's context; the
 * conversation), answers, and posts text, audio and tool calls through the API's @connections
 * endpoint in order. A tool call is recorded as pending before it is posted; the page's result
 * arrives as another message (another invocation), which writes it onto that record, and the
 * turn's invocation reads it there. A barge-in (`interrupt`, or a new turn) records when it came
 * in the call's record; a running turn received before it sees that and stops its speech and tools.
 *
 * Bounds: as the embedded socket (message size, characters per turn, turns per minute, audio
 * per upload, calls per workspace), the conversation kept (HISTORY_MAX_CHARS), and the function's
 * timeout (a turn waits at most TOOL_TIMEOUT_MS for each tool).
 */
import type { AppContext } from "../../platform/context.js";
import { ASSISTANT, AssistantClientMessage, assistantMessages, type AssistantServerMessage } from "../../platform/contract/assistant.js";
import { Caller, type Principal } from "../../platform/domain/caller.js";
import { ApiError } from "../../platform/http/errors.js";
import type { PageContext } from "./brain.js";
import type { LlmMessage, ToolOutcome } from "./llm.js";
import { AssistantConnection, TOOL_TIMEOUT_MS, admitAssistant, type AssistantRefusal, type AssistantRemote } from "./session.js";

/** What the server can do to a connection from outside it (API Gateway's @connections API on AWS). */
export interface AssistantConnections {
  /** Sends one message; false when the connection is gone. */
  post(connectionId: string, message: AssistantServerMessage): Promise<boolean>;
  close(connectionId: string): Promise<void>;
}

/** API Gateway closes every websocket after two hours; a call's records live no longer. */
export const CALL_MAX_MS = 2 * 60 * 60 * 1000;
/** The conversation kept between turns (the model path's context), JSON characters. */
export const HISTORY_MAX_CHARS = 24_000;
/** How often a running turn looks for a barge-in or a tool's result. */
const POLL_MS = 150;

function boundedHistory(history: LlmMessage[]): LlmMessage[] {
  const kept = [...history];
  while (kept.length && JSON.stringify(kept).length > HISTORY_MAX_CHARS) kept.shift();
  // A tool result without the assistant message that asked for it is not a valid conversation.
  while (kept.length && kept[0].role !== "user") kept.shift();
  return kept;
}

export class AssistantCallsOnAws {
  constructor(
    private readonly ctx: AppContext,
    private readonly connections: AssistantConnections,
  ) {}

  private get store() {
    return this.ctx.stores.assistantCalls;
  }

  /** $connect: credentials from the offered subprotocols, then a place among the workspace's calls. */
  async connect(connectionId: string, offered: readonly string[], sourceIp: string, now: number): Promise<{ workspaceId: string } | AssistantRefusal> {
    const admitted = await admitAssistant(this.ctx, offered, sourceIp);
    if ("status" in admitted) return admitted;
    const { caller } = admitted;
    const expires = now + CALL_MAX_MS;
    if (!(await this.store.enter(caller.workspaceId, connectionId, ASSISTANT.maxSessionsPerWorkspace, now, expires))) {
      return { status: 429, reason: "Too Many Requests", code: "too_many_sessions", message: assistantMessages.tooManySessions };
    }
    const principal = Object.fromEntries(Object.entries(caller.principal).filter(([, v]) => v !== undefined));
    await this.store.create({ connection_id: connectionId, workspace_id: caller.workspaceId, principal, history: "[]", turn: 0, stop_at: 0, turn_times: [] }, expires);
    return { workspaceId: caller.workspaceId };
  }

  /** $disconnect: the place, the call and its pending tools go. */
  async disconnect(connectionId: string): Promise<void> {
    const call = await this.store.get(connectionId);
    if (!call) return;
    await this.store.leave(call.workspace_id, connectionId);
    await this.store.remove(connectionId);
  }

  /** $default: one message. Resolves when everything it started (a whole turn) is done. */
  async message(connectionId: string, body: string, binary: boolean, receivedAt: number): Promise<void> {
    if (binary) return this.end(connectionId, "unsupported_data", assistantMessages.binary);
    if (Buffer.byteLength(body, "utf8") > ASSISTANT.maxMessageBytes) return this.end(connectionId, "message_too_big", assistantMessages.tooBig);
    const call = await this.store.get(connectionId);
    if (!call) return this.connections.close(connectionId);
    let parsed: AssistantClientMessage;
    try {
      const r = AssistantClientMessage.safeParse(JSON.parse(body));
      if (!r.success) return void (await this.post(connectionId, { type: "error", code: "invalid_message", message: assistantMessages.badMessage }));
      parsed = r.data;
    } catch {
      return void (await this.post(connectionId, { type: "error", code: "invalid_message", message: assistantMessages.badMessage }));
    }
    const caller = new Caller(this.ctx, call.principal as unknown as Principal);
    try {
      await caller.member();
    } catch (e) {
      const m = e instanceof ApiError ? e.message : assistantMessages.somethingWrong;
      return this.end(connectionId, e instanceof ApiError ? e.status : "internal_error", m);
    }
    switch (parsed.type) {
      // Nothing can be sent from $connect (API Gateway accepts the connection only when it returns):
      // the call answers the page's first context with `ready`.
      case "context": {
        const first = call.page === undefined;
        await this.store.patch(connectionId, { page: { route: parsed.route, elements: parsed.elements } });
        if (first) await this.post(connectionId, { type: "ready", first_name: (await caller.user()).first_name });
        return;
      }
      case "tool_result":
        // Only a call this connection is waiting on takes a result.
        await this.store.resolveTool(connectionId, parsed.id, { ok: parsed.ok, value: parsed.value, error: parsed.error });
        return;
      case "interrupt":
        await this.store.stop(connectionId, receivedAt);
        return;
      default:
        return this.turn(connectionId, caller, body, receivedAt);
    }
  }

  private async turn(connectionId: string, caller: Caller, body: string, receivedAt: number): Promise<void> {
    // A new turn stops the ones received before it (barge-in), wherever they run. By API
    // Gateway's receipt time, not by turn number: the page's `interrupt` just before this turn
    // may be handled after it has started, and must not stop it.
    await this.store.stop(connectionId, receivedAt - 1);
    const turn = await this.store.nextTurn(connectionId);
    const call = await this.store.get(connectionId);
    if (turn === undefined || !call) return;
    let posting: Promise<unknown> = Promise.resolve();
    const conn = new AssistantConnection(this.ctx, caller, {
      send: (m) => {
        posting = posting.then(() => this.post(connectionId, m));
      },
      close: () => {
        posting = posting.then(() => this.connections.close(connectionId));
      },
    }, this.remote(connectionId, receivedAt));
    conn.restore({ page: (call.page as PageContext | undefined) ?? null, history: JSON.parse(call.history) as LlmMessage[], turn: turn - 1, turnTimes: call.turn_times });
    await conn.message(body);
    await posting;
    const after = conn.state();
    await this.store.patch(connectionId, { history: JSON.stringify(boundedHistory(after.history)), turn_times: after.turnTimes });
  }

  private remote(connectionId: string, receivedAt: number): AssistantRemote {
    const store = this.store;
    return {
      async tool(call, signal, send): Promise<ToolOutcome> {
        await store.pendTool(connectionId, call.id, Date.now() + CALL_MAX_MS);
        send();
        const until = Date.now() + TOOL_TIMEOUT_MS;
        try {
          while (Date.now() < until) {
            if (signal.aborted) return { ok: false, error: "interrupted" };
            const r = await store.tool(connectionId, call.id);
            if (!r) return { ok: false, error: "closed" };
            if (r.done) return { ok: r.ok === true, value: r.value, error: r.error };
            await new Promise((res) => setTimeout(res, POLL_MS));
          }
          return { ok: false, error: assistantMessages.somethingWrong };
        } finally {
          await store.dropTool(connectionId, call.id);
        }
      },
      watch(_turn, abort) {
        let on = true;
        void (async () => {
          while (on && !abort.signal.aborted) {
            await new Promise((res) => setTimeout(res, POLL_MS));
            const c = await store.get(connectionId).catch(() => undefined);
            if (!c || c.stop_at > receivedAt) abort.abort();
          }
        })();
        return () => {
          on = false;
        };
      },
    };
  }

  private post(connectionId: string, m: AssistantServerMessage): Promise<boolean> {
    return this.connections.post(connectionId, m);
  }

  private async end(connectionId: string, code: string, message: string): Promise<void> {
    await this.post(connectionId, { type: "error", code, message });
    await this.connections.close(connectionId);
  }
}
