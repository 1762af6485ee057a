import type { AppContext } from "../platform/context.js";
import { registerRoutes } from "./routes.js";
import { createApiHandler, type ApiHandler } from "../platform/http/app.js";
import { eventToRequest, writeResponse, type StreamingHandler } from "../platform/http/lambda.js";

export function createApi(ctx: AppContext): ApiHandler {
  return createApiHandler(ctx, registerRoutes);
}

/** The /v1 + /v2 Lambda handler body (streaming): the same function on AWS and in the embedded stack. */
export function createApiStreamingHandler(ctx: AppContext): StreamingHandler {
  const api = createApi(ctx);
  return async (event, responseStream) => {
    const req = eventToRequest(event);
    // A client that leaves before its answer is written: a generation for it stops (and a whole
    // answer it never got is not charged).
    const gone = new AbortController();
    const onClose = () => {
      if (!responseStream.writableFinished) gone.abort();
    };
    responseStream.once("close", onClose);
    req.signal = gone.signal;
    try {
      const res = await api(req);
      await writeResponse(responseStream, res);
    } finally {
      responseStream.off("close", onClose);
    }
  };
}
