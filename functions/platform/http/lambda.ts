import { randomUUID } from "node:crypto";
import type { Writable } from "node:stream";
import type { ApiRequest, ApiResponse, Method } from "./types.js";

/** The Lambda Function URL event (payload format 2.0), the shape both AWS and the local front produce. */
export interface FunctionUrlEvent {
  version: "2.0";
  rawPath: string;
  rawQueryString: string;
  cookies?: string[];
  headers: Record<string, string | undefined>;
  requestContext: {
    requestId: string;
    timeEpoch: number;
    domainName?: string;
    http: { method: string; path: string; sourceIp: string; userAgent?: string; protocol?: string };
  };
  body?: string;
  isBase64Encoded: boolean;
}

export interface LambdaContext {
  awsRequestId: string;
  getRemainingTimeInMillis?: () => number;
}

/** What `awslambda.HttpResponseStream.from` accepts. */
export interface StreamMetadata {
  statusCode: number;
  headers: Record<string, string>;
  cookies?: string[];
}

export type ResponseStream = Writable;
export type StreamingHandler = (event: FunctionUrlEvent, responseStream: ResponseStream, context: LambdaContext) => Promise<void>;

/** The runtime global that AWS provides to Node.js functions (and the local front emulates). */
export interface AwsLambdaGlobal {
  streamifyResponse(handler: StreamingHandler): StreamingHandler;
  HttpResponseStream: { from(stream: ResponseStream, metadata: StreamMetadata): ResponseStream };
}

export function awslambda(): AwsLambdaGlobal {
  const g = (globalThis as { awslambda?: AwsLambdaGlobal }).awslambda;
  if (!g?.HttpResponseStream) throw new Error("awslambda runtime global is missing: install the local shim before loading handlers");
  return g;
}

/**
 * The local front hands the request body over as it read it (the socket's pieces, or one Buffer,
 * under this symbol) instead of base64 in `body`, saving two copies of up to 60 MB per upload;
 * on AWS the field is absent.
 */
export const RAW_BODY = Symbol.for("timbre.rawBody");

/** The event's body bytes, wherever the transport put them: one Buffer, or the pieces as they arrived. */
export function eventBody(event: FunctionUrlEvent): Buffer | Buffer[] {
  const raw = (event as { [RAW_BODY]?: Buffer | Buffer[] })[RAW_BODY];
  if (raw) return Array.isArray(raw) && raw.length === 1 ? raw[0] : raw;
  return event.body ? Buffer.from(event.body, event.isBase64Encoded ? "base64" : "utf8") : Buffer.alloc(0);
}

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);

export function eventToRequest(event: FunctionUrlEvent): ApiRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(event.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
  if (event.cookies?.length && !headers.cookie) headers.cookie = event.cookies.join("; ");
  const method = event.requestContext.http.method.toUpperCase();
  const body = eventBody(event);
  const clientId = headers["x-request-id"];
  const req: ApiRequest = {
    method: (METHODS.has(method) ? method : "GET") as Method,
    path: event.rawPath || "/",
    query: new URLSearchParams(event.rawQueryString ?? ""),
    headers,
    body: Array.isArray(body) ? Buffer.alloc(0) : body,
    // Ours, always: a client's id is echoed for tracing but never keys anything (charges above all).
    requestId: event.requestContext.requestId || newRequestId(),
    clientRequestId: clientId && /^[\w.:-]{1,128}$/.test(clientId) ? clientId : undefined,
    sourceIp: event.requestContext.http.sourceIp,
    receivedAt: event.requestContext.timeEpoch || Date.now(),
    params: {},
  };
  if (Array.isArray(body)) {
    // Joined only if a handler reads `body`: a multipart upload is parsed from the pieces.
    let joined: Buffer | undefined;
    Object.defineProperty(req, "body", { get: () => (joined ??= Buffer.concat(body)), enumerable: true, configurable: true });
    req.bodyChunks = body;
  }
  return req;
}

/** The client closed the connection mid-response: normal for streams, not a server error. */
export class ClientGoneError extends Error {
  override name = "ClientGoneError";
  constructor() {
    super("client went away");
  }
}

/** Writes a chunk, waiting when the stream is full; a client that went away ends the wait with an error. */
function write(stream: Writable, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.destroyed) return reject(new ClientGoneError());
    const ok = stream.write(chunk, (err) => (err ? reject(err) : undefined));
    if (ok) return resolve();
    const done = (err?: unknown) => {
      stream.off("drain", done);
      stream.off("close", gone);
      stream.off("error", done);
      if (err) reject(err);
      else resolve();
    };
    const gone = () => done(new ClientGoneError());
    stream.once("drain", done);
    stream.once("close", gone);
    stream.once("error", done);
  });
}

function end(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableEnded) return resolve();
    stream.end(resolve);
  });
}

/** Writes an ApiResponse to a Lambda response stream: prelude first, then the body, streamed when it is a stream. */
export async function writeResponse(responseStream: ResponseStream, res: ApiResponse): Promise<void> {
  const out = awslambda().HttpResponseStream.from(responseStream, {
    statusCode: res.status,
    headers: res.headers,
    cookies: res.cookies,
  });
  const body = res.body;
  try {
    await writeBody(out, body);
  } catch (e) {
    if (!(e instanceof ClientGoneError)) throw e;
  } finally {
    await end(out);
  }
}

async function writeBody(out: Writable, body: ApiResponse["body"]): Promise<void> {
  if (body.kind === "json") await write(out, Buffer.from(JSON.stringify(body.value)));
  else if (body.kind === "bytes") {
    if (body.value.byteLength) await write(out, body.value);
  } else if (body.kind === "stream") {
    for await (const chunk of body.value as AsyncIterable<Uint8Array>) {
      if (chunk.byteLength) await write(out, chunk);
    }
  }
}

export function newRequestId(): string {
  return randomUUID().replace(/-/g, "");
}
