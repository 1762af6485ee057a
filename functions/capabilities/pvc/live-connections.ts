import { ApiGatewayManagementApiClient, DeleteConnectionCommand, PostToConnectionCommand } from "@aws-sdk/client-apigatewaymanagementapi";
import type { LiveServerMessage } from "../../platform/contract/pvcRecorder.js";

const gone = (e: unknown) => (e as { name?: string })?.name === "GoneException";

/**
 * LiveConnections over API Gateway's @connections API (https://{api}.execute-api.{region}.amazonaws.com/{stage}).
 * A connection that has gone is not an error: the client left, and $disconnect cleans up.
 * Also the support assistant's socket on AWS (its own messages: `M`).
 */
export function apiGatewayConnections<M = LiveServerMessage>(endpoint: string, region: string): { post(connectionId: string, message: M): Promise<boolean>; close(connectionId: string): Promise<void> } {
  const client = new ApiGatewayManagementApiClient({ endpoint, region });
  return {
    async post(connectionId, message) {
      try {
        await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(JSON.stringify(message)) }));
        return true;
      } catch (e) {
        if (gone(e)) return false;
        throw e;
      }
    },
    async close(connectionId) {
      try {
        await client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
      } catch (e) {
        if (!gone(e)) throw e;
      }
    },
  };
}
