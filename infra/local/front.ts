import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { createReadStream, existsSync, statSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";
import type { FunctionUrlEvent, StreamingHandler } from "../../functions/http/lambda.js";
import { newRequestId } from "../../functions/http/lambda.js";
import { LocalResponseStream } from "./awslambda-shim.js";

/**
 * The embedded stack's one HTTP server. It does what CloudFront and the Function URLs do on
 * AWS: static assets from the web build, /v1 and /v2 to the API handler, the rest to the web
 * handler, each request turned into a Function URL event and answered through a response stream.
 */
export interface FrontOptions {
  api: StreamingHandler;
  web: StreamingHandler | undefined;
  staticDir: string | undefined;
  health: () => Promise<{ ok: boolean; components: Record<string, boolean> }>;
  maxBodyBytes?: number;
  onError: (e: unknown) => void;
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
};

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | "too_large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        resolve("too_large");
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function toEvent(req: IncomingMessage, body: Buffer): FunctionUrlEvent {
  const url = new URL(req.url ?? "/", "http://local");
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || k === "cookie") continue;
    headers[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  const cookies = req.headers.cookie ? req.headers.cookie.split(/;\s*/).filter(Boolean) : undefined;
  return {
    version: "2.0",
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies,
    headers,
    requestContext: {
      requestId: newRequestId(),
      timeEpoch: Date.now(),
      domainName: req.headers.host,
      http: { method: req.method ?? "GET", path: url.pathname, sourceIp: req.socket.remoteAddress ?? "127.0.0.1", userAgent: req.headers["user-agent"] },
    },
    body: body.length ? body.toString("base64") : undefined,
    isBase64Encoded: body.length > 0,
  };
}

function serveStatic(dir: string, pathname: string, res: ServerResponse): boolean {
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
  res.writeHead(200, {
    "content-type": MIME[extname(file)] ?? "application/octet-stream",
    "content-length": st.size,
    // Remix fingerprints everything under /assets.
    "cache-control": pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "public, max-age=300",
  });
  createReadStream(file).pipe(res);
  return true;
}

export function createFrontListener(opts: FrontOptions): RequestListener {
  const limit = opts.maxBodyBytes ?? 60 * 1024 * 1024;
  return async (req, res) => {
    try {
      const pathname = new URL(req.url ?? "/", "http://local").pathname;
      if (pathname === "/healthz") {
        const h = await opts.health();
        res.writeHead(h.ok ? 200 : 503, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify(h.ok ? { status: "ok" } : { status: "unavailable", components: h.components }));
        return;
      }
      if ((req.method === "GET" || req.method === "HEAD") && opts.staticDir && !pathname.startsWith("/v1/") && !pathname.startsWith("/v2/") && pathname !== "/") {
        if (serveStatic(opts.staticDir, pathname, res)) return;
      }
      const body = await readBody(req, limit);
      if (body === "too_large") {
        res.writeHead(413, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: { status: "payload_too_large", message: `Request body exceeds ${Math.round(limit / 1048576)} MB` } }));
        return;
      }
      const event = toEvent(req, body);
      const isApi = pathname.startsWith("/v1/") || pathname.startsWith("/v2/") || pathname === "/v1" || pathname === "/v2";
      const handler = isApi ? opts.api : opts.web;
      if (!handler) {
        res.writeHead(503, { "content-type": "text/plain" });
        res.end("The web app is not built. Run `npm run build` (npm start does it for you).");
        return;
      }
      const stream = new LocalResponseStream(res);
      await handler(event, stream, { awsRequestId: event.requestContext.requestId });
      if (!stream.writableEnded) stream.end();
    } catch (e) {
      opts.onError(e);
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: { status: "internal_error", message: "We are sorry, something went wrong." } }));
      } else res.destroy();
    }
  };
}
