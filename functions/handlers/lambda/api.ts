import { createApiStreamingHandler } from "../api.js";
import { awslambda } from "../../http/lambda.js";
import { bootContext, fromEdge } from "./boot.js";

/** /v1 and /v2 on AWS: a Function URL in RESPONSE_STREAM mode. */
const { ctx, edgeSecret } = await bootContext({ sessionSecret: "required" });
const api = createApiStreamingHandler(ctx);

export const handler = awslambda().streamifyResponse((event, responseStream, context) => api(fromEdge(event, edgeSecret), responseStream, context));
