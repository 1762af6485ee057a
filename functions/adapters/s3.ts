import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { Readable } from "node:stream";

/**
 * Object storage for audio and files. Keys are namespaced by workspace (`ws/{id}/...`);
 * callers build keys with `workspaceKey` so nothing is guessable or shared across tenants.
 */
export const workspaceKey = (workspaceId: string, ...parts: string[]) => ["ws", workspaceId, ...parts].join("/");
export const publicKey = (...parts: string[]) => ["public", ...parts].join("/");

export class BlobStore {
  constructor(
    readonly s3: S3Client,
    readonly bucket: string,
  ) {}

  async put(key: string, body: Uint8Array | string, contentType: string, metadata?: Record<string, string>): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, Metadata: metadata }));
  }

  async getBytes(key: string): Promise<{ bytes: Uint8Array; contentType: string } | undefined> {
    try {
      const r = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const bytes = await r.Body!.transformToByteArray();
      return { bytes, contentType: r.ContentType ?? "application/octet-stream" };
    } catch (e) {
      if ((e as { name?: string }).name === "NoSuchKey") return undefined;
      throw e;
    }
  }

  async getStream(key: string): Promise<{ stream: Readable; contentType: string; length?: number } | undefined> {
    try {
      const r = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { stream: r.Body as Readable, contentType: r.ContentType ?? "application/octet-stream", length: r.ContentLength };
    } catch (e) {
      if ((e as { name?: string }).name === "NoSuchKey") return undefined;
      throw e;
    }
  }

  async head(key: string): Promise<{ size: number; contentType?: string } | undefined> {
    try {
      const r = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: r.ContentLength ?? 0, contentType: r.ContentType };
    } catch (e) {
      const name = (e as { name?: string }).name;
      if (name === "NotFound" || name === "NoSuchKey") return undefined;
      throw e;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const r = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const o of r.Contents ?? []) if (o.Key) out.push(o.Key);
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async deleteMany(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      await this.s3.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
    }
  }

  /** Presigned PUT for browser uploads; the size and type are checked again on the server after upload. */
  async presignPut(key: string, contentType: string, expiresSeconds = 900): Promise<string> {
    return getSignedUrl(this.s3, new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }), { expiresIn: expiresSeconds });
  }
}
