import { apiGatewayConnections } from "../../capabilities/pvc/live-connections.js";
import type { AssistantServerMessage } from "../../platform/contract/assistant.js";
import { createAssistantHandler } from "../assistant.js";
import { bootContext } from "./boot.js";
import { onApiGatewaySocket } from "./websocket.js";

/**
 * The support assistant's websocket on AWS: $connect, $disconnect and $default of its WebSocket API.
 * Replies go back through the API's own @connections endpoint, learnt from the first event.
 */
const { ctx } = await bootContext({ sessionSecret: "required" });

export const handler = onApiGatewaySocket((endpoint) => createAssistantHandler(ctx, apiGatewayConnections<AssistantServerMessage>(endpoint, ctx.config.aws.region)));
