import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import type { AppContext } from "../../functions/platform/context.js";
import type { Caller } from "../../functions/platform/domain/caller.js";
import { ASSISTANT, ASSISTANT_CLOSE, assistantMessages } from "../../functions/platform/contract/assistant.js";
import { AssistantConnection, AssistantRegistry, admitAssistant } from "../../functions/capabilities/assistant/session.js";

/**
 * The support assistant's websocket in embedded mode, on the product's one HTTP server, on the
 * model of the live reading socket (./live-socket.ts): answered only on its path, only with the
 * `timbre-assistant` protocol offered and valid credentials in a second offered protocol
 * (`xi-api-key.<key>` or `bearer.<session token>`, never cookies, so another site's page cannot
 * call as the user); a refused upgrade gets a plain HTTP answer in the API's error shape.
 */
export interface AssistantSocket {
  close(): void;
}

function refuseUpgrade(socket: Duplex, status: number, reason: string, code: string, message: string): void {
  const body = JSON.stringify({ detail: { status: code, message } });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

export function attachAssistant(server: Server, ctx: AppContext): AssistantSocket {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: ASSISTANT.maxMessageBytes,
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has(ASSISTANT.subprotocol) ? ASSISTANT.subprotocol : false),
  });
  const registry = new AssistantRegistry();

  const onUpgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    let path: string;
    try {
      path = new URL(req.url ?? "/", "http://local").pathname;
    } catch {
      return; // the live reading socket answers malformed URLs
    }
    if (path !== ASSISTANT.path) return;
    socket.on("error", () => socket.destroy());
    const offered = (req.headers["sec-websocket-protocol"] ?? "").split(",").map((p) => p.trim()).filter(Boolean);
    const admitted = await admitAssistant(ctx, offered, req.socket.remoteAddress ?? "");
    if ("status" in admitted) return refuseUpgrade(socket, admitted.status, admitted.reason, admitted.code, admitted.message);
    if (socket.destroyed) return;
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, admitted.caller));
  };

  const serve = (ws: WebSocket, caller: Caller) => {
    const workspaceId = caller.workspaceId;
    if (!registry.enter(workspaceId)) {
      ws.close(ASSISTANT_CLOSE.tryAgainLater, assistantMessages.tooManySessions);
      return;
    }
    const conn = new AssistantConnection(ctx, caller, {
      send: (m) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
      },
      close: (code, reason) => ws.close(code, reason),
    });
    const idle = setTimeout(() => conn.close(ASSISTANT_CLOSE.policy, assistantMessages.idle), ASSISTANT.idleMs);
    ws.on("message", (data, isBinary) => {
      idle.refresh();
      if (isBinary) return conn.close(ASSISTANT_CLOSE.unsupportedData, assistantMessages.binary);
      void conn.message(Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.concat(data as Buffer[]).toString("utf8"));
    });
    ws.on("error", () => ws.terminate());
    ws.once("close", () => {
      clearTimeout(idle);
      registry.leave(workspaceId);
      conn.closedByPeer();
    });
    conn.start().catch((e: unknown) => {
      ctx.log.warn("assistant call did not start", { error: e });
      conn.close(ASSISTANT_CLOSE.policy, assistantMessages.somethingWrong);
    });
  };

  const listener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void onUpgrade(req, socket, head);
  server.on("upgrade", listener);
  return {
    close() {
      server.off("upgrade", listener);
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}
