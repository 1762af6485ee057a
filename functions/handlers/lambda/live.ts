import { apiGatewayConnections } from "../../capabilities/pvc/live-connections.js";
import type { LiveConnections } from "../../capabilities/pvc/live-sessions.js";
import { createLiveHandler, type WebSocketEvent, type WebSocketResult } from "../live.js";
import { bootContext } from "./boot.js";

/**
 * The live reading websocket on AWS: $connect, $disconnect and $default of the WebSocket API.
 * Replies go back through the API's own @connections endpoint, learnt from the first event.
 */
const { ctx } = await bootContext({ sessionSecret: "required" });

type Handler = (event: WebSocketEvent) => Promise<WebSocketResult>;
let handle: Handler | undefined;

export const handler = (event: WebSocketEvent & { requestContext: { domainName: string; stage: string } }): Promise<WebSocketResult> => {
  if (!handle) {
    const { domainName, stage } = event.requestContext;
    const connections: LiveConnections = apiGatewayConnections(`https://${domainName}/${stage}`, ctx.config.aws.region);
    handle = createLiveHandler(ctx, connections);
  }
  return handle(event);
};
