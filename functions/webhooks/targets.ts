import { BlockList, isIP } from "node:net";
import { lookup } from "node:dns/promises";
import { ApiError } from "../http/errors.js";
import { webhookMessages as m } from "./messages.js";

/**
 * Where webhooks may be delivered (SSRF). The URL must be https (http too outside AWS), without
 * credentials; every address its host resolves to is checked *after* DNS resolution, and the
 * connection goes to a checked address, so a name cannot resolve to an allowed address for the
 * check and a private one for the request. Loopback is allowed in embedded mode (a developer's
 * receiver on localhost) and with WEBHOOK_ALLOW_PRIVATE; private and link-local only with it.
 */
export interface TargetPolicy {
  allowPrivate: boolean;
  allowLoopback: boolean;
  allowHttp: boolean;
}

export const MAX_URL_LENGTH = 2048;

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** Private, link-local, shared (CGNAT) and similar: not the public internet. */
const privateNets = new BlockList();
for (const [net, bits] of [["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["169.254.0.0", 16], ["100.64.0.0", 10], ["192.0.0.0", 24], ["198.18.0.0", 15]] as const) {
  privateNets.addSubnet(net, bits, "ipv4");
}
privateNets.addSubnet("fc00::", 7, "ipv6"); // unique local
privateNets.addSubnet("fe80::", 10, "ipv6"); // link-local

/** Never a delivery target: unspecified, multicast, broadcast, reserved and documentation ranges. */
const never = new BlockList();
for (const [net, bits] of [["0.0.0.0", 8], ["224.0.0.0", 4], ["240.0.0.0", 4], ["192.0.2.0", 24], ["198.51.100.0", 24], ["203.0.113.0", 24]] as const) {
  never.addSubnet(net, bits, "ipv4");
}
never.addAddress("::", "ipv6");
never.addSubnet("ff00::", 8, "ipv6");
never.addSubnet("2001:db8::", 32, "ipv6");

export type AddressClass = "public" | "loopback" | "private" | "forbidden";

/** IPv4-mapped and NAT64 IPv6 addresses are judged by the IPv4 address inside them. */
function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)?.[1];
  if (mapped) return mapped;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const n = (parseInt(hex[1], 16) << 16) | parseInt(hex[2], 16);
    return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
  }
  const nat64 = /^64:ff9b::(\d+\.\d+\.\d+\.\d+)$/.exec(lower)?.[1];
  return nat64;
}

export function classifyAddress(address: string): AddressClass {
  const v4 = isIP(address) === 6 ? embeddedV4(address) : undefined;
  const a = v4 ?? address;
  const family = isIP(a) === 6 ? "ipv6" : "ipv4";
  if (!isIP(a)) return "forbidden";
  if (never.check(a, family) || a === "255.255.255.255") return "forbidden";
  if (loopback.check(a, family)) return "loopback";
  if (privateNets.check(a, family)) return "private";
  return "public";
}

export function addressAllowed(address: string, p: TargetPolicy): boolean {
  const c = classifyAddress(address);
  return c === "public" || (c === "loopback" && p.allowLoopback) || (c === "private" && p.allowPrivate);
}

/** Checks a URL's form (no DNS): scheme, credentials, a literal address that is not allowed. Throws a 400. */
export function checkUrl(raw: string, p: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError(400, "invalid_webhook_url", m.invalidUrl);
  }
  if (raw.length > MAX_URL_LENGTH || !url.hostname) throw new ApiError(400, "invalid_webhook_url", m.invalidUrl);
  if (url.protocol !== "https:" && !(p.allowHttp && url.protocol === "http:")) {
    throw new ApiError(400, "invalid_webhook_url", p.allowHttp ? m.httpOrHttps : m.httpsOnly);
  }
  if (url.username || url.password) throw new ApiError(400, "invalid_webhook_url", m.credentialsInUrl);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !addressAllowed(host, p)) throw new ApiError(400, "webhook_target_not_allowed", m.privateTarget);
  return url;
}

export class TargetRefused extends Error {
  override name = "TargetRefused";
}

/**
 * Resolves the URL's host and returns one address to connect to, or throws TargetRefused when
 * any address it resolves to is not allowed (a host mixing public and private answers is refused).
 */
export async function resolveTarget(url: URL, p: TargetPolicy): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const answers = isIP(host) ? [{ address: host, family: isIP(host) as 4 | 6 }] : await lookup(host, { all: true, verbatim: true }).catch(() => []);
  if (!answers.length) throw new TargetRefused(m.unresolvable(host));
  if (answers.some((a) => !addressAllowed(a.address, p))) throw new TargetRefused(m.privateTarget);
  return { address: answers[0].address, family: answers[0].family as 4 | 6 };
}
