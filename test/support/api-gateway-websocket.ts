import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import type { WebSocketEvent, WebSocketResult } from "../../functions/handlers/live.js";
import type { LiveConnections } from "../../functions/capabilities/pvc/live-sessions.js";

/**
 * A stand-in for API Gateway's WebSocket API on loopback (API Gateway itself cannot run here):
 * a handshake becomes a $connect event (refused with the handler's status, or accepted with the
 * subprotocol it selects), each frame a $default event, a close a $disconnect event; the handler
 * answers through the LiveConnections it is given. Like API Gateway, messages of one connection
 * are handed over as they arrive, without waiting for the previous invocation to finish.
 */
export interface ApiGatewayStandIn {
  /** ws://127.0.0.1:{port}/live */
  url: string;
  connections: LiveConnections;
  /** Set once the handler exists (it may need this stand-in's URL first). */
  bind(handler: (event: WebSocketEvent) => Promise<WebSocketResult>): void;
  /** What invocations threw (API Gateway logs these; a test can require none). */
  readonly failures: unknown[];
  /** Stops listening, then waits for every invocation under way. */
  close(): Promise<void>;
}

export async function startApiGatewayStandIn(): Promise<ApiGatewayStandIn> {
  let handler: ((event: WebSocketEvent) => Promise<WebSocketResult>) | undefined;
  // Invocations under way, so close() waits for them (a $disconnect still deleting its session's
  // objects when the stack closed failed as an unhandled rejection); a failed one is recorded, as
  // API Gateway would log it, not thrown into nowhere.
  const running = new Set<Promise<unknown>>();
  const failures: unknown[] = [];
  const handle = (e: WebSocketEvent): Promise<WebSocketResult> => {
    if (!handler) return Promise.resolve({ statusCode: 503 });
    const p: Promise<WebSocketResult> = handler(e)
      .catch((err: unknown) => {
        failures.push(err);
        return { statusCode: 500, body: "" };
      })
      .finally(() => running.delete(p));
    running.add(p);
    return p;
  };
  const sockets = new Map<string, WebSocket>();
  const selected = new Map<string, string>();
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    handleProtocols: (_offered, req) => selected.get((req as unknown as { connectionId: string }).connectionId) ?? false,
  });
  const server: Server = createServer((_req, res) => res.writeHead(426).end());
  const event = (routeKey: string, connectionId: string, extra: Partial<WebSocketEvent> = {}): WebSocketEvent => ({
    requestContext: { routeKey, connectionId, requestTimeEpoch: Date.now(), messageId: routeKey === "$default" ? randomBytes(8).toString("base64") : undefined, identity: { sourceIp: "127.0.0.1" } },
    ...extra,
  });
  server.on("upgrade", (req, socket, head) => {
    socket.on("error", () => socket.destroy());
    const connectionId = randomBytes(9).toString("base64");
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : v]));
    void (async () => {
      const r = await handle(event("$connect", connectionId, { headers }));
      if (r.statusCode !== 200) {
        socket.end(`HTTP/1.1 ${r.statusCode} Refused\r\ncontent-length: ${Buffer.byteLength(r.body ?? "")}\r\nconnection: close\r\n\r\n${r.body ?? ""}`);
        return;
      }
      const protocol = Object.entries(r.headers ?? {}).find(([k]) => k.toLowerCase() === "sec-websocket-protocol")?.[1];
      if (protocol) selected.set(connectionId, protocol);
      Object.assign(req, { connectionId });
      wss.handleUpgrade(req, socket, head, (ws) => {
        sockets.set(connectionId, ws);
        ws.on("message", (data, isBinary) => {
          const bytes = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
          void handle(event("$default", connectionId, { body: isBinary ? bytes.toString("base64") : bytes.toString("utf8"), isBase64Encoded: isBinary }));
        });
        ws.once("close", () => {
          sockets.delete(connectionId);
          selected.delete(connectionId);
          void handle(event("$disconnect", connectionId));
        });
      });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/live`,
    connections: {
      async post(connectionId, message) {
        const ws = sockets.get(connectionId);
        if (!ws || ws.readyState !== ws.OPEN) return false;
        ws.send(JSON.stringify(message));
        return true;
      },
      async close(connectionId) {
        // API Gateway closes with a code of its own, not the server's.
        sockets.get(connectionId)?.close(1001);
      },
    },
    failures,
    bind(h) {
      handler = h;
    },
    async close() {
      for (const ws of sockets.values()) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Terminating the sockets started their $disconnects: they finish before the stack goes.
      await new Promise((r) => setImmediate(r));
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}
