import { createHmac } from "node:crypto";
import { safeEqual } from "../adapters/ids.js";

/**
 * Short-lived bearer tokens the web uses to call /v1 on behalf of a signed-in session.
 * Format: base64url(JSON claims) "." base64url(HMAC-SHA256). The session is re-checked on
 * use, so signing out revokes outstanding tokens at once.
 */
export interface TokenClaims {
  /** sha256 of the session id */
  sid: string;
  uid: string;
  ws: string;
  /** expiry, unix seconds */
  exp: number;
}

export const TOKEN_TTL_SECONDS = 15 * 60;

const b64 = (b: Buffer | string) => Buffer.from(b).toString("base64url");

function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(`timbre.v1.${payload}`).digest("base64url");
}

export function issueToken(secret: string, claims: TokenClaims): string {
  const payload = b64(JSON.stringify(claims));
  return `tt_${payload}.${sign(secret, payload)}`;
}

export function verifyToken(secret: string, token: string, nowSeconds: number): TokenClaims | undefined {
  if (!token.startsWith("tt_")) return undefined;
  const [payload, mac] = token.slice(3).split(".");
  if (!payload || !mac || !safeEqual(mac, sign(secret, payload))) return undefined;
  try {
    const c = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as TokenClaims;
    if (typeof c.exp !== "number" || c.exp <= nowSeconds) return undefined;
    if (typeof c.sid !== "string" || typeof c.uid !== "string" || typeof c.ws !== "string") return undefined;
    return c;
  } catch {
    return undefined;
  }
}

/** CSRF tokens for web forms: bound to a per-browser secret cookie value. */
export function csrfToken(secret: string, browserId: string): string {
  return createHmac("sha256", secret).update(`timbre.csrf.${browserId}`).digest("base64url");
}
