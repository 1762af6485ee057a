/**
 * Checking an S3 presigned URL (AWS Signature Version 4, query-string auth) where S3 itself is
 * not in front: the embedded stack's /storage origin. The URL was made by the AWS SDK's own
 * presigner (functions/platform/adapters/presign.ts) with a key only this product holds, so a URL that
 * checks out was handed out by us, for exactly this method, object, length and type, and has
 * not expired. Everything is recomputed from the request: nothing the client says is trusted
 * except through the signature.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

export interface PresignedRequest {
  method: string;
  /** The path as sent (percent-encoded), e.g. /storage/bucket/ws/a/b.wav */
  path: string;
  query: URLSearchParams;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
}

export interface SigningKey {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export type PresignCheck =
  | { ok: true; signedHeaders: string[]; expiresAt: number }
  | { ok: false; reason: "missing" | "malformed" | "expired" | "not_yet_valid" | "wrong_key" | "unsigned_header" | "signature" };

/** RFC 3986 encoding as SigV4 wants it (the unreserved set kept, everything else %XX). */
function encode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function sha256(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}

const hmac = (key: Buffer | string, s: string) => createHmac("sha256", key).update(s).digest();

/** When a URL made at amzDate (YYYYMMDDTHHMMSSZ) for `seconds` stops working, ms since the epoch. */
function parseAmzDate(d: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(d);
  if (!m) return undefined;
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
}

/**
 * Verifies a presigned request. Headers named in X-Amz-SignedHeaders must be present with the
 * values they were signed with (the presigner signs content-type and content-length, so a body
 * of another size or type fails here, before a byte of it is read).
 */
export function verifyPresigned(req: PresignedRequest, key: SigningKey, nowMs: number, requiredHeaders: string[] = []): PresignCheck {
  const q = req.query;
  const algorithm = q.get("X-Amz-Algorithm");
  const credential = q.get("X-Amz-Credential");
  const amzDate = q.get("X-Amz-Date");
  const expires = q.get("X-Amz-Expires");
  const signedHeaders = q.get("X-Amz-SignedHeaders");
  const signature = q.get("X-Amz-Signature");
  if (!algorithm || !credential || !amzDate || !expires || !signedHeaders || !signature) return { ok: false, reason: "missing" };
  if (algorithm !== "AWS4-HMAC-SHA256" || !/^\d{1,6}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: "malformed" };
  const [accessKeyId, date, region, service, terminator] = credential.split("/");
  if (accessKeyId !== key.accessKeyId || region !== key.region || service !== "s3" || terminator !== "aws4_request") return { ok: false, reason: "wrong_key" };
  const signedAt = parseAmzDate(amzDate);
  if (signedAt === undefined || amzDate.slice(0, 8) !== date) return { ok: false, reason: "malformed" };
  const expiresAt = signedAt + Number(expires) * 1000;
  if (nowMs > expiresAt) return { ok: false, reason: "expired" };
  // A little clock skew is allowed, as S3 allows.
  if (signedAt - nowMs > 5 * 60_000) return { ok: false, reason: "not_yet_valid" };
  const names = signedHeaders.split(";");
  if (!names.includes("host") || requiredHeaders.some((h) => !names.includes(h))) return { ok: false, reason: "unsigned_header" };

  const canonicalQuery = [...q.entries()]
    .filter(([k]) => k !== "X-Amz-Signature")
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  // S3 does not normalise the path: each segment is encoded once, as the presigner did.
  const canonicalPath = req.path
    .split("/")
    .map((seg) => {
      try {
        return encode(decodeURIComponent(seg));
      } catch {
        return seg;
      }
    })
    .join("/");
  let canonicalHeaders = "";
  for (const name of names) {
    const value = req.headers[name];
    if (value === undefined) return { ok: false, reason: "unsigned_header" };
    canonicalHeaders += `${name}:${value.trim().replace(/\s+/g, " ")}\n`;
  }
  const payload = q.get("X-Amz-Content-Sha256") ?? "UNSIGNED-PAYLOAD";
  const canonicalRequest = [req.method.toUpperCase(), canonicalPath, canonicalQuery, canonicalHeaders, signedHeaders, payload].join("\n");
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${key.secretAccessKey}`, date), region), "s3"), "aws4_request");
  const expected = createHmac("sha256", signingKey).update(stringToSign).digest();
  const given = Buffer.from(signature, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "signature" };
  return { ok: true, signedHeaders: names, expiresAt };
}
