import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import type { AppContext } from "../../functions/context.js";
import { authenticateRequest } from "../../functions/http/auth.js";
import { eventToRequest, newRequestId } from "../../functions/http/lambda.js";
import { ApiError } from "../../functions/http/errors.js";
import { LIVE_CLOSE, LIVE_READING, credentialFromProtocols, liveMessages } from "../../functions/contract/pvcRecorder.js";
import { LiveReadingConnection, LiveReadingRegistry } from "../../functions/pvc/live-reading.js";

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

export function attachLiveReading(server: Server, ctx: AppContext): LiveSocket {
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
    if (path !== LIVE_READING.path) return refuseUpgrade(socket, 404, "Not Found", "not_found", "No websocket is served on this path.");
    const offered = (req.headers["sec-websocket-protocol"] ?? "").split(",").map((p) => p.trim()).filter(Boolean);
    if (!offered.includes(LIVE_READING.subprotocol)) {
      return refuseUpgrade(socket, 400, "Bad Request", "invalid_subprotocol", `Offer the ${LIVE_READING.subprotocol} subprotocol.`);
    }
    const credential = credentialFromProtocols(offered);
    const headers: Record<string, string> = {};
    if (credential.apiKey) headers["xi-api-key"] = credential.apiKey;
    if (credential.bearer) headers.authorization = `Bearer ${credential.bearer}`;
    let workspaceId: string;
    try {
      const probe = eventToRequest({
        version: "2.0",
        rawPath: path,
        rawQueryString: "",
        headers,
        requestContext: { requestId: newRequestId(), timeEpoch: Date.now(), http: { method: "GET", path, sourceIp: req.socket.remoteAddress ?? "" } },
        isBase64Encoded: false,
      });
      const caller = await authenticateRequest(ctx, probe);
      await caller.user();
      workspaceId = caller.workspaceId;
    } catch (e) {
      if (e instanceof ApiError) return refuseUpgrade(socket, 401, "Unauthorized", "invalid_api_key", e.message);
      ctx.log.error("live reading upgrade failed", { error: e });
      return refuseUpgrade(socket, 500, "Internal Server Error", "internal_error", "We are sorry, something went wrong.");
    }
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
