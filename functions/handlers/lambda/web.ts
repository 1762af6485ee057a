import { createRequestHandler, type ServerBuild } from "@remix-run/node";
// Resolved by esbuild to build/web/server/index.js, or to ./web-build-missing.ts when there is none.
import * as build from "timbre-web-server-build";
import { ConfigError } from "../../platform/config.js";
import { awslambda } from "../../platform/http/lambda.js";
import { createWebStreamingHandler, type WebLoadContext } from "../web.js";
import { bootContext, fromEdge } from "./boot.js";

/** The Remix app on AWS: a Function URL in RESPONSE_STREAM mode. */
const { ctx, edgeSecret } = await bootContext({ sessionSecret: "required" });
const apiBase = ctx.config.apiInternalUrl;
if (!apiBase) throw new ConfigError("Invalid configuration: API_INTERNAL_URL: required for the web function");

type Remix = (request: Request, loadContext: WebLoadContext) => Promise<Response>;

function remixHandler(): Remix {
  // Read through a plain record: the real build has no such export, and esbuild would warn.
  const exports: Record<string, unknown> = build;
  const missing = exports.missingWebBuild;
  if (typeof missing === "string") {
    ctx.log.error("web build missing", { detail: missing });
    return async () => new Response(missing, { status: 503, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const handle = createRequestHandler(exports as unknown as ServerBuild, "production");
  return (request, loadContext) => handle(request, { ...loadContext });
}

const web = createWebStreamingHandler(ctx, remixHandler(), apiBase);

export const handler = awslambda().streamifyResponse((event, responseStream, context) => web(fromEdge(event, edgeSecret), responseStream, context));
