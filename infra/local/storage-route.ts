import type { IncomingMessage, ServerResponse } from "node:http";
import { PassThrough, Transform } from "node:stream";
import type { AppContext } from "../../functions/platform/context.js";
import { EMBEDDED_STORAGE_ACCESS_KEY, EMBEDDED_STORAGE_PATH, embeddedStorageSecret } from "../../functions/platform/adapters/presign.js";
import { verifyPresigned } from "../../functions/platform/storage/sigv4.js";
import type { InProcessStore } from "./emulators.js";
import { liveUploadFor, sweepUploads } from "../../functions/capabilities/pvc/uploads.js";

/**
 * The embedded stack's /storage origin: what S3 does with presigned URLs, in front of the
 * embedded store (which nothing else can reach). A request is checked before a byte of its body
 * is read: the signature (made by the product's presigner with a key derived from the session
 * secret) binds method, bucket, key, content type and length, and the expiry; the declared
 * length must be the signed one. Uploads may only write under tmp/ws/ (presigned uploads land
 * there), downloads only read under ws/. The body streams to the store as it arrives: straight
 * into the embedded S3's store in this process (no second HTTP hop: decision record
 * 2026-11-27-storage-origin-in-process); in front of LocalStack, through the SDK.
 */

/**
 * The body of a PUT of known length, streamed into the in-process store as it arrives (with the
 * store's backpressure). A body that breaks off leaves no object behind: the store drops what it
 * was writing. One that ends short is stored whole first, then deleted (the count is known only then).
 */
async function writeToStore(store: InProcessStore, bucket: string, key: string, req: IncomingMessage, length: number, contentType: string): Promise<{ etag?: string }> {
  let received = 0;
  const body = new PassThrough({ highWaterMark: STORE_HIGH_WATER_MARK });
  const arrived = new Promise<void>((resolve, reject) => {
    req.on("data", (chunk: Buffer) => (received += chunk.length));
    req.on("end", resolve);
    req.on("error", reject);
    req.on("aborted", () => reject(new Error("upload aborted")));
  });
  req.pipe(body);
  const stored = store.put(bucket, key, body, contentType);
  let etag: string;
  try {
    [, { etag }] = await Promise.all([arrived, stored]);
  } catch (e) {
    // The store keeps nothing of a body that breaks off (a delete here could race a retry's PUT).
    req.unpipe(body);
    body.destroy(e instanceof Error ? e : new Error(String(e)));
    await stored.catch(() => undefined);
    throw e;
  }
  if (received !== length) {
    await store.delete(bucket, key).catch(() => undefined);
    throw new Error(`${received} bytes arrived, ${length} were signed`);
  }
  return { etag };
}

/** Bytes buffered between the request and the store's file: fewer, larger hand-overs than the 16 KiB default. */
const STORE_HIGH_WATER_MARK = 1024 * 1024;

export interface StorageRouteLimits {
  /** Uploads streaming at once, in all and per client address. */
  maxUploads: number;
  maxUploadsPerAddress: number;
  /** An upload that sends nothing for this long is dropped. */
  idleMs: number;
}

const DEFAULTS: StorageRouteLimits = { maxUploads: 8, maxUploadsPerAddress: 4, idleMs: 15_000 };

function fail(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", connection: "close" });
  res.end(JSON.stringify({ detail: { status: code, message } }));
}

/** `store`: the embedded S3's store in this process (emulators.ts); without it, uploads go through the SDK. */
export function createStorageRoute(ctx: AppContext, limits: Partial<StorageRouteLimits> = {}, store?: InProcessStore) {
  const l = { ...DEFAULTS, ...limits };
  const key = { accessKeyId: EMBEDDED_STORAGE_ACCESS_KEY, secretAccessKey: embeddedStorageSecret(ctx.secrets.session), region: ctx.config.aws.region };
  let uploads = 0;
  const perAddress = new Map<string, number>();

  return async function storage(req: IncomingMessage, res: ServerResponse, url: URL, clientAddress: string): Promise<void> {
    const method = req.method ?? "GET";
    if (method !== "PUT" && method !== "GET" && method !== "HEAD") return fail(res, 405, "method_not_allowed", "Method Not Allowed");
    const rest = url.pathname.slice(EMBEDDED_STORAGE_PATH.length + 1);
    const slash = rest.indexOf("/");
    let bucket: string;
    let objectKey: string;
    try {
      bucket = decodeURIComponent(rest.slice(0, slash));
      objectKey = decodeURIComponent(rest.slice(slash + 1));
    } catch {
      return fail(res, 400, "bad_request", "The storage path is malformed.");
    }
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(",") : v;
    const signedMethod = method === "HEAD" ? "GET" : method;
    const check = verifyPresigned({ method: signedMethod, path: url.pathname, query: url.searchParams, headers }, key, Date.now(), method === "PUT" ? ["content-length"] : []);
    if (!check.ok) {
      req.resume();
      return fail(res, 403, check.reason === "expired" ? "url_expired" : "invalid_signature", check.reason === "expired" ? "The presigned URL has expired." : "The presigned URL is not valid for this request.");
    }
    if (slash <= 0 || bucket !== ctx.blobs.bucket) return fail(res, 403, "invalid_signature", "The presigned URL is not valid for this request.");

    if (method === "PUT") {
      // The store keeps objects as files under its folder: no segment may step out of tmp/ws/.
      const outside = objectKey.split("/").some((seg) => seg === "" || seg === "." || seg === "..");
      if (!objectKey.startsWith("tmp/ws/") || outside || url.searchParams.has("uploadId")) return fail(res, 403, "forbidden_key", "Uploads may not write there.");
      const length = Number(req.headers["content-length"]);
      if (!Number.isSafeInteger(length) || length < 0) return fail(res, 411, "length_required", "Uploads need a Content-Length.");
      // A signed URL outlives nothing: once its upload is completed, cancelled or expired, it writes no more.
      if (!(await liveUploadFor(ctx, objectKey))) {
        req.resume();
        return fail(res, 403, "upload_closed", "This upload was completed, cancelled or has expired. Start a new upload.");
      }
      const held = perAddress.get(clientAddress) ?? 0;
      if (uploads >= l.maxUploads || held >= l.maxUploadsPerAddress) {
        res.setHeader("retry-after", "2");
        return fail(res, 429, "too_many_uploads", "Too many uploads are in progress. Please retry in a moment.");
      }
      uploads++;
      perAddress.set(clientAddress, held + 1);
      let idle: NodeJS.Timeout | undefined;
      try {
        const armIdle = () => {
          clearTimeout(idle);
          idle = setTimeout(() => req.destroy(new Error("upload stalled")), l.idleMs);
        };
        armIdle();
        const contentType = req.headers["content-type"] ?? "application/octet-stream";
        let stored: Promise<{ etag?: string }>;
        if (store) {
          // The pipe reads as the store takes it; a listener beside it only watches.
          stored = writeToStore(store, ctx.blobs.bucket, objectKey, req, length, contentType);
          req.on("data", armIdle);
        } else {
          // Every chunk re-arms the idle timer on its way through (a "data" listener on the request
          // itself would start it flowing before the store reads it).
          const body = new Transform({
            transform(chunk, _enc, done) {
              armIdle();
              done(null, chunk);
            },
          });
          req.on("error", (e) => body.destroy(e));
          req.pipe(body);
          stored = ctx.blobs.putStream(objectKey, body, length, contentType);
        }
        const { etag } = await stored;
        res.writeHead(200, { etag: etag ?? "", "content-length": "0", "cache-control": "no-store" });
        res.end();
      } catch (e) {
        ctx.log.warn("storage upload failed", { key: objectKey, error: e });
        fail(res, req.destroyed ? 408 : 500, req.destroyed ? "request_timeout" : "internal_error", req.destroyed ? "The upload stopped arriving." : "The upload could not be stored.");
      } finally {
        clearTimeout(idle);
        uploads--;
        const n = (perAddress.get(clientAddress) ?? 1) - 1;
        if (n > 0) perAddress.set(clientAddress, n);
        else perAddress.delete(clientAddress);
      }
      return;
    }

    // GET / HEAD: a signed download of an object under ws/, with ranges for audio seeking.
    if (!objectKey.startsWith("ws/")) return fail(res, 403, "forbidden_key", "That object cannot be downloaded.");
    const range = typeof req.headers.range === "string" && /^bytes=\d*-\d*$/.test(req.headers.range) ? req.headers.range : undefined;
    const object = await ctx.blobs.getStream(objectKey, range).catch(() => undefined);
    if (!object) return fail(res, 404, "not_found", "No such object.");
    const out: Record<string, string> = {
      "content-type": url.searchParams.get("response-content-type") ?? object.contentType,
      "accept-ranges": "bytes",
      "cache-control": "private, max-age=3600",
    };
    const disposition = url.searchParams.get("response-content-disposition");
    if (disposition) out["content-disposition"] = disposition;
    if (object.length !== undefined) out["content-length"] = String(object.length);
    if (object.contentRange) out["content-range"] = object.contentRange;
    res.writeHead(object.contentRange ? 206 : 200, out);
    if (method === "HEAD") {
      object.stream.destroy();
      res.end();
      return;
    }
    object.stream.pipe(res);
  };
}

/**
 * What the bucket's lifecycle rules do on AWS (infra/constructs/data.ts: unfinished uploads and
 * tmp/ expire after a day), done for the embedded store, which has no lifecycle: objects under
 * tmp/ older than `maxAgeMs` are deleted, and, sooner, the bytes of presigned uploads no longer
 * in progress (completed, cancelled, or unused past their expiry: functions/capabilities/pvc/uploads.ts).
 */
export async function sweepTemporaryUploads(ctx: AppContext, maxAgeMs = 24 * 3600_000): Promise<number> {
  const dropped = await sweepUploads(ctx);
  const old = (await ctx.blobs.listWithSizes("tmp/")).filter((o) => Date.now() - o.modifiedMs > maxAgeMs).map((o) => o.key);
  await ctx.blobs.deleteMany(old);
  return dropped + old.length;
}

/** How often the embedded stack sweeps: unused uploads live minutes, so their bytes go minutes later. */
export const SWEEP_INTERVAL_MS = 5 * 60_000;
