import type { AppContext } from "../platform/context.js";
import { LIVE_READING } from "../platform/contract/pvcRecorder.js";
import { LiveSessions, type LiveConnections } from "../capabilities/pvc/live-sessions.js";
import { webSocketHandler, type WebSocketEvent, type WebSocketResult } from "./websocket.js";

export type { WebSocketEvent, WebSocketResult } from "./websocket.js";

/** The live reading websocket on AWS: API Gateway's WebSocket API calls this for $connect, $disconnect and every message. */
export function createLiveHandler(ctx: AppContext, connections: LiveConnections): (event: WebSocketEvent) => Promise<WebSocketResult> {
  return webSocketHandler(new LiveSessions(ctx, connections), LIVE_READING.subprotocol);
}
