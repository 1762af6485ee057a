import { SIGNATURE_HEADER } from "./signature.js";

/**
 * Which names a webhook's own request headers (`request_headers`) may not use, case-insensitively.
 * `reserved`: what Timbre sets on every delivery itself (its signature above all). `forbidden`:
 * credentials and cookies (a webhook must not carry them, so a delivery can never act as a signed-in
 * client of whatever answers), proxy and forwarding headers, and the hop-by-hop headers of HTTP/1.1
 * that would change how the request itself is framed or routed.
 */
const RESERVED = new Set([SIGNATURE_HEADER.toLowerCase(), "timbre-event-id", "content-type", "user-agent"]);
const FORBIDDEN = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "cookie2",
  "set-cookie",
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "content-length",
  "expect",
  "forwarded",
  "x-real-ip",
  "via",
  // Cloud metadata services' request headers: only useful against a metadata endpoint.
  "metadata-flavor",
  "x-aws-ec2-metadata-token",
  "x-aws-ec2-metadata-token-ttl-seconds",
]);
const FORBIDDEN_PREFIXES = ["proxy-", "x-forwarded-"];

export function headerRule(name: string): "reserved" | "forbidden" | null {
  const n = name.toLowerCase();
  if (RESERVED.has(n)) return "reserved";
  if (FORBIDDEN.has(n) || FORBIDDEN_PREFIXES.some((p) => n.startsWith(p))) return "forbidden";
  return null;
}

/** A stored webhook's headers as a delivery sends them: any that a rule now refuses are left out. */
export function deliverableHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => headerRule(name) === null));
}
