import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { createReadStream, existsSync, statSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";
import type { FunctionUrlEvent, StreamingHandler } from "../../functions/platform/http/lambda.js";
import { newRequestId, RAW_BODY } from "../../functions/platform/http/lambda.js";
import { clientAddress, isTrustedProxy, type TrustProxy } from "../../functions/platform/http/client-address.js";
import { HSTS, RESOURCE_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from "../../functions/platform/http/security-headers.js";
import { LocalResponseStream } from "./awslambda-shim.js";

/**
 * The embedded stack's one HTTP server. It does what CloudFront and the Function URLs do on
 * AWS: static assets from the web build, /v1 and /v2 to the API handler, the rest to the web
 * handler, each request turned into a Function URL event and answered through a response stream.
 *
 * It is also the first line of defence, since nothing stands in front of it on a laptop or a
 * small server: a body is read only after its size is known to be allowed and, beyond a small
 * anonymous allowance, after the caller's credentials check out; few large bodies are read at
 * once; slow senders time out; one address cannot hold every connection.
 */
export interface FrontLimits {
  /** Largest body read at all. */
  maxBodyBytes: number;
  /** Headers and body must arrive within this time. */
  requestTimeoutMs: number;
  maxConnectionsPerAddress: number;
  /** Bodies up to this size are read without credentials (sign-in and sign-up forms). */
  anonymousBodyBytes: number;
  /** Bodies over the anonymous allowance read at the same time, in all. */
  maxLargeBodies: number;
  /** The same, per client address. */
  maxLargeBodiesPerAddress: number;
  /** A body that sends nothing for this long is abandoned. */
  bodyIdleMs: number;
}

export const DEFAULT_FRONT_LIMITS: FrontLimits = {
  maxBodyBytes: 60 * 1024 * 1024,
  requestTimeoutMs: 120_000,
  maxConnectionsPerAddress: 64,
  anonymousBodyBytes: 64 * 1024,
  maxLargeBodies: 4,
  maxLargeBodiesPerAddress: 2,
  bodyIdleMs: 15_000,
};

export interface FrontOptions {
  api: StreamingHandler;
  web: StreamingHandler | undefined;
  staticDir: string | undefined;
  health: () => Promise<{ ok: boolean; components: Record<string, boolean> }>;
  /** True when the request carries valid credentials (an API key, a session token or cookie). */
  authorize: (req: IncomingMessage, isApi: boolean) => Promise<boolean>;
  limits?: Partial<FrontLimits>;
  trustProxy?: TrustProxy;
  /** Served over HTTPS: adds Strict-Transport-Security. */
  https?: boolean;
  onError: (e: unknown) => void;
  /** The /storage origin for presigned URLs (./storage-route.ts): checked and streamed by itself. */
  storage?: (req: IncomingMessage, res: ServerResponse, url: URL, clientAddress: string) => Promise<void>;
}

const MIME: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json",
  ".webm": "video/webm",
  ".vtt": "text/vtt; charset=utf-8",
  ".jpg": "image/jpeg",
};

const isApiPath = (p: string) => p.startsWith("/v1/") || p.startsWith("/v2/") || p === "/v1" || p === "/v2" || p.startsWith("/openai/v1/");

type Refusal = { status: number; code: string; message: string; headers?: Record<string, string> };

class BodyRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/** The body as it arrived, in pieces: nothing joins them unless a handler reads `req.body`. */
function readBody(req: IncomingMessage, limit: number, idleMs: number, refuseOver: () => Refusal): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err: Error | undefined, body?: Buffer[]) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off("data", onData);
      if (err) reject(err);
      else resolve(body!);
    };
    let timer = setTimeout(() => finish(new BodyRefused({ status: 408, code: "request_timeout", message: "The request body stopped arriving." })), idleMs);
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > limit) return finish(new BodyRefused(refuseOver()));
      chunks.push(c);
      timer.refresh();
    };
    req.on("data", onData);
    req.once("end", () => finish(undefined, chunks));
    // A client that goes away mid-body ("aborted") is not a server error.
    const gone = () => finish(new BodyRefused({ status: 400, code: "client_closed", message: "The client closed the request." }));
    req.once("error", gone);
    req.once("close", gone);
  });
}

function toEvent(req: IncomingMessage, url: URL, body: Buffer[], sourceIp: string): FunctionUrlEvent {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || k === "cookie") continue;
    headers[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  const cookies = req.headers.cookie ? req.headers.cookie.split(/;\s*/).filter(Boolean) : undefined;
  const event: FunctionUrlEvent = {
    version: "2.0",
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies,
    headers,
    requestContext: {
      requestId: newRequestId(),
      timeEpoch: Date.now(),
      domainName: req.headers.host,
      http: { method: req.method ?? "GET", path: url.pathname, sourceIp, userAgent: req.headers["user-agent"] },
    },
    body: undefined,
    isBase64Encoded: false,
  };
  // Handed over as read: no base64 copy (see RAW_BODY).
  if (body.some((c) => c.length)) Object.defineProperty(event, RAW_BODY, { value: body, enumerable: false });
  return event;
}

function serveStatic(dir: string, pathname: string, res: ServerResponse, range?: string): boolean {
  let rel: string;
  try {
    rel = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, "");
  } catch {
    return false;
  }
  const file = join(dir, rel);
  if (!file.startsWith(dir + sep) || !existsSync(file)) return false;
  const st = statSync(file);
  if (!st.isFile()) return false;
  const headers = {
    "content-type": MIME[extname(file)] ?? "application/octet-stream",
    "accept-ranges": "bytes",
    // Remix fingerprints everything under /assets.
    "cache-control": pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "public, max-age=300",
  };
  // One byte range (a video element seeking asks for them); anything else gets the whole file.
  const r = range ? byteRange(range, st.size) : undefined;
  if (r === null) {
    res.writeHead(416, { ...headers, "content-range": `bytes */${st.size}` });
    res.end();
    return true;
  }
  if (r) {
    res.writeHead(206, { ...headers, "content-length": r.end - r.start + 1, "content-range": `bytes ${r.start}-${r.end}/${st.size}` });
    createReadStream(file, { start: r.start, end: r.end }).pipe(res);
    return true;
  }
  res.writeHead(200, { ...headers, "content-length": st.size });
  createReadStream(file).pipe(res);
  return true;
}

/**
 * `Range: bytes=a-b`, `bytes=a-` or `bytes=-n` for a file of `size` bytes: the inclusive range, null
 * when it starts past the end (416), undefined for what is not one plain range (served whole).
 */
export function byteRange(header: string, size: number): { start: number; end: number } | null | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0) return null;
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return null;
  if (end < start) return undefined;
  return { start, end };
}

/** An answer in the API's error shape (the web gets the same JSON: these are transport errors). */
function refuse(res: ServerResponse, r: Refusal, close: boolean): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store", ...r.headers };
  if (close) headers.connection = "close";
  res.writeHead(r.status, headers);
  res.end(JSON.stringify({ detail: { status: r.code, message: r.message } }));
}

const mb = (n: number) => `${Math.round(n / 1048576)} MB`;

/** Counts things per client address, to cap them. */
class PerAddress {
  private readonly counts = new Map<string, number>();
  get(a: string): number {
    return this.counts.get(a) ?? 0;
  }
  add(a: string): void {
    this.counts.set(a, this.get(a) + 1);
  }
  remove(a: string): void {
    const n = this.get(a) - 1;
    if (n > 0) this.counts.set(a, n);
    else this.counts.delete(a);
  }
}

export interface Front {
  listener: RequestListener;
  /** Sets the server's timeouts and the per-address connection cap, and answers malformed requests. */
  attach(server: Server): void;
}

export function createFront(opts: FrontOptions): Front {
  const limits: FrontLimits = { ...DEFAULT_FRONT_LIMITS, ...opts.limits };
  const trust = opts.trustProxy ?? { kind: "none" };
  const baseHeaders: Record<string, string> = { ...STATIC_SECURITY_HEADERS, "content-security-policy": RESOURCE_CONTENT_SECURITY_POLICY };
  if (opts.https) baseHeaders["strict-transport-security"] = HSTS;
  let largeBodies = 0;
  const largePerAddress = new PerAddress();

  const tooLarge = (): Refusal => ({ status: 413, code: "payload_too_large", message: `Request body exceeds ${mb(limits.maxBodyBytes)}` });
  const anonymousTooLarge = (): Refusal => ({
    status: 413,
    code: "payload_too_large",
    message: `Request bodies over ${limits.anonymousBodyBytes / 1024} KB need valid credentials.`,
  });

  const listener: RequestListener = async (req, res) => {
    for (const [k, v] of Object.entries(baseHeaders)) res.setHeader(k, v);
    let heldLarge: string | undefined;
    try {
      let url: URL;
      try {
        url = new URL(req.url ?? "/", "http://local");
      } catch {
        return refuse(res, { status: 400, code: "bad_request", message: "The request URL is malformed." }, false);
      }
      const pathname = url.pathname;
      if (pathname === "/healthz") {
        const h = await opts.health();
        res.writeHead(h.ok ? 200 : 503, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify(h.ok ? { status: "ok" } : { status: "unavailable", components: h.components }));
        return;
      }
      if (opts.storage && pathname.startsWith("/storage/")) {
        const peer = req.socket.remoteAddress ?? "127.0.0.1";
        return await opts.storage(req, res, url, clientAddress(trust, peer, isTrustedProxy(trust, peer) ? (req.headers["x-forwarded-for"] as string | undefined) : undefined));
      }
      if ((req.method === "GET" || req.method === "HEAD") && opts.staticDir && !isApiPath(pathname) && pathname !== "/") {
        if (serveStatic(opts.staticDir, pathname, res, req.headers.range)) return;
      }
      const isApi = isApiPath(pathname);
      const handler = isApi ? opts.api : opts.web;
      const peer = req.socket.remoteAddress ?? "127.0.0.1";
      const sourceIp = clientAddress(trust, peer, isTrustedProxy(trust, peer) ? (req.headers["x-forwarded-for"] as string | undefined) : undefined);

      // The body: its size first, then who sends it, then a place among the large ones.
      const declared = req.headers["content-length"] !== undefined ? Number(req.headers["content-length"]) : undefined;
      const hasBody = declared !== undefined ? declared > 0 : req.headers["transfer-encoding"] !== undefined;
      let body: Buffer[] = [];
      if (hasBody) {
        if (declared !== undefined && (!Number.isFinite(declared) || declared > limits.maxBodyBytes)) return refuse(res, tooLarge(), true);
        const small = declared !== undefined && declared <= limits.anonymousBodyBytes;
        let limit = limits.maxBodyBytes;
        let over = tooLarge;
        if (!small) {
          if (!(await opts.authorize(req, isApi))) {
            if (declared !== undefined) return refuse(res, anonymousTooLarge(), true);
            // Chunked without credentials: read up to the anonymous allowance only.
            limit = limits.anonymousBodyBytes;
            over = anonymousTooLarge;
          } else {
            if (largeBodies >= limits.maxLargeBodies || largePerAddress.get(sourceIp) >= limits.maxLargeBodiesPerAddress) {
              return refuse(res, { status: 429, code: "too_many_uploads", message: "Too many uploads are in progress. Please retry in a moment.", headers: { "retry-after": "2" } }, true);
            }
            largeBodies++;
            largePerAddress.add(sourceIp);
            heldLarge = sourceIp;
          }
        }
        body = await readBody(req, limit, limits.bodyIdleMs, over);
        if (heldLarge !== undefined) {
          largeBodies--;
          largePerAddress.remove(heldLarge);
          heldLarge = undefined;
        }
      }

      if (!handler) {
        res.writeHead(503, { "content-type": "text/plain" });
        res.end("The web app is not built. Run `npm run build` (npm start does it for you).");
        return;
      }
      const event = toEvent(req, url, body, sourceIp);
      const stream = new LocalResponseStream(res);
      await handler(event, stream, { awsRequestId: event.requestContext.requestId });
      if (!stream.writableEnded) stream.end();
    } catch (e) {
      if (e instanceof BodyRefused) return refuse(res, e.refusal, true);
      // A client that left stops its work (a Stop button, a closed stream): not a server error.
      const clientLeft = (e as Error | undefined)?.name === "AbortError" && (req.destroyed || res.destroyed);
      if (!clientLeft) opts.onError(e);
      if (!res.headersSent) refuse(res, { status: 500, code: "internal_error", message: "We are sorry, something went wrong." }, false);
      else res.destroy();
    } finally {
      if (heldLarge !== undefined) {
        largeBodies--;
        largePerAddress.remove(heldLarge);
      }
    }
  };

  const connections = new PerAddress();
  return {
    listener,
    attach(server) {
      server.requestTimeout = limits.requestTimeoutMs;
      server.headersTimeout = Math.min(20_000, limits.requestTimeoutMs);
      server.keepAliveTimeout = 5_000;
      server.on("connection", (socket: Socket) => {
        const peer = socket.remoteAddress ?? "";
        if (isTrustedProxy(trust, peer)) return; // a proxy carries many clients; they are counted by it
        if (connections.get(peer) >= limits.maxConnectionsPerAddress) {
          socket.end("HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nconnection: close\r\nretry-after: 1\r\n\r\n" +
            JSON.stringify({ detail: { status: "too_many_connections", message: "Too many open connections from your address." } }));
          socket.destroySoon?.();
          return;
        }
        connections.add(peer);
        socket.once("close", () => connections.remove(peer));
      });
      // Node answers oversized headers (a 100 KB query string) and malformed requests with a
      // bare status line; give them the API's error shape instead.
      server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
        if (!socket.writable) return socket.destroy();
        const [status, code, message] =
          err.code === "HPE_HEADER_OVERFLOW"
            ? [431, "request_header_too_large", "The request line or headers are too large (the query string included)."]
            : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
              ? [408, "request_timeout", "The request took too long to arrive."]
              : [400, "bad_request", "The request is malformed."];
        const body = JSON.stringify({ detail: { status: code, message } });
        const reason = status === 431 ? "Request Header Fields Too Large" : status === 408 ? "Request Timeout" : "Bad Request";
        socket.end(
          `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
            `access-control-allow-origin: *\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n${body}`,
        );
      });
    },
  };
}
