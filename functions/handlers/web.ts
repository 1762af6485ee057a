import { randomBytes } from "node:crypto";
import type { AppContext } from "../platform/context.js";
import type { FunctionUrlEvent, StreamingHandler, ResponseStream } from "../platform/http/lambda.js";
import { awslambda, eventBody } from "../platform/http/lambda.js";
import { internalProof } from "../platform/domain/internal.js";
import { resolveFlags } from "../platform/domain/flags.js";
import { pageContentSecurityPolicy, RESOURCE_CONTENT_SECURITY_POLICY } from "../platform/http/security-headers.js";

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
  /** This response's Content-Security-Policy nonce (entry.server.tsx puts it on inline scripts). */
  cspNonce: string;
  /** The live reading websocket's URL when it is not on this origin (AWS), for the recorder. */
  liveReadingUrl: string | undefined;
  /** The support assistant's websocket URL when it is not on this origin (AWS), for the call card. */
  assistantUrl: string | undefined;
  /** The server transcribes recorded speech for the assistant (ASSISTANT_TRANSCRIPTION_URL): the call card offers its microphone. */
  speechInput: boolean;
  /** How often the PVC recorder backs up a recording in progress (PVC_RECORDING_BACKUP_SECONDS). */
  recordingBackupMs: number;
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
  const raw = method !== "GET" && method !== "HEAD" ? eventBody(event) : undefined;
  const bytes = Array.isArray(raw) ? Buffer.concat(raw) : raw;
  // Node Buffers are always ArrayBuffer-backed here; the DOM typings only lack the proof.
  const body = bytes?.length ? (bytes as Uint8Array<ArrayBuffer>) : undefined;
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

function headersWritable(r: Response): boolean {
  try {
    r.headers.set("x-content-type-options", "nosniff");
    return true;
  } catch {
    return false; // Response.redirect() and fetched responses have immutable headers
  }
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data", "application/json", "text/plain"];

/**
 * Form posts from another site, and bodies no form sends, are refused before Remix reads them:
 * otherwise parsing them fails inside an action (a 500 with a stack trace) instead of saying why.
 */
export function refuseUnsafeRequest(request: Request): Response | undefined {
  if (!UNSAFE.has(request.method)) return undefined;
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  if ((origin !== null && origin !== new URL(request.url).origin) || site === "cross-site") {
    return new Response("Forbidden: this form was sent from another site.", { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const hasBody = request.headers.get("content-length") !== "0" && request.body !== null;
  if (hasBody && type && !FORM_TYPES.includes(type)) {
    return new Response(`Unsupported Media Type: ${type.slice(0, 80)}`, { status: 415, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  if (hasBody && !type) return new Response("Unsupported Media Type: a body needs a Content-Type.", { status: 415, headers: { "content-type": "text/plain; charset=utf-8" } });
  return undefined;
}

/** The web app's Lambda handler body: Function URL event -> Remix -> streamed response. */
export function createWebStreamingHandler(ctx: AppContext, remix: RemixHandler, apiBase: string): StreamingHandler {
  const proof = internalProof(ctx.secrets.session);
  const defaultFlags = resolveFlags(ctx.config.featureFlags);
  const liveReadingUrl = ctx.config.liveReadingUrl;
  const assistantUrl = ctx.config.assistantSocketUrl;
  const connect = [...new Set([liveReadingUrl, assistantUrl].filter((u): u is string => Boolean(u)).map((u) => new URL(u).origin))];
  return async (event, responseStream) => {
    const request = eventToFetchRequest(event);
    const nonce = randomBytes(16).toString("base64");
    const loadContext: WebLoadContext = {
      apiBase,
      sessionSecret: ctx.secrets.session,
      internalProof: proof,
      clientIp: event.requestContext.http.sourceIp,
      secureCookies: ctx.config.secureCookies,
      signupEnabled: ctx.config.signupEnabled,
      defaultFlags,
      cspNonce: nonce,
      liveReadingUrl,
      assistantUrl,
      speechInput: ctx.config.assistant.transcription !== undefined,
      recordingBackupMs: ctx.config.recordingBackupMs,
    };
    let response: Response;
    const refused = refuseUnsafeRequest(request);
    if (refused) response = refused;
    else {
      try {
        response = await remix(request, loadContext);
      } catch (e) {
        ctx.log.error("web handler failed", { error: e });
        response = new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } });
      }
    }
    // Pages get a policy with this response's nonce; anything else may not run at all.
    if (!headersWritable(response)) response = new Response(response.body, response);
    response.headers.set("content-security-policy", (response.headers.get("content-type") ?? "").startsWith("text/html") ? pageContentSecurityPolicy(nonce, connect) : RESOURCE_CONTENT_SECURITY_POLICY);
    await pipeResponse(response, responseStream);
  };
}
