import { createHmac } from "node:crypto";
import { GetObjectCommand, PutObjectCommand, S3Client, UploadPartCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { Config } from "../config.js";

/**
 * Presigned URLs for browsers to put and get objects without passing their bytes through the
 * API, made by the AWS SDK's presigner (@aws-sdk/s3-request-presigner). Each URL binds the
 * method, the key, and for uploads the content type and length (signed headers), and expires.
 *
 * On AWS and LocalStack the URLs point at S3. In the embedded stack they point at the product's
 * own origin (`{PUBLIC_URL}/storage/{bucket}/{key}`), signed with a key derived from the
 * session secret; the front (infra/local/storage-route.ts) checks them with functions/platform/storage
 * before any byte reaches the embedded store, which nothing else can reach.
 *
 * Flexible checksums are off for presigning: the SDK would otherwise sign a CRC32 of an empty
 * body into the URL, and S3 would refuse every real upload against it.
 */
export interface Presigner {
  put(key: string, contentType: string, contentLength: number, expiresSeconds: number): Promise<string>;
  uploadPart(key: string, uploadId: string, partNumber: number, contentLength: number, expiresSeconds: number): Promise<string>;
  get(key: string, expiresSeconds: number, opts?: { contentType?: string; fileName?: string }): Promise<string>;
}

export const EMBEDDED_STORAGE_PATH = "/storage";
export const EMBEDDED_STORAGE_ACCESS_KEY = "timbre-storage";

/** The secret the embedded /storage origin signs and checks with. */
export function embeddedStorageSecret(sessionSecret: string): string {
  return createHmac("sha256", sessionSecret).update("timbre-storage-presign-v1").digest("base64url");
}

const SIGNED_UPLOAD_HEADERS = new Set(["content-type", "content-length"]);

export function createPresigner(cfg: Config, bucket: string, sessionSecret: string, publicBase: string): Presigner {
  const client =
    cfg.mode === "embedded"
      ? new S3Client({
          region: cfg.aws.region,
          endpoint: `${publicBase.replace(/\/$/, "")}${EMBEDDED_STORAGE_PATH}`,
          forcePathStyle: true,
          credentials: { accessKeyId: EMBEDDED_STORAGE_ACCESS_KEY, secretAccessKey: embeddedStorageSecret(sessionSecret) },
          requestChecksumCalculation: "WHEN_REQUIRED",
        })
      : new S3Client({
          region: cfg.aws.region,
          endpoint: cfg.aws.s3Endpoint,
          forcePathStyle: cfg.aws.s3Endpoint !== undefined,
          credentials: cfg.mode === "localstack" ? { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } : undefined,
          requestChecksumCalculation: "WHEN_REQUIRED",
        });
  return {
    put: (key, contentType, contentLength, expiresIn) =>
      getSignedUrl(client, new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType, ContentLength: contentLength }), {
        expiresIn,
        signableHeaders: SIGNED_UPLOAD_HEADERS,
      }),
    uploadPart: (key, uploadId, partNumber, contentLength, expiresIn) =>
      getSignedUrl(client, new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, ContentLength: contentLength }), {
        expiresIn,
        signableHeaders: new Set(["content-length"]),
      }),
    get: (key, expiresIn, opts = {}) =>
      getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          ResponseContentType: opts.contentType,
          ResponseContentDisposition: opts.fileName ? `inline; filename="${opts.fileName.replace(/[^\w. -]/g, "_")}"` : undefined,
        }),
        { expiresIn },
      ),
  };
}
