import { ApiGatewayManagementApiClient, DeleteConnectionCommand, PostToConnectionCommand } from "@aws-sdk/client-apigatewaymanagementapi";
import type { LiveConnections } from "./live-sessions.js";

const gone = (e: unknown) => (e as { name?: string })?.name === "GoneException";

/**
 * LiveConnections over API Gateway's @connections API (https://{api}.execute-api.{region}.amazonaws.com/{stage}).
 * A connection that has gone is not an error: the client left, and $disconnect cleans up.
 */
export function apiGatewayConnections(endpoint: string, region: string): LiveConnections {
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
