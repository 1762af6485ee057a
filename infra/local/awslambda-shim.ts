import { Writable } from "node:stream";
import type { ServerResponse } from "node:http";
import type { AwsLambdaGlobal, ResponseStream, StreamMetadata, StreamingHandler } from "../../functions/platform/http/lambda.js";

/**
 * The local stand-in for the `awslambda` global of the Node.js Lambda runtime: response
 * streaming writes straight to the HTTP response, chunk by chunk, like a Function URL in
 * RESPONSE_STREAM mode.
 */
export class LocalResponseStream extends Writable {
  metadata: StreamMetadata | undefined;
  private headSent = false;

  constructor(private readonly res: ServerResponse) {
    super();
    // A browser that leaves mid-response (reload, a newer navigation) makes writes fail with
    // EPIPE; that ends this response only, never the process with an uncaught error.
    this.on("error", () => undefined);
    res.on("close", () => {
      if (!this.writableFinished) this.destroy();
    });
    // A client that left before this stream existed (while its body was read or its credentials
    // checked, seconds on a loaded machine): its close came before the listener above, and a
    // whole answer it never gets would be generated and charged in full.
    if (res.destroyed) this.destroy();
  }

  private head(): void {
    if (this.headSent) return;
    this.headSent = true;
    const m = this.metadata ?? { statusCode: 200, headers: { "content-type": "application/octet-stream" } };
    const headers: Record<string, string | string[]> = { ...m.headers };
    if (m.cookies?.length) headers["set-cookie"] = m.cookies;
    this.res.writeHead(m.statusCode, headers);
    this.res.flushHeaders();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.head();
    if (this.res.destroyed) return cb(new Error("client went away"));
    this.res.write(chunk, (e) => cb(e ?? null));
  }

  override _final(cb: (e?: Error | null) => void): void {
    this.head();
    this.res.end(() => cb());
  }
}

export function installAwsLambdaShim(): void {
  // The AWS SDK itself sets `globalThis.awslambda = {}` (for its invoke store), so fill in
  // the members rather than checking for the object.
  const g = globalThis as { awslambda?: Partial<AwsLambdaGlobal> };
  g.awslambda ??= {};
  g.awslambda.streamifyResponse ??= (handler: StreamingHandler) => handler;
  g.awslambda.HttpResponseStream ??= {
    from(stream: ResponseStream, metadata: StreamMetadata) {
      (stream as LocalResponseStream).metadata = metadata;
      return stream;
    },
  };
}
