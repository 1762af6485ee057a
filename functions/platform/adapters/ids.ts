import { randomBytes, randomInt, createHash, timingSafeEqual } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random base62 string (rejection sampling keeps the distribution uniform). */
export function randomToken(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += ALPHABET[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Ids look like the hosted service's (20 base62 characters): opaque and unguessable. */
export const newId = () => randomToken(20);

export const sha256Hex = (s: string | Uint8Array) => createHash("sha256").update(s).digest("hex");

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Uniform in [0, 1) from node:crypto: what a user cannot predict. */
export const cryptoUniform = (): number => randomInt(0, 2 ** 47) / 2 ** 47;
