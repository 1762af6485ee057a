import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import type { AppContext } from "../../functions/platform/context.js";
import { LIVE_CLOSE, LIVE_READING, liveMessages } from "../../functions/platform/contract/pvcRecorder.js";
import { admitLiveReading, LiveReadingConnection, LiveReadingRegistry } from "../../functions/capabilities/pvc/live-reading.js";

/**
 * The live reading websocket in embedded mode, on the product's one HTTP server (what an API
 * Gateway WebSocket API does on AWS). The upgrade is answered only on the stream-input path,
 * only with the `pvc-stt` protocol offered and only with valid credentials in a second offered
 * protocol (`xi-api-key.<key>` or `bearer.<session token>`): a refused upgrade gets a plain HTTP
 * answer in the API's error shape and never becomes a websocket. Credentials are not cookies, so
 * another site's page cannot open a session as the user. The selected protocol echoed back is
 * `pvc-stt`, never the credential.
 */
export interface LiveSocket {
  close(): void;
}

function refuseUpgrade(socket: Duplex, status: number, reason: string, code: string, message: string): void {
  const body = JSON.stringify({ detail: { status: code, message } });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/** `otherPaths`: websockets another listener on this server answers (the support assistant's). */
export function attachLiveReading(server: Server, ctx: AppContext, otherPaths: readonly string[] = []): LiveSocket {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: LIVE_READING.maxMessageBytes,
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has(LIVE_READING.subprotocol) ? LIVE_READING.subprotocol : false),
  });
  const registry = new LiveReadingRegistry();

  const onUpgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    let path: string;
    try {
      path = new URL(req.url ?? "/", "http://local").pathname;
    } catch {
      return refuseUpgrade(socket, 400, "Bad Request", "bad_request", "The request URL is malformed.");
    }
    if (otherPaths.includes(path)) return;
    if (path !== LIVE_READING.path) return refuseUpgrade(socket, 404, "Not Found", "not_found", "No websocket is served on this path.");
    const offered = (req.headers["sec-websocket-protocol"] ?? "").split(",").map((p) => p.trim()).filter(Boolean);
    const admitted = await admitLiveReading(ctx, offered, req.socket.remoteAddress ?? "");
    if ("status" in admitted) return refuseUpgrade(socket, admitted.status, admitted.reason, admitted.code, admitted.message);
    const { workspaceId } = admitted;
    if (socket.destroyed) return;
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, workspaceId));
  };

  const serve = (ws: WebSocket, workspaceId: string) => {
    if (!registry.enter(workspaceId)) {
      ws.close(LIVE_CLOSE.tryAgainLater, liveMessages.tooManySessions);
      return;
    }
    const conn = new LiveReadingConnection(ctx, {
      send: (m) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
      },
      close: (code, reason) => ws.close(code, reason),
    });
    let pingId = 0;
    const ping = setInterval(() => conn.ping(++pingId), LIVE_READING.pingMs);
    const idle = setTimeout(() => conn.close(LIVE_CLOSE.policy, liveMessages.idle), LIVE_READING.idleMs);
    ws.on("message", (data, isBinary) => {
      idle.refresh();
      if (isBinary) return conn.close(LIVE_CLOSE.unsupportedData, liveMessages.binary);
      void conn.message(Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.concat(data as Buffer[]).toString("utf8"));
    });
    ws.on("error", () => ws.terminate());
    ws.once("close", () => {
      clearInterval(ping);
      clearTimeout(idle);
      registry.leave(workspaceId);
      conn.closedByPeer();
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
