import type { WebSocketEvent, WebSocketResult } from "../websocket.js";

type Handler = (event: WebSocketEvent) => Promise<WebSocketResult>;

/**
 * A WebSocket API's Lambda entry: the handler is made on the first event, when the API's own
 * @connections endpoint (https://{domainName}/{stage}) is known, and kept for the container's life.
 */
export function onApiGatewaySocket(make: (connectionsEndpoint: string) => Handler) {
  let handle: Handler | undefined;
  return (event: WebSocketEvent & { requestContext: { domainName: string; stage: string } }): Promise<WebSocketResult> => {
    const { domainName, stage } = event.requestContext;
    handle ??= make(`https://${domainName}/${stage}`);
    return handle(event);
  };
}
