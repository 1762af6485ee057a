import type { AppContext } from "../platform/context.js";
import { ASSISTANT } from "../platform/contract/assistant.js";
import { AssistantCallsOnAws, type AssistantConnections } from "../capabilities/assistant/aws-calls.js";
import type { WebSocketEvent, WebSocketResult } from "./live.js";

/**
 * The support assistant's websocket on AWS: API Gateway's WebSocket API calls this for $connect,
 * $disconnect and every message ($default). Thin: it reads the event and hands it to AssistantCallsOnAws.
 */
const PROTOCOL_HEADER = "sec-websocket-protocol";

export function createAssistantHandler(ctx: AppContext, connections: AssistantConnections): (event: WebSocketEvent) => Promise<WebSocketResult> {
  const calls = new AssistantCallsOnAws(ctx, connections);
  return async (event): Promise<WebSocketResult> => {
    const { routeKey, connectionId, requestTimeEpoch, identity } = event.requestContext;
    if (routeKey === "$connect") {
      const header = Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === PROTOCOL_HEADER)?.[1] ?? "";
      const offered = header.split(",").map((p) => p.trim()).filter(Boolean);
      const r = await calls.connect(connectionId, offered, identity?.sourceIp ?? "", requestTimeEpoch);
      if ("status" in r) {
        return { statusCode: r.status, headers: { "content-type": "application/json" }, body: JSON.stringify({ detail: { status: r.code, message: r.message } }) };
      }
      // The selected protocol is timbre-assistant, never the credential offered beside it.
      return { statusCode: 200, headers: { "Sec-WebSocket-Protocol": ASSISTANT.subprotocol } };
    }
    if (routeKey === "$disconnect") {
      await calls.disconnect(connectionId);
      return { statusCode: 200 };
    }
    await calls.message(connectionId, event.body ?? "", event.isBase64Encoded === true, requestTimeEpoch);
    return { statusCode: 200 };
  };
}
