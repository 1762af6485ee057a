import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";

/**
 * Sends one webhook delivery: an HTTP POST to an address already checked by the caller
 * (functions/capabilities/webhooks/targets.ts), with the URL's host kept for the Host header and TLS (SNI and
 * certificate checks), a time limit, and no redirects followed. Only the answer's status is kept:
 * its body is never read into anything a member can see (a delivery log must not become a way to
 * read what some address answers), and every way of getting no answer (refused, reset, TLS,
 * not HTTP, timeout) is the caller's one generic reason; `detail` says which, for the server's
 * own log only.
 */
export interface SendResult {
  /** The response status, or null when there was none (timeout, refused, reset). */
  status: number | null;
  /** Why there was no answer, for the server's log (never shown to members); null with a status. */
  detail: string | null;
  durationMs: number;
  timedOut: boolean;
}

export const SEND_TIMEOUT_MS = 10_000;
/** The most of an answer's body read (and thrown away) before the connection is closed. */
const DRAIN_BYTES = 64 * 1024;

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
      resolve({ ...r, durationMs: Math.round(performance.now() - started) });
    };
    const req = send(url, { method: "POST", lookup, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, agent: false }, (res) => {
      done({ status: res.statusCode ?? null, detail: null, timedOut: false });
      // The body is drained, not kept; a long one is cut off.
      let read = 0;
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > DRAIN_BYTES) req.destroy();
      });
      res.on("error", () => undefined);
    });
    // The time limit covers the whole exchange, the drained body included.
    const timer = setTimeout(() => {
      req.destroy();
      done({ status: null, detail: `no response within ${Math.round(timeoutMs / 1000)} s`, timedOut: true });
    }, timeoutMs);
    req.on("close", () => clearTimeout(timer));
    req.on("error", (e: NodeJS.ErrnoException) => {
      // A peer that answered with something other than HTTP may leave its socket half open.
      req.destroy();
      done({ status: null, detail: e.code ? `${e.code}: ${e.message}` : e.message, timedOut: false });
    });
    req.end(body);
  });
}
