import type { Readable } from "node:stream";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS";

/** A transport-neutral request: built from a Lambda Function URL event (AWS or the local front). */
export interface ApiRequest {
  method: Method;
  path: string;
  query: URLSearchParams;
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /**
   * The same bytes in the pieces they arrived in, when the transport has them so (the local
   * front); `body` then joins them on first read. Multipart parsing reads the pieces.
   */
  bodyChunks?: readonly Buffer[];
  /** Ours; answered in `request-id`. */
  requestId: string;
  /** The caller's own `x-request-id`, echoed back for tracing only. */
  clientRequestId?: string;
  sourceIp: string;
  receivedAt: number;
  params: Record<string, string>;
  /** Aborts when the client closes the connection before the response is written (when the transport tells). */
  signal?: AbortSignal;
}

export type ResponseBody =
  | { kind: "json"; value: unknown }
  | { kind: "bytes"; value: Uint8Array }
  | { kind: "stream"; value: AsyncIterable<Uint8Array> | Readable }
  | { kind: "empty" };

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** Set-Cookie values (a header map cannot repeat a name). */
  cookies?: string[];
  body: ResponseBody;
}

export const json = (value: unknown, status = 200, headers: Record<string, string> = {}): ApiResponse => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: { kind: "json", value },
});

export const bytes = (value: Uint8Array, contentType: string, headers: Record<string, string> = {}, status = 200): ApiResponse => ({
  status,
  headers: { "content-type": contentType, ...headers },
  body: { kind: "bytes", value },
});

export const stream = (value: AsyncIterable<Uint8Array>, contentType: string, headers: Record<string, string> = {}): ApiResponse => ({
  status: 200,
  headers: { "content-type": contentType, ...headers },
  body: { kind: "stream", value },
});
