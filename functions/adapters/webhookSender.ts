import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";

/**
 * Sends one webhook delivery: an HTTP POST to an address already checked by the caller
 * (functions/webhooks/targets.ts), with the URL's host kept for the Host header and TLS (SNI and
 * certificate checks), a time limit, no redirects followed, and at most a little of the answer
 * read (for the delivery log).
 */
export interface SendResult {
  /** The response status, or null when there was none (timeout, refused, reset). */
  status: number | null;
  error: string | null;
  /** The start of the response body, for the log. */
  excerpt: string;
  durationMs: number;
  timedOut: boolean;
}

export const SEND_TIMEOUT_MS = 10_000;
const EXCERPT_BYTES = 1024;

export function sendWebhook(url: URL, address: { address: string; family: 4 | 6 }, body: string, headers: Record<string, string>, timeoutMs = SEND_TIMEOUT_MS): Promise<SendResult> {
  const started = performance.now();
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [address]);
    else cb(null, address.address, address.family);
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: Math.round(performance.now() - started) });
    };
    const req = send(url, { method: "POST", lookup, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, agent: false }, (res) => {
      let excerpt = "";
      res.on("data", (chunk: Buffer) => {
        if (excerpt.length < EXCERPT_BYTES) excerpt += chunk.toString("utf8").slice(0, EXCERPT_BYTES - excerpt.length);
      });
      res.on("end", () => done({ status: res.statusCode ?? null, error: null, excerpt, timedOut: false }));
      res.on("error", () => done({ status: res.statusCode ?? null, error: null, excerpt, timedOut: false }));
    });
    const timer = setTimeout(() => {
      req.destroy();
      done({ status: null, error: `No response within ${Math.round(timeoutMs / 1000)} s`, excerpt: "", timedOut: true });
    }, timeoutMs);
    req.on("error", (e: NodeJS.ErrnoException) => done({ status: null, error: e.code ? `${e.code}: ${e.message}` : e.message, excerpt: "", timedOut: false }));
    req.end(body);
  });
}
