import { BlockList, isIP } from "node:net";
import { lookup } from "node:dns/promises";

/**
 * Which network addresses the server may connect to on someone's say-so (SSRF): webhook targets
 * (capabilities/webhooks/targets.ts) and remote speech engines (REMOTE_ENGINES, ./fetch.ts).
 * Every spelling of an address counts: the URL parser turns 2130706433, 0x7f000001, 0177.0.0.1
 * and 127.1 into 127.0.0.1, and an IPv6 address that stands for an IPv4 one (::ffff:127.0.0.1,
 * 64:ff9b::7f00:1, …) is judged as that. Loopback is allowed only with WEBHOOK_ALLOW_LOCAL_TARGETS
 * or WEBHOOK_ALLOW_PRIVATE; private and link-local only with WEBHOOK_ALLOW_PRIVATE.
 */
export interface TargetPolicy {
  allowPrivate: boolean;
  allowLoopback: boolean;
  allowHttp: boolean;
}

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
privateNets.addSubnet("fec0::", 10, "ipv6"); // site-local (deprecated, still routed on some networks)

/** Never a delivery target: unspecified, multicast, broadcast, reserved and documentation ranges. */
const never = new BlockList();
for (const [net, bits] of [["0.0.0.0", 8], ["224.0.0.0", 4], ["240.0.0.0", 4], ["192.0.2.0", 24], ["198.51.100.0", 24], ["203.0.113.0", 24]] as const) {
  never.addSubnet(net, bits, "ipv4");
}
never.addAddress("::", "ipv6");
never.addSubnet("ff00::", 8, "ipv6");
never.addSubnet("2001:db8::", 32, "ipv6");

export type AddressClass = "public" | "loopback" | "private" | "forbidden";

/** The eight 16-bit groups of an IPv6 address (any spelling, a trailing dotted IPv4 included). */
function groupsOf(address: string): number[] | undefined {
  let a = address.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (dotted) {
    const [b0, b1, b2, b3] = dotted.slice(1).map(Number);
    a = `${a.slice(0, dotted.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const halves = a.split("::");
  if (halves.length > 2) return undefined;
  const part = (h: string) => (h ? h.split(":").map((g) => parseInt(g, 16)) : []);
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const groups = halves.length === 2 ? [...head, ...Array(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

const v4Of = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");

/**
 * The IPv4 address an IPv6 address stands for, judged in its place: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-translated (::ffff:0:a.b.c.d), the deprecated IPv4-compatible (::a.b.c.d), NAT64
 * (64:ff9b::/96 and the local-use 64:ff9b:1::/48) and 6to4 (2002:aabb:ccdd::/48).
 */
function embeddedV4(address: string): string | undefined {
  const g = groupsOf(address);
  if (!g) return undefined;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4Of(g[6], g[7]);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4Of(g[6], g[7]);
  if (zeros(0, 6) && (g[6] !== 0 || g[7] > 1)) return v4Of(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && (zeros(2, 6) || g[2] === 1)) return v4Of(g[6], g[7]);
  if (g[0] === 0x2002) return v4Of(g[1], g[2]);
  return undefined;
}

export function classifyAddress(address: string): AddressClass {
  if (!isIP(address)) return "forbidden";
  const v4 = isIP(address) === 6 ? embeddedV4(address) : undefined;
  const a = v4 ?? address.replace(/%.*$/, "");
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

/** `localhost` and its subdomains are loopback whatever a resolver answers (RFC 6761). */
export const isLocalhostName = (host: string) => /(^|\.)localhost\.?$/i.test(host);


/** What a URL's host is when it names a not-allowed address literally (or localhost), without DNS; null otherwise. */
export function literalHostRefused(url: URL, p: TargetPolicy): AddressClass | null {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return addressAllowed(host, p) ? null : classifyAddress(host);
  if (isLocalhostName(host) && !p.allowLoopback) return "loopback";
  return null;
}

/** A host that resolves to no address, or to one the policy does not allow (name: "AddressRefused"). */
export class AddressRefused extends Error {
  override name = "AddressRefused";
  constructor(
    message: string,
    readonly addressClass: AddressClass | "unresolvable",
  ) {
    super(message);
  }
}

/**
 * Resolves a host and returns the address to connect to, or throws AddressRefused when it resolves
 * to nothing or any of its addresses is not allowed (a host mixing public and private answers is refused).
 */
export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

export async function resolveAllowed(host: string, p: TargetPolicy, resolve: Resolver = systemResolver): Promise<{ address: string; family: 4 | 6 }> {
  const bare = host.replace(/^\[|\]$/g, "");
  if (isLocalhostName(bare) && !p.allowLoopback) throw new AddressRefused(`${bare} is a loopback address`, "loopback");
  const answers = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await resolve(bare).catch(() => []);
  if (!answers.length) throw new AddressRefused(`${bare} does not resolve`, "unresolvable");
  const bad = answers.find((a) => !addressAllowed(a.address, p));
  if (bad) throw new AddressRefused(`${bare} resolves to a ${classifyAddress(bad.address)} address`, classifyAddress(bad.address));
  return { address: answers[0].address, family: answers[0].family as 4 | 6 };
}
