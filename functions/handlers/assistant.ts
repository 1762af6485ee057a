import type { AppContext } from "../platform/context.js";
import { ASSISTANT } from "../platform/contract/assistant.js";
import { AssistantCallsOnAws, type AssistantConnections } from "../capabilities/assistant/aws-calls.js";
import { webSocketHandler, type WebSocketEvent, type WebSocketResult } from "./websocket.js";

/** The support assistant's websocket on AWS: $connect, $disconnect and every message, handed to AssistantCallsOnAws. */
export function createAssistantHandler(ctx: AppContext, connections: AssistantConnections): (event: WebSocketEvent) => Promise<WebSocketResult> {
  return webSocketHandler(new AssistantCallsOnAws(ctx, connections), ASSISTANT.subprotocol);
}
