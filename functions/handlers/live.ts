import type { AppContext } from "../platform/context.js";
import { LIVE_READING } from "../platform/contract/pvcRecorder.js";
import { LiveSessions, type LiveConnections } from "../capabilities/pvc/live-sessions.js";

/**
 * The live reading websocket on AWS: API Gateway's WebSocket API calls this for $connect,
 * $disconnect and every message ($default). Thin: it reads the event and hands it to LiveSessions.
 */
export interface WebSocketEvent {
  requestContext: {
    routeKey: string;
    connectionId: string;
    /** Set on messages: unique per message (not used: chunks are numbered by the session). */
    messageId?: string;
    /** When API Gateway received the message or handshake (ms). */
    requestTimeEpoch: number;
    identity?: { sourceIp?: string };
  };
  headers?: Record<string, string | undefined>;
  body?: string | null;
  isBase64Encoded?: boolean;
}

export interface WebSocketResult {
  statusCode: number;
  headers?: Record<string, string>;
  body?: string;
}

const PROTOCOL_HEADER = "sec-websocket-protocol";

export function createLiveHandler(ctx: AppContext, connections: LiveConnections): (event: WebSocketEvent) => Promise<WebSocketResult> {
  const sessions = new LiveSessions(ctx, connections);
  return async (event): Promise<WebSocketResult> => {
    const { routeKey, connectionId, requestTimeEpoch, identity } = event.requestContext;
    if (routeKey === "$connect") {
      // Header names keep the client's case here.
      const header = Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === PROTOCOL_HEADER)?.[1] ?? "";
      const offered = header.split(",").map((p) => p.trim()).filter(Boolean);
      const r = await sessions.connect(connectionId, offered, identity?.sourceIp ?? "", requestTimeEpoch);
      if ("status" in r) {
        return { statusCode: r.status, headers: { "content-type": "application/json" }, body: JSON.stringify({ detail: { status: r.code, message: r.message } }) };
      }
      // The selected protocol is pvc-stt, never the credential the client offered beside it.
      return { statusCode: 200, headers: { "Sec-WebSocket-Protocol": LIVE_READING.subprotocol } };
    }
    if (routeKey === "$disconnect") {
      await sessions.disconnect(connectionId);
      return { statusCode: 200 };
    }
    await sessions.message(connectionId, event.body ?? "", event.isBase64Encoded === true, requestTimeEpoch);
    return { statusCode: 200 };
  };
}
