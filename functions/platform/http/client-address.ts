import { BlockList, isIP } from "node:net";

/**
 * Which address a request comes from, when a reverse proxy may stand in front (TRUST_PROXY).
 * Without trust, the socket's address is the client: X-Forwarded-For is whatever the caller
 * wrote. With trust, each trusted proxy appended the address it saw, so the client is found by
 * walking the header from the right past the trusted hops.
 */
export type TrustProxy = { kind: "none" } | { kind: "hops"; hops: number } | { kind: "addresses"; list: BlockList; text: string };

export class TrustProxyError extends Error {
  override name = "TrustProxyError";
}

const normalise = (a: string) => (a.startsWith("::ffff:") && isIP(a.slice(7)) === 4 ? a.slice(7) : a);

/** "" -> none; "1" -> one hop; "10.0.0.0/8, 127.0.0.1, ::1" -> those proxies. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? "").trim();
  if (!v || v === "false" || v === "0") return { kind: "none" };
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 10) throw new TrustProxyError("must be a number of proxy hops (1-10) or a comma list of addresses/CIDRs");
    return { kind: "hops", hops };
  }
  const list = new BlockList();
  for (const raw of v.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const [addr, prefix] = entry.split("/");
    const family = isIP(addr);
    if (!family) throw new TrustProxyError(`"${entry}" is not an IP address or CIDR`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(addr, type);
    else {
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) throw new TrustProxyError(`"${entry}" has an invalid prefix length`);
      list.addSubnet(addr, bits, type);
    }
  }
  return { kind: "addresses", list, text: v };
}

function trusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** True when the socket peer is a proxy whose X-Forwarded-For counts. */
export function isTrustedProxy(trust: TrustProxy, socketAddress: string): boolean {
  if (trust.kind === "none") return false;
  if (trust.kind === "hops") return true;
  return trusted(trust.list, normalise(socketAddress));
}

export function clientAddress(trust: TrustProxy, socketAddress: string, forwardedFor: string | undefined): string {
  const peer = normalise(socketAddress);
  if (trust.kind === "none" || !forwardedFor) return peer;
  const chain = forwardedFor
    .split(",")
    .map((s) => normalise(s.trim()))
    .filter(Boolean)
    .slice(-32);
  if (trust.kind === "hops") {
    // The peer is hop 1; the address it saw is the last entry, and so on.
    const candidate = chain[chain.length - trust.hops];
    return candidate && isIP(candidate) ? candidate : (chain[0] && isIP(chain[0]) ? chain[0] : peer);
  }
  if (!trusted(trust.list, peer)) return peer;
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!isIP(chain[i])) return peer;
    if (!trusted(trust.list, chain[i])) return chain[i];
  }
  return chain[0] ?? peer;
}
