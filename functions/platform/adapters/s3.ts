import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
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

  async getStream(key: string, range?: string): Promise<{ stream: Readable; contentType: string; length?: number; contentRange?: string } | undefined> {
    try {
      const r = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range }));
      return { stream: r.Body as Readable, contentType: r.ContentType ?? "application/octet-stream", length: r.ContentLength, contentRange: r.ContentRange };
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

  /** Keys under a prefix with their sizes and when they were written. */
  async listWithSizes(prefix: string): Promise<Array<{ key: string; size: number; modifiedMs: number }>> {
    const out: Array<{ key: string; size: number; modifiedMs: number }> = [];
    let token: string | undefined;
    do {
      const r = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const o of r.Contents ?? []) if (o.Key) out.push({ key: o.Key, size: o.Size ?? 0, modifiedMs: o.LastModified?.getTime() ?? 0 });
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async deleteMany(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      await this.s3.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
    }
  }

  /** The first `length` bytes (sniffing the type of an upload without reading all of it). */
  async getRange(key: string, length: number): Promise<Uint8Array | undefined> {
    try {
      const r = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${length - 1}` }));
      return await r.Body!.transformToByteArray();
    } catch (e) {
      if ((e as { name?: string }).name === "NoSuchKey") return undefined;
      throw e;
    }
  }

  /** Writes a stream of known length without holding it (the embedded /storage origin). */
  async putStream(key: string, body: Readable, length: number, contentType: string): Promise<{ etag?: string }> {
    const r = await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: length, ContentType: contentType }));
    return { etag: r.ETag };
  }

  async copy(from: string, to: string, contentType: string): Promise<void> {
    await this.s3.send(
      new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: `${this.bucket}/${from.split("/").map(encodeURIComponent).join("/")}`, ContentType: contentType, MetadataDirective: "REPLACE" }),
    );
  }

  // S3 multipart uploads (large browser uploads, in parts, each with its own presigned URL).
  async createMultipart(key: string, contentType: string): Promise<string> {
    const r = await this.s3.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }));
    return r.UploadId!;
  }

  async uploadPartStream(key: string, uploadId: string, partNumber: number, body: Readable, length: number): Promise<{ etag?: string }> {
    const r = await this.s3.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: body, ContentLength: length }));
    return { etag: r.ETag };
  }

  async listParts(key: string, uploadId: string): Promise<Array<{ partNumber: number; etag: string; size: number }>> {
    const out: Array<{ partNumber: number; etag: string; size: number }> = [];
    let marker: string | undefined;
    do {
      const r = await this.s3.send(new ListPartsCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }));
      for (const p of r.Parts ?? []) out.push({ partNumber: p.PartNumber!, etag: p.ETag!, size: p.Size ?? 0 });
      marker = r.IsTruncated ? r.NextPartNumberMarker : undefined;
    } while (marker);
    return out.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(key: string, uploadId: string, parts: Array<{ partNumber: number; etag: string }>): Promise<void> {
    await this.s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
      }),
    );
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    await this.s3.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })).catch((e: unknown) => {
      if ((e as { name?: string }).name !== "NoSuchUpload") throw e;
    });
  }

  /** Presigned PUT for browser uploads; the size and type are checked again on the server after upload. */
  async presignPut(key: string, contentType: string, expiresSeconds = 900): Promise<string> {
    return getSignedUrl(this.s3, new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }), { expiresIn: expiresSeconds });
  }
}
