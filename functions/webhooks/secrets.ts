import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { randomToken } from "../adapters/ids.js";

/**
 * Webhook signing secrets. The receiver needs the secret itself (HMAC), so it cannot be stored as
 * a hash: it is stored encrypted with AES-256-GCM under a key derived from the server's session
 * secret, so a copy of the table alone does not reveal it. Rotating the session secret makes old
 * webhook secrets unreadable: recreate the webhooks then.
 */
export const newWebhookSecret = () => `wsec_${randomToken(40)}`;

function key(serverSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", serverSecret, "timbre", "webhook-secrets.v1", 32));
}

export function encryptSecret(serverSecret: string, secret: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key(serverSecret), iv);
  const body = Buffer.concat([c.update(secret, "utf8"), c.final()]);
  return ["v1", iv.toString("base64url"), body.toString("base64url"), c.getAuthTag().toString("base64url")].join(".");
}

export function decryptSecret(serverSecret: string, sealed: string): string {
  const [v, iv, body, tag] = sealed.split(".");
  if (v !== "v1" || !iv || !body || !tag) throw new Error("unreadable webhook secret");
  const d = createDecipheriv("aes-256-gcm", key(serverSecret), Buffer.from(iv, "base64url"));
  d.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([d.update(Buffer.from(body, "base64url")), d.final()]).toString("utf8");
}
