import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Secrets the server must read back (webhook signing secrets, two-factor seeds) are stored
 * sealed with AES-256-GCM under a key derived from the server's session secret and the secret's
 * purpose, so a copy of the table alone reveals none of them. Rotating the session secret makes
 * them unreadable (webhooks must then be recreated and two-factor set up again).
 */
function key(serverSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", serverSecret, "timbre", `${purpose}.v1`, 32));
}

export function seal(serverSecret: string, purpose: string, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key(serverSecret, purpose), iv);
  const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return ["v1", iv.toString("base64url"), body.toString("base64url"), c.getAuthTag().toString("base64url")].join(".");
}

export function unseal(serverSecret: string, purpose: string, sealed: string): string {
  const [v, iv, body, tag] = sealed.split(".");
  if (v !== "v1" || !iv || !body || !tag) throw new Error("unreadable sealed secret");
  const d = createDecipheriv("aes-256-gcm", key(serverSecret, purpose), Buffer.from(iv, "base64url"));
  d.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([d.update(Buffer.from(body, "base64url")), d.final()]).toString("utf8");
}
