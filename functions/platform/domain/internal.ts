import { createHmac } from "node:crypto";
import { safeEqual } from "../adapters/ids.js";

/**
 * The web server calls /v1 on behalf of browsers. It proves it is the web server with this
 * header, and only then is its X-Forwarded-For (the browser's address) trusted for rate limits.
 */
export const INTERNAL_HEADER = "x-timbre-internal";

export function internalProof(secret: string): string {
  return createHmac("sha256", secret).update("timbre.internal.web").digest("base64url");
}

export function isInternal(secret: string, headerValue: string | undefined): boolean {
  return headerValue !== undefined && safeEqual(headerValue, internalProof(secret));
}
