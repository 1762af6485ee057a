import type { AppContext } from "../context.js";
import { registerRoutes } from "../api/index.js";
import { createApiHandler, type ApiHandler } from "../http/app.js";
import { eventToRequest, writeResponse, type StreamingHandler } from "../http/lambda.js";

export function createApi(ctx: AppContext): ApiHandler {
  return createApiHandler(ctx, registerRoutes);
}

/** The /v1 + /v2 Lambda handler body (streaming): the same function on AWS and in the embedded stack. */
export function createApiStreamingHandler(ctx: AppContext): StreamingHandler {
  const api = createApi(ctx);
  return async (event, responseStream) => {
    const res = await api(eventToRequest(event));
    await writeResponse(responseStream, res);
  };
}
