import { createHmac } from "node:crypto";

/**
 * The `ElevenLabs-Signature` header (contract §12b): `t=<unix seconds>,v0=<lowercase hex
 * HMAC-SHA256 of "t.body" keyed by the secret's UTF-8 bytes>`, no spaces, one v0, so the official
 * SDK's `client.webhooks.constructEvent` verifies it unchanged. `t` is the time of each attempt:
 * the verifier refuses signatures older than 30 minutes, and retries run for days.
 */
export const SIGNATURE_HEADER = "ElevenLabs-Signature";

export function signatureHeader(secret: string, body: string, tUnix: number): string {
  const v0 = createHmac("sha256", secret).update(`${tUnix}.${body}`).digest("hex");
  return `t=${tUnix},v0=${v0}`;
}
