import { isIP } from "node:net";
import { lookup } from "node:dns/promises";
import { ApiError } from "../../platform/http/errors.js";
import { addressAllowed, isLocalhostName, type TargetPolicy } from "../../platform/net/addresses.js";
import { webhookMessages as m } from "./messages.js";

export { addressAllowed, classifyAddress, type AddressClass, type TargetPolicy } from "../../platform/net/addresses.js";

/**
 * Where webhooks may be delivered (SSRF). The URL must be https (http too outside AWS), without
 * credentials; every address its host resolves to is checked *after* DNS resolution (the address
 * rules: platform/net/addresses.ts), and the connection goes to a checked address, so a name
 * cannot resolve to an allowed address for the check and a private one for the request (DNS
 * rebinding). Loopback is allowed only with WEBHOOK_ALLOW_LOCAL_TARGETS or WEBHOOK_ALLOW_PRIVATE
 * (in every mode: any member may add a webhook); private and link-local only with WEBHOOK_ALLOW_PRIVATE.
 */
export const MAX_URL_LENGTH = 2048;

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
  if (isLocalhostName(host) && !p.allowLoopback) throw new ApiError(400, "webhook_target_not_allowed", m.privateTarget);
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
