/**
 * `fetch` for URLs an operator or a user names (remote speech engines): the host is resolved and
 * every address it resolves to checked against the policy (./addresses.ts) at each request, and
 * the connection goes to the checked address, so a name cannot resolve to an allowed address for
 * the check and a private one for the request (DNS rebinding). Redirects are not followed. A
 * refused host throws AddressRefused; the response body streams as it arrives.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";
import { resolveAllowed, type Resolver, type TargetPolicy } from "./addresses.js";

/** `resolve`: the system's resolver unless a test brings answers of its own. */
export function checkedFetch(p: TargetPolicy, resolve?: Resolver): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`${url.protocol} URLs are not fetched`);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const { address, family } = await resolveAllowed(host, p, resolve);
    init.signal?.throwIfAborted();
    const lookup: LookupFunction = (_name, opts, cb) => (opts.all ? cb(null, [{ address, family }]) : cb(null, address, family));
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    const body = init.body === undefined || init.body === null ? undefined : typeof init.body === "string" ? init.body : Buffer.from(await new Response(init.body).arrayBuffer());
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    return new Promise<Response>((resolve, reject) => {
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      const req = send(url, { method: init.method ?? "GET", headers, lookup, signal: init.signal ?? undefined, ...(url.protocol === "https:" && !isIP(host) ? { servername: host } : {}) }, (res) => {
        const status = res.statusCode ?? 502;
        const empty = status === 204 || status === 205 || status === 304 || init.method === "HEAD";
        if (empty) res.resume();
        resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, statusText: res.statusMessage, headers: toHeaders(res.headers) }));
      });
      req.on("error", reject);
      req.end(body);
    });
  }) as typeof fetch;
}

function toHeaders(h: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [k, v] of Object.entries(h)) {
    if (Array.isArray(v)) for (const x of v) out.append(k, x);
    else if (v !== undefined) out.set(k, v);
  }
  return out;
}
