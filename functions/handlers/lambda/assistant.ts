import { apiGatewayConnections } from "../../capabilities/pvc/live-connections.js";
import type { AssistantServerMessage } from "../../platform/contract/assistant.js";
import { createAssistantHandler } from "../assistant.js";
import type { WebSocketEvent, WebSocketResult } from "../live.js";
import { bootContext } from "./boot.js";

/**
 * The support assistant's websocket on AWS: $connect, $disconnect and $default of its WebSocket API.
 * Replies go back through the API's own @connections endpoint, learnt from the first event.
 */
const { ctx } = await bootContext({ sessionSecret: "required" });

type Handler = (event: WebSocketEvent) => Promise<WebSocketResult>;
let handle: Handler | undefined;

export const handler = (event: WebSocketEvent & { requestContext: { domainName: string; stage: string } }): Promise<WebSocketResult> => {
  if (!handle) {
    const { domainName, stage } = event.requestContext;
    handle = createAssistantHandler(ctx, apiGatewayConnections<AssistantServerMessage>(`https://${domainName}/${stage}`, ctx.config.aws.region));
  }
  return handle(event);
};
