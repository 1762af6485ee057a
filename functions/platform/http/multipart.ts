import busboy from "busboy";
import { ApiError } from "./errors.js";
import type { ApiRequest } from "./types.js";

/**
 * multipart/form-data bodies (the SDK's uploads, contract §A4): text fields (repeatable;
 * booleans arrive as "true"/"false", objects as JSON strings) and files (repeatable under one
 * name). The body is already in memory; the limits keep a hostile one from growing in parsing.
 */
export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
  /** The file was larger than maxFileBytes (data is cut there). */
  truncated: boolean;
}

export interface MultipartForm {
  fields: Record<string, string[]>;
  files: MultipartFile[];
}

export interface MultipartLimits {
  maxFileBytes: number;
  maxFiles: number;
  maxFields?: number;
  maxFieldBytes?: number;
}

export const isMultipart = (req: ApiRequest) => /^multipart\/form-data\b/i.test(req.headers["content-type"] ?? "");

export function parseMultipart(req: ApiRequest, limits: MultipartLimits): Promise<MultipartForm> {
  if (!isMultipart(req)) {
    return Promise.reject(new ApiError(400, "invalid_content_type", "The request body must be multipart/form-data."));
  }
  return new Promise<MultipartForm>((resolve, reject) => {
    const form: MultipartForm = { fields: {}, files: [] };
    let failed: ApiError | undefined;
    const fail = (e: ApiError) => {
      failed ??= e;
    };
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: { "content-type": req.headers["content-type"] },
        limits: {
          fileSize: limits.maxFileBytes,
          files: limits.maxFiles,
          fields: limits.maxFields ?? 50,
          fieldSize: limits.maxFieldBytes ?? 1024 * 1024,
          parts: limits.maxFiles + (limits.maxFields ?? 50),
        },
        defParamCharset: "utf8",
      });
    } catch {
      reject(new ApiError(400, "invalid_multipart", "The multipart body has no boundary."));
      return;
    }
    bb.on("field", (name, value, info) => {
      if (info.valueTruncated) fail(new ApiError(413, "field_too_large", `The form field ${name} is too large.`));
      (form.fields[name] ??= []).push(value);
    });
    bb.on("file", (field, stream, info) => {
      const chunks: Buffer[] = [];
      const file: MultipartFile = { field, filename: info.filename ?? "blob", contentType: info.mimeType || "application/octet-stream", data: Buffer.alloc(0), truncated: false };
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("limit", () => {
        file.truncated = true;
      });
      stream.on("end", () => {
        file.data = Buffer.concat(chunks);
        form.files.push(file);
      });
    });
    bb.on("filesLimit", () => fail(new ApiError(400, "too_many_files", `At most ${limits.maxFiles} file(s) may be sent.`)));
    bb.on("fieldsLimit", () => fail(new ApiError(400, "too_many_fields", "Too many form fields.")));
    bb.on("partsLimit", () => fail(new ApiError(400, "too_many_parts", "Too many form parts.")));
    bb.on("error", () => reject(failed ?? new ApiError(400, "invalid_multipart", "The multipart body could not be read.")));
    bb.on("close", () => (failed ? reject(failed) : resolve(form)));
    if (req.bodyChunks) feed(bb, req.bodyChunks);
    else bb.end(req.body);
  });
}

/** Bytes parsed per turn of the event loop: a 60 MB upload must not hold the loop for its whole parse. */
const SLICE_BYTES = 256 * 1024;

/** Writes the pieces to the parser a slice at a time, letting other requests run in between. */
function feed(bb: busboy.Busboy, pieces: readonly Buffer[]): void {
  void (async () => {
    let since = 0;
    for (const c of pieces) {
      if (bb.destroyed) return;
      bb.write(c);
      since += c.length;
      if (since >= SLICE_BYTES) {
        since = 0;
        await new Promise<void>((r) => setImmediate(r));
      }
    }
    if (!bb.destroyed) bb.end();
  })();
}

/** The single value of a text field (the last one if repeated), or undefined. */
export function field(form: MultipartForm, name: string): string | undefined {
  return form.fields[name]?.at(-1);
}
