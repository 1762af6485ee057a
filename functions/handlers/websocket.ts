/**
 * API Gateway WebSocket APIs on AWS (the live reading and the support assistant): $connect,
 * $disconnect and every message ($default) of one API go to one Lambda. Thin: the event is read
 * and handed to the capability's sessions, which answer the handshake with a refusal or accept it.
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

/** What a capability's websocket sessions offer the handler. */
export interface WebSocketSessions {
  connect(connectionId: string, offered: readonly string[], sourceIp: string, now: number): Promise<{ workspaceId: string } | { status: number; code: string; message: string }>;
  disconnect(connectionId: string): Promise<void>;
  message(connectionId: string, body: string, binary: boolean, receivedAt: number): Promise<void>;
}

const PROTOCOL_HEADER = "sec-websocket-protocol";

export function webSocketHandler(sessions: WebSocketSessions, subprotocol: string): (event: WebSocketEvent) => Promise<WebSocketResult> {
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
      // The selected protocol is the API's own, never the credential the client offered beside it.
      return { statusCode: 200, headers: { "Sec-WebSocket-Protocol": subprotocol } };
    }
    if (routeKey === "$disconnect") {
      await sessions.disconnect(connectionId);
      return { statusCode: 200 };
    }
    await sessions.message(connectionId, event.body ?? "", event.isBase64Encoded === true, requestTimeEpoch);
    return { statusCode: 200 };
  };
}
