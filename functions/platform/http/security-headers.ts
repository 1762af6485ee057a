/**
 * The browser-facing security headers, defined once: the embedded front sends them on every
 * response, and the CDK edge construct turns the same values into CloudFront's response headers
 * policy. Import-free so the CDK app can load it cheaply.
 *
 * The Content-Security-Policy is not static: the web app's pages carry a fresh nonce for their
 * inline hydration scripts, so the web handler sets it per response (on AWS and embedded alike).
 */
export const STATIC_SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-opener-policy": "same-origin",
  // The recorder needs the microphone on our own pages; nothing else needs a device.
  "permissions-policy": "microphone=(self), camera=(), geolocation=(), payment=(), usb=()",
} as const;

/** Sent only over HTTPS (browsers ignore it on http://, and it must not pin a plain-http install). */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;
export const HSTS = `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`;

/**
 * The policy of the web app's HTML pages. `connect` adds origins the page may open connections
 * to besides its own (on AWS the live reading websocket's API Gateway origin).
 */
export function pageContentSecurityPolicy(nonce: string, connect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob: data:",
    ["connect-src 'self'", ...connect].join(" "),
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** Everything else (API JSON, audio, files): nothing in it may run or be framed. */
export const RESOURCE_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";
