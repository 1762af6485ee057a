/**
 * Samples uploaded straight to storage with presigned URLs, so their bytes never pass through
 * the API: a single PUT for files up to 16 MB, parts of 16 MB above that. The bytes land under
 * `tmp/` (the bucket's lifecycle rule expires what is left there, and aborts unfinished
 * multipart uploads); when the browser says it is done, the server reads the upload back, checks
 * it as any sample (functions/capabilities/pvc/samples.ts), stores it under the voice and removes the rest.
 *
 * On AWS the parts are an S3 multipart upload (create, presigned UploadPart URLs, complete,
 * abort). The embedded store has no ListParts or abort, so there each part is an object of its
 * own, put through the same presigned-PUT path, and joined on completion (decision record
 * 2026-11-23-pvc-uploads). A network error loses at most the parts in flight: asking for the
 * upload again lists the parts already stored and gives fresh URLs for the rest.
 *
 * Uploads are bounded: at most PVC.maxPendingUploadsPerVoice / PerWorkspace in progress, and
 * their bytes count against the voice's room as if they were samples already; URLs live 15
 * minutes, and an upload not asked about for that long (plus a grace for a PUT under way) is
 * ignored and its bytes are dropped (`reapUploads`: when the workspace starts another upload, and
 * by the embedded store's sweep). A completed or aborted upload takes no more bytes: on S3 every
 * upload, even a single PUT, is a multipart upload, whose URLs die with it; the embedded /storage
 * origin refuses a PUT whose upload record is gone (`liveUploadFor`).
 */
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { PvcUploadRecord } from "../../platform/stores/pvcUploads.js";
import type { Presigner } from "../../platform/adapters/presign.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { newId } from "../../platform/adapters/ids.js";
import { ApiError } from "../../platform/http/errors.js";
import { PVC } from "../../platform/contract/pvc.js";
import { ownPvcVoice } from "./records.js";
import { addPvcSample, checkRoom, pvcSampleErrors } from "./samples.js";

export interface UploadPartUrl {
  part_number: number;
  url: string;
  size_bytes: number;
  /** Headers the PUT must carry exactly (they are signed). */
  headers: Record<string, string>;
}

export interface UploadTicket {
  upload_id: string;
  expires_at_unix: number;
  /** "single": one PUT to `url`; "multipart": one PUT per part. */
  kind: "single" | "multipart";
  url: string | null;
  headers: Record<string, string>;
  parts: UploadPartUrl[];
  /** Parts already stored (on a resumed upload). */
  uploaded_parts: number[];
}

const uploadNotFound = (id: string) => new ApiError(404, "upload_not_found", `No upload ${id} is in progress.`);
const tooManyUploads = (where: string, max: number) =>
  new ApiError(429, "too_many_pending_uploads", `${where} already has ${max} uploads in progress. Complete or cancel one before starting another (unused uploads expire after ${PVC.uploadUrlSeconds / 60} minutes).`);
const recordExpiry = (nowUnix: number) => nowUnix + PVC.uploadUrlSeconds + PVC.uploadGraceSeconds;
const sourceKey = (ws: string, uploadId: string) => `tmp/${workspaceKey(ws, "pvc", uploadId)}/source`;
const partKey = (source: string, n: number) => `${source}.part-${String(n).padStart(5, "0")}`;
const embedded = (ctx: AppContext) => ctx.config.mode === "embedded";

function partSizes(total: number, partBytes: number): number[] {
  const out: number[] = [];
  for (let left = total; left > 0; left -= partBytes) out.push(Math.min(partBytes, left));
  return out;
}

async function partUrls(ctx: AppContext, p: Presigner, u: PvcUploadRecord, skip: Set<number>): Promise<UploadPartUrl[]> {
  const sizes = partSizes(u.size_bytes, u.part_bytes!);
  const out: UploadPartUrl[] = [];
  for (const [i, size] of sizes.entries()) {
    const n = i + 1;
    if (skip.has(n)) continue;
    if (embedded(ctx)) {
      out.push({ part_number: n, size_bytes: size, url: await p.put(partKey(u.object_key, n), "application/octet-stream", size, PVC.uploadUrlSeconds), headers: { "content-type": "application/octet-stream" } });
    } else {
      out.push({ part_number: n, size_bytes: size, url: await p.uploadPart(u.object_key, u.multipart_upload_id!, n, size, PVC.uploadUrlSeconds), headers: {} });
    }
  }
  return out;
}

export interface StartUpload {
  file_name: string;
  content_type: string;
  size_bytes: number;
  remove_background_noise: boolean;
  skip_warnings: string[];
}

export async function startUpload(ctx: AppContext, caller: Caller, voiceId: string, body: StartUpload, presigner: Presigner): Promise<UploadTicket> {
  const v = await ownPvcVoice(ctx, caller, voiceId);
  if (body.size_bytes > PVC.batchBytes) throw pvcSampleErrors.batchTooLarge();
  const ws = caller.workspaceId;
  const now = Math.floor(ctx.now() / 1000);
  const all = await ctx.stores.pvcUploads.list(ws);
  const live = all.filter((u) => u.expires_at_unix >= now);
  const expired = all.filter((u) => u.expires_at_unix < now);
  if (expired.length) void reapUploads(ctx, expired).catch((e: unknown) => ctx.log.warn("dropping expired uploads failed", { error: e }));
  const forVoice = live.filter((u) => u.voice_id === voiceId);
  if (forVoice.length >= PVC.maxPendingUploadsPerVoice) throw tooManyUploads("This voice", PVC.maxPendingUploadsPerVoice);
  if (live.length >= PVC.maxPendingUploadsPerWorkspace) throw tooManyUploads("This workspace", PVC.maxPendingUploadsPerWorkspace);
  // Uploads in progress count as the samples they will become.
  checkRoom(v.samples, { count: 1 + forVoice.length, bytes: body.size_bytes + forVoice.reduce((n, u) => n + u.size_bytes, 0) });
  const uploadId = newId();
  const key = sourceKey(ws, uploadId);
  const multipart = body.size_bytes > PVC.singlePutBytes;
  // The content type is signed into the URL: a value a browser could not send is replaced.
  const contentType = /^[\w.+-]+\/[\w.+-]+$/.test(body.content_type) ? body.content_type : "application/octet-stream";
  const record: PvcUploadRecord = {
    upload_id: uploadId,
    workspace_id: ws,
    voice_id: voiceId,
    user_id: caller.userId,
    file_name: body.file_name,
    content_type: contentType,
    size_bytes: body.size_bytes,
    object_key: key,
    // On S3 a single PUT is a one-part multipart upload too: completing or aborting it ends its URL.
    multipart_upload_id: embedded(ctx) ? null : await ctx.blobs.createMultipart(key, contentType),
    part_bytes: multipart ? PVC.partBytes : null,
    remove_background_noise: body.remove_background_noise,
    skip_warnings: body.skip_warnings,
    created_at_unix: now,
    expires_at_unix: recordExpiry(now),
  };
  await ctx.stores.pvcUploads.put(record);
  return ticket(ctx, record, presigner, new Set());
}

async function ticket(ctx: AppContext, u: PvcUploadRecord, p: Presigner, done: Set<number>): Promise<UploadTicket> {
  const expires = Math.floor(ctx.now() / 1000) + PVC.uploadUrlSeconds;
  if (u.part_bytes === null) {
    return {
      upload_id: u.upload_id,
      expires_at_unix: expires,
      kind: "single",
      url: u.multipart_upload_id ? await p.uploadPart(u.object_key, u.multipart_upload_id, 1, u.size_bytes, PVC.uploadUrlSeconds) : await p.put(u.object_key, u.content_type, u.size_bytes, PVC.uploadUrlSeconds),
      headers: u.multipart_upload_id ? {} : { "content-type": u.content_type },
      parts: [],
      uploaded_parts: [],
    };
  }
  return { upload_id: u.upload_id, expires_at_unix: expires, kind: "multipart", url: null, headers: {}, parts: await partUrls(ctx, p, u, done), uploaded_parts: [...done].sort((a, b) => a - b) };
}

async function ownUpload(ctx: AppContext, caller: Caller, voiceId: string, uploadId: string): Promise<PvcUploadRecord> {
  await ownPvcVoice(ctx, caller, voiceId);
  const u = await ctx.stores.pvcUploads.get(caller.workspaceId, uploadId, Math.floor(ctx.now() / 1000));
  if (!u || u.voice_id !== voiceId) throw uploadNotFound(uploadId);
  return u;
}

/** Parts stored so far, with their sizes. */
async function storedParts(ctx: AppContext, u: PvcUploadRecord): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (u.multipart_upload_id) {
    for (const p of await ctx.blobs.listParts(u.object_key, u.multipart_upload_id)) out.set(p.partNumber, p.size);
  } else if (u.part_bytes !== null) {
    for (const o of await ctx.blobs.listWithSizes(`${u.object_key}.part-`)) out.set(Number(o.key.slice(-5)), o.size);
  }
  return out;
}

/** A resumed upload: what is stored, and fresh URLs for the rest. */
export async function uploadStatus(ctx: AppContext, caller: Caller, voiceId: string, uploadId: string, presigner: Presigner): Promise<UploadTicket> {
  const u = await ownUpload(ctx, caller, voiceId, uploadId);
  const sizes = partSizes(u.size_bytes, u.part_bytes ?? u.size_bytes);
  const stored = await storedParts(ctx, u);
  const done = new Set([...stored].filter(([n, size]) => sizes[n - 1] === size).map(([n]) => n));
  // Fresh URLs: the upload lives as long as they do.
  if (!(await ctx.stores.pvcUploads.extend(caller.workspaceId, uploadId, recordExpiry(Math.floor(ctx.now() / 1000))))) throw uploadNotFound(uploadId);
  return ticket(ctx, u, presigner, done);
}

/** The browser is done: read the upload back, check and store it as a sample. */
export async function completeUpload(ctx: AppContext, caller: Caller, voiceId: string, uploadId: string) {
  const u = await ownUpload(ctx, caller, voiceId, uploadId);
  const incomplete = () => new ApiError(400, "upload_incomplete", "The upload is not complete: send the missing parts, then complete it again.");
  let bytes: Uint8Array;
  let leftovers: string[] = [u.object_key];
  if (u.multipart_upload_id) {
    // S3: completing the multipart upload also ends every URL handed out for it.
    const sizes = partSizes(u.size_bytes, u.part_bytes ?? u.size_bytes);
    const parts = await ctx.blobs.listParts(u.object_key, u.multipart_upload_id);
    const stored = new Map(parts.map((p) => [p.partNumber, p.size]));
    if (parts.length !== sizes.length || sizes.some((size, i) => stored.get(i + 1) !== size)) throw incomplete();
    await ctx.blobs.completeMultipart(u.object_key, u.multipart_upload_id, parts);
    const o = await ctx.blobs.getBytes(u.object_key);
    if (!o) throw incomplete();
    bytes = o.bytes;
  } else if (u.part_bytes === null) {
    const o = await ctx.blobs.getBytes(u.object_key);
    if (!o || o.bytes.byteLength !== u.size_bytes) throw incomplete();
    bytes = o.bytes;
  } else {
    const sizes = partSizes(u.size_bytes, u.part_bytes);
    const stored = await storedParts(ctx, u);
    if (sizes.some((size, i) => stored.get(i + 1) !== size)) throw incomplete();
    const keys = sizes.map((_, i) => partKey(u.object_key, i + 1));
    const parts = await Promise.all(keys.map((k) => ctx.blobs.getBytes(k)));
    if (parts.some((p) => !p)) throw incomplete();
    bytes = Buffer.concat(parts.map((p) => p!.bytes));
    leftovers = keys;
  }
  if (bytes.byteLength !== u.size_bytes) throw incomplete();
  // One completion only: a second request for the same upload finds nothing to complete.
  if (!(await ctx.stores.pvcUploads.take(caller.workspaceId, uploadId))) throw uploadNotFound(uploadId);
  try {
    return await addPvcSample(ctx, caller, voiceId, { bytes, fileName: u.file_name, removeBackgroundNoise: u.remove_background_noise, skipWarnings: u.skip_warnings });
  } finally {
    await ctx.blobs.deleteMany(leftovers).catch(() => undefined);
  }
}

export async function abortUpload(ctx: AppContext, caller: Caller, voiceId: string, uploadId: string): Promise<void> {
  const u = await ownUpload(ctx, caller, voiceId, uploadId);
  await dropUpload(ctx, u);
}

/** The record first (the embedded origin then refuses its URLs), then the multipart upload and the bytes. */
async function dropUpload(ctx: AppContext, u: PvcUploadRecord): Promise<void> {
  await ctx.stores.pvcUploads.take(u.workspace_id, u.upload_id);
  if (u.multipart_upload_id) await ctx.blobs.abortMultipart(u.object_key, u.multipart_upload_id).catch(() => undefined);
  await ctx.blobs.deleteMany([u.object_key, ...(await ctx.blobs.list(`${u.object_key}.part-`))]);
}

/** Drops expired uploads with their bytes. */
export async function reapUploads(ctx: AppContext, uploads: PvcUploadRecord[]): Promise<void> {
  for (const u of uploads) await dropUpload(ctx, u);
}

/** Where presigned uploads land: tmp/ws/{ws}/pvc/{upload_id}/... */
const UPLOAD_KEY = /^tmp\/ws\/([^/]+)\/pvc\/([^/]+)\//;

/**
 * The upload in progress that may write `key` (the embedded /storage origin asks before taking a
 * PUT), or undefined: a completed, aborted or expired upload takes no more bytes.
 */
export async function liveUploadFor(ctx: AppContext, key: string): Promise<PvcUploadRecord | undefined> {
  const m = UPLOAD_KEY.exec(key);
  if (!m) return undefined;
  const u = await ctx.stores.pvcUploads.get(m[1], m[2], Math.floor(ctx.now() / 1000));
  if (!u || !(key === u.object_key || (u.part_bytes !== null && key.startsWith(`${u.object_key}.part-`)))) return undefined;
  return u;
}

/**
 * The embedded store's sweep of tmp/ (it has no lifecycle rules): the bytes of uploads that are no
 * longer in progress, and the expired records of those uploads. Returns the objects deleted.
 */
export async function sweepUploads(ctx: AppContext): Promise<number> {
  const now = Math.floor(ctx.now() / 1000);
  const byUpload = new Map<string, string[]>();
  for (const key of await ctx.blobs.list("tmp/ws/")) {
    const m = UPLOAD_KEY.exec(key);
    if (!m) continue;
    const id = `${m[1]}/${m[2]}`;
    byUpload.set(id, [...(byUpload.get(id) ?? []), key]);
  }
  let deleted = 0;
  const workspaces = new Set<string>();
  for (const [id, keys] of byUpload) {
    const [ws, uploadId] = id.split("/");
    workspaces.add(ws);
    if (await ctx.stores.pvcUploads.get(ws, uploadId, now)) continue;
    await ctx.blobs.deleteMany(keys);
    deleted += keys.length;
  }
  for (const ws of workspaces) {
    const expired = (await ctx.stores.pvcUploads.list(ws)).filter((u) => u.expires_at_unix < now);
    await reapUploads(ctx, expired);
  }
  return deleted;
}
