import { apiGatewayConnections } from "../../capabilities/pvc/live-connections.js";
import { createLiveHandler } from "../live.js";
import { bootContext } from "./boot.js";
import { onApiGatewaySocket } from "./websocket.js";

/**
 * The live reading websocket on AWS: $connect, $disconnect and $default of the WebSocket API.
 * Replies go back through the API's own @connections endpoint, learnt from the first event.
 */
const { ctx } = await bootContext({ sessionSecret: "required" });

export const handler = onApiGatewaySocket((endpoint) => createLiveHandler(ctx, apiGatewayConnections(endpoint, ctx.config.aws.region)));
