import { createApiStreamingHandler } from "../api.js";
import { awslambda } from "../../platform/http/lambda.js";
import { bootContext, fromEdge } from "./boot.js";

/** /v1 and /v2 on AWS: a Function URL in RESPONSE_STREAM mode. */
const { ctx, edgeSecret } = await bootContext({ sessionSecret: "required" });
const api = createApiStreamingHandler(ctx);
// The engine warms during INIT (compiling eSpeak, starting its workers), where Lambda gives the
// container a full burst of CPU, so no request pays for it. A failure is retried on first use.
await ctx
  .engine()
  .then((e) => e.warm())
  .catch((e: unknown) => ctx.log.error("speech engine failed to warm during INIT", { error: e }));

export const handler = awslambda().streamifyResponse((event, responseStream, context) => api(fromEdge(event, edgeSecret), responseStream, context));
