import type { AppContext } from "../context.js";
import type { FunctionUrlEvent, StreamingHandler, ResponseStream } from "../http/lambda.js";
import { awslambda } from "../http/lambda.js";
import { internalProof } from "../domain/internal.js";
import { resolveFlags } from "../domain/flags.js";

/** What Remix loaders and actions receive as `context`. */
export interface WebLoadContext {
  /** Base URL of /v1 as seen from the web server. */
  apiBase: string;
  sessionSecret: string;
  /** Proves to /v1 that a call comes from the web server (so X-Forwarded-For is trusted). */
  internalProof: string;
  clientIp: string;
  secureCookies: boolean;
  signupEnabled: boolean;
  /** Flags before workspace overrides (the shell reads the resolved ones from /v1/workspace). */
  defaultFlags: Record<string, boolean>;
}

type RemixHandler = (request: Request, loadContext: WebLoadContext) => Promise<Response>;

export function eventToFetchRequest(event: FunctionUrlEvent): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(event.headers)) if (v !== undefined) headers.set(k, v);
  if (event.cookies?.length) headers.set("cookie", event.cookies.join("; "));
  const host = headers.get("x-forwarded-host") ?? headers.get("host") ?? event.requestContext.domainName ?? "localhost";
  const proto = headers.get("x-forwarded-proto") ?? "http";
  const url = `${proto}://${host}${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ""}`;
  const method = event.requestContext.http.method.toUpperCase();
  const body = event.body && method !== "GET" && method !== "HEAD" ? Buffer.from(event.body, event.isBase64Encoded ? "base64" : "utf8") : undefined;
  return new Request(url, { method, headers, body });
}

/** Resolves when the stream can take more, or is gone (a client that left never drains). */
function drained(out: ResponseStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off("drain", done);
      out.off("close", done);
      out.off("error", done);
      resolve();
    };
    out.once("drain", done);
    out.once("close", done);
    out.once("error", done);
  });
}

async function pipeResponse(response: Response, responseStream: ResponseStream): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    if (k !== "set-cookie") headers[k] = v;
  });
  const cookies = response.headers.getSetCookie();
  const out = awslambda().HttpResponseStream.from(responseStream, { statusCode: response.status, headers, cookies });
  try {
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (out.destroyed) {
          await reader.cancel().catch(() => undefined);
          break;
        }
        if (value?.byteLength && !out.write(value)) await drained(out);
      }
    }
  } finally {
    await new Promise<void>((r) => out.end(r));
  }
}

/** The web app's Lambda handler body: Function URL event -> Remix -> streamed response. */
export function createWebStreamingHandler(ctx: AppContext, remix: RemixHandler, apiBase: string): StreamingHandler {
  const proof = internalProof(ctx.secrets.session);
  const defaultFlags = resolveFlags(ctx.config.featureFlags);
  return async (event, responseStream) => {
    const request = eventToFetchRequest(event);
    const loadContext: WebLoadContext = {
      apiBase,
      sessionSecret: ctx.secrets.session,
      internalProof: proof,
      clientIp: event.requestContext.http.sourceIp,
      secureCookies: ctx.config.secureCookies,
      signupEnabled: ctx.config.signupEnabled,
      defaultFlags,
    };
    let response: Response;
    try {
      response = await remix(request, loadContext);
    } catch (e) {
      ctx.log.error("web handler failed", { error: e });
      response = new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } });
    }
    await pipeResponse(response, responseStream);
  };
}
