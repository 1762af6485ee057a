import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import type { HttpHandlerOptions, HttpRequest, HttpResponse } from "@smithy/types";
import { EMULATOR_KEY_HEADER, type SdkRequestHandler } from "../../functions/platform/adapters/aws.js";
import { spawnWorker } from "../../functions/media/workers/pool.js";
import type { EmulatorWorkerData, FromEmulator, ToEmulator } from "./emulators-worker.js";
import { repairIndexes, type RepairReport } from "./store-repair.js";

/**
 * dynalite and s3rver, each on a worker thread of this process (emulators-worker.ts: their CPU
 * work stays off the request loop). Each listens on loopback behind a guard that refuses, before
 * the emulator sees it, every request without this run's random key (a header only the
 * product's SDK clients add): neither checks signatures, and an open port would hand every
 * tenant's data to any local process or web page.
 */
export interface Emulators {
  dynamo: string;
  s3: string;
  /**
   * The product's DynamoDB and S3 clients send their requests through these (absent in front of
   * LocalStack): posted to the emulator's thread, which makes the HTTP request there.
   */
  dynamoHandler?: SdkRequestHandler;
  s3Handler?: SdkRequestHandler;
  /** The S3 emulator's own store (absent in front of LocalStack). */
  store?: InProcessStore;
  /** The per-run key; `npm run seed` reads it from the lock file (0600 in a 0700 folder). */
  key: string;
  /** Set when the previous run on this folder did not stop cleanly and the indexes were rebuilt. */
  repaired?: RepairReport;
  /**
   * In memory only (tests): writes what both stores hold now into the folder `dir` (made here;
   * left as it is when another process made it first), for startEmulators' `from`.
   */
  saveSnapshot?(dir: string): Promise<void>;
  close(): Promise<void>;
}

/** A snapshot folder's DynamoDB entries (tables, items and indexes, as dynalite stores them) and its S3 folder. */
const SNAPSHOT_DYNAMO = "dynamodb.json";
const SNAPSHOT_S3 = "s3";

/** Whether `dir` holds a whole snapshot (saveSnapshot renames it into place once written). */
export function isSnapshot(dir: string): boolean {
  return existsSync(join(dir, SNAPSHOT_DYNAMO));
}

/**
 * Writes and deletes objects with s3rver's store itself: what its PUT handler does once it has
 * parsed a request, without the HTTP hop. The /storage origin streams presigned uploads through
 * it (storage-route.ts), after its own checks; nothing a browser sends reaches it otherwise.
 */
export interface InProcessStore {
  /** Resolves once the object is whole; a body that breaks off rejects it and leaves no object (nor replaces one). */
  put(bucket: string, key: string, body: Readable, contentType: string): Promise<{ etag: string; size: number }>;
  delete(bucket: string, key: string): Promise<void>;
}

/** Bytes of one put posted to the S3 thread and not yet read by its store. */
const PUT_WINDOW = 2 * 1024 * 1024;

/** An emulator's thread: started, answering the store's requests, closed. */
class EmulatorThread {
  private readonly worker: Worker;
  private readonly waiters = new Map<number, { settle: (m: FromEmulator) => void; pull?: () => void }>();
  /** Requests answered in several messages (threadRequestHandler). */
  private readonly listeners = new Map<number, (m: FromEmulator) => void>();
  private nextId = 1;
  private closing = false;
  private exited = false;
  readonly ready: Promise<number>;
  private closed?: () => void;

  constructor(data: EmulatorWorkerData, onDeath: (e: Error) => void) {
    this.worker = spawnWorker({ ts: new URL("./emulators-worker.ts", import.meta.url), js: new URL("./emulators-worker.js", import.meta.url) }, import.meta.url, { workerData: data });
    this.ready = new Promise<number>((resolve, reject) => {
      this.worker.on("message", (m: FromEmulator) => {
        if (m.kind === "ready") resolve(m.port);
        else if (m.kind === "failed") reject(new Error(`the embedded ${data.kind === "dynamo" ? "DynamoDB" : "S3"} did not start: ${m.message}`));
        else if (m.kind === "closed") this.closed?.();
        else if (m.kind === "pull") this.waiters.get(m.id)?.pull?.();
        else if ("id" in m && this.listeners.has(m.id)) this.listeners.get(m.id)!(m);
        else this.waiters.get(m.id)?.settle(m);
      });
      const died = (e: Error) => {
        reject(e);
        for (const w of this.waiters.values()) w.settle({ kind: "store-failed", id: 0, message: e.message });
        this.waiters.clear();
        for (const [id, l] of [...this.listeners]) l({ kind: "request-failed", id, message: e.message });
        this.listeners.clear();
        if (!this.closing) onDeath(e);
      };
      this.worker.on("error", died);
      this.worker.on("exit", (code) => {
        this.exited = true;
        this.closed?.();
        died(new Error(`the embedded ${data.kind} thread exited (${code})`));
      });
    });
  }

  send(m: ToEmulator, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(m, transfer);
  }

  /** Registers a request's answer; `pull` is called each time its store reads on. */
  expect(pull?: () => void): { id: number; answer: Promise<FromEmulator> } {
    const id = this.nextId++;
    const answer = new Promise<FromEmulator>((settle) => this.waiters.set(id, { settle, pull }));
    return { id, answer: answer.finally(() => this.waiters.delete(id)) };
  }

  /** Registers a listener for every message about a new request id, until `done()`. */
  listen(onMessage: (m: FromEmulator) => void): { id: number; done: () => void } {
    const id = this.nextId++;
    this.listeners.set(id, onMessage);
    return { id, done: () => this.listeners.delete(id) };
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.exited) return;
    // Requests already under way are answered before the thread stops (for up to 2 s): work that
    // outlives the requests which started it (a sample stored while a clone's fit runs, a live
    // reading's last write) otherwise got "thread exited" at shutdown, as an unhandled rejection
    // where nobody awaited it any more.
    for (const until = Date.now() + 2000; (this.waiters.size || this.listeners.size) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
    const closed = new Promise<void>((r) => (this.closed = r));
    this.send({ kind: "close" });
    await Promise.race([closed, new Promise((r) => setTimeout(r, 10_000).unref())]);
    await this.worker.terminate();
  }
}

/** The /storage origin's writes, posted to the S3 thread as they arrive (with its store's backpressure). */
function threadStore(s3: EmulatorThread): InProcessStore {
  const failed = (m: FromEmulator) => new Error(m.kind === "store-failed" ? m.message : `unexpected answer ${m.kind}`);
  const store: InProcessStore = {
    async put(bucket, key, body, contentType) {
      let inFlight = 0;
      let wake: (() => void) | undefined;
      const { id, answer } = s3.expect(() => {
        inFlight = 0;
        wake?.();
      });
      s3.send({ kind: "put", id, bucket, key, contentType });
      let settled = false;
      const done = answer.then((m) => {
        settled = true;
        wake?.();
        return m;
      });
      let broke: unknown;
      try {
        for await (const c of body) {
          if (settled) break;
          // Copied, then moved: the caller's buffers stay the caller's.
          const chunk = new Uint8Array(c as Buffer);
          s3.send({ kind: "chunk", id, chunk }, [chunk.buffer]);
          inFlight += chunk.byteLength;
          while (inFlight > PUT_WINDOW && !settled) await new Promise<void>((r) => (wake = r));
        }
      } catch (e) {
        broke = e;
      }
      if (broke !== undefined) {
        // Nothing of a body that broke off is kept: the store drops the file it was writing.
        s3.send({ kind: "abort", id, message: broke instanceof Error ? broke.message : String(broke) });
        await done;
        throw broke;
      }
      s3.send({ kind: "end", id });
      const m = await done;
      if (m.kind !== "stored") throw failed(m);
      // The ETag s3rver's PUT answers with.
      return { etag: JSON.stringify(m.md5), size: m.size };
    },
    async delete(bucket, key) {
      const { id, answer } = s3.expect();
      s3.send({ kind: "delete", id, bucket, key });
      const m = await answer;
      if (m.kind !== "deleted") throw failed(m);
    },
  };
  return store;
}

/** Request bodies larger than this go to the thread in chunks of REQUEST_CHUNK_BYTES, a window at a time. */
const WHOLE_REQUEST_BYTES = 256 * 1024;
const REQUEST_CHUNK_BYTES = 256 * 1024;
const REQUEST_WINDOW_BYTES = 2 * 1024 * 1024;

const abortError = () => Object.assign(new Error("Request aborted"), { name: "AbortError" });

/** A streamed response's body on this side: chunks pushed as they come; full, it asks the thread to pause. */
class ThreadResponseBody extends Readable {
  private paused = false;
  ended = false;

  constructor(private readonly onPause: (pause: boolean) => void, private readonly onCancel: () => void) {
    super();
  }

  add(chunk: Uint8Array): void {
    if (!this.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)) && !this.paused) {
      this.paused = true;
      this.onPause(true);
    }
  }

  override _read(): void {
    if (!this.paused) return;
    this.paused = false;
    this.onPause(false);
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    if (!this.ended) this.onCancel();
    done(err);
  }
}

/**
 * An SDK request handler (the shape of the SDK's HttpHandler) that posts each request to an
 * emulator's thread: what the SDK builds, signs and parses is unchanged, only the socket work
 * leaves the request loop. Bodies are copied into buffers that move to the thread (large ones in
 * chunks, so no turn of the loop copies more than REQUEST_CHUNK_BYTES); a large response streams
 * back with backpressure. `streamResponses`: S3's client reads bodies as streams; DynamoDB's is
 * handed the bytes when they came whole.
 */
function threadRequestHandler(thread: EmulatorThread, opts: { streamResponses: boolean }): SdkRequestHandler {
  return {
    metadata: { handlerProtocol: "http/1.1" },
    handle(request: HttpRequest, options: HttpHandlerOptions = {}): Promise<{ response: HttpResponse }> {
      const signal = options.abortSignal as AbortSignal | undefined;
      if (signal?.aborted) return Promise.reject(abortError());
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(request.query ?? {})) for (const one of Array.isArray(v) ? v : [v]) query.append(k, one ?? "");
      const path = query.size ? `${request.path}?${query}` : request.path;
      const body = request.body as unknown;
      const stream = body instanceof Readable ? body : undefined;
      if (body !== undefined && body !== null && !stream && typeof body !== "string" && !(body instanceof Uint8Array)) {
        return Promise.reject(new Error("the embedded emulators take string, byte or Node stream bodies"));
      }
      const bytes = stream ? undefined : (body as string | Uint8Array | null | undefined) ?? undefined;
      const streamed = stream !== undefined || (bytes instanceof Uint8Array && bytes.byteLength > WHOLE_REQUEST_BYTES);

      return new Promise<{ response: HttpResponse }>((resolve, reject) => {
        let settled = false;
        let finished = false;
        let responseBody: ThreadResponseBody | undefined;
        let inFlight = 0;
        let wake: (() => void) | undefined;
        const finish = () => {
          finished = true;
          reg.done();
          signal?.removeEventListener("abort", onAbort);
          wake?.();
        };
        const fail = (e: Error) => {
          if (finished) return;
          finish();
          if (!settled) {
            settled = true;
            reject(e);
          } else if (responseBody) {
            // A body nobody reads any more (its reader left, or the store is closing) ends quietly:
            // an error nobody listens for would end the process.
            responseBody.destroy(responseBody.listenerCount("error") > 0 ? e : undefined);
          }
        };
        const answer = (status: number, headers: Record<string, string>, b: Uint8Array | Readable) => {
          settled = true;
          resolve({ response: { statusCode: status, reason: undefined, headers, body: b } });
        };
        const reg = thread.listen((m) => {
          switch (m.kind) {
            case "response": {
              finish();
              if (!opts.streamResponses) return answer(m.status, m.headers, m.body);
              const whole = new ThreadResponseBody(() => undefined, () => undefined);
              whole.ended = true;
              whole.add(m.body);
              whole.push(null);
              return answer(m.status, m.headers, whole);
            }
            case "response-head": {
              responseBody = new ThreadResponseBody(
                (pause) => thread.send({ kind: pause ? "response-pause" : "response-resume", id: reg.id }),
                () => {
                  if (finished) return;
                  finish();
                  thread.send({ kind: "request-cancel", id: reg.id, message: "the reader went away" });
                },
              );
              for (const c of m.chunks) responseBody.add(c);
              return answer(m.status, m.headers, responseBody);
            }
            case "response-chunk":
              responseBody?.add(m.chunk);
              return;
            case "response-end":
              finish();
              if (responseBody) {
                responseBody.ended = true;
                responseBody.push(null);
              }
              return;
            case "request-pull":
              inFlight -= m.bytes;
              wake?.();
              return;
            case "request-failed":
              return fail(Object.assign(new Error(m.message), { code: m.code }));
            default:
              return fail(new Error(`unexpected answer ${m.kind}`));
          }
        });
        const onAbort = () => {
          if (finished) return;
          thread.send({ kind: "request-cancel", id: reg.id, message: "aborted" });
          fail(abortError());
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        if (!streamed) {
          // Exactly its bytes, moved: cloning a view would copy the whole buffer it is cut from.
          const whole = bytes instanceof Uint8Array ? new Uint8Array(bytes) : bytes;
          thread.send({ kind: "request", id: reg.id, method: request.method, path, headers: request.headers, body: whole }, whole instanceof Uint8Array ? [whole.buffer as ArrayBuffer] : []);
          return;
        }
        thread.send({ kind: "request", id: reg.id, method: request.method, path, headers: request.headers, streamed });
        void (async () => {
          try {
            const pieces: AsyncIterable<unknown> | Iterable<Uint8Array> = stream ?? chunksOf(bytes as Uint8Array, REQUEST_CHUNK_BYTES);
            for await (const c of pieces) {
              if (finished) return;
              // Copied, then moved: the caller's buffers stay the caller's.
              const chunk = typeof c === "string" ? new Uint8Array(Buffer.from(c)) : new Uint8Array(c as Uint8Array);
              thread.send({ kind: "request-chunk", id: reg.id, chunk }, [chunk.buffer as ArrayBuffer]);
              inFlight += chunk.byteLength;
              while (inFlight > REQUEST_WINDOW_BYTES && !finished) await new Promise<void>((r) => (wake = r));
            }
            if (!finished) thread.send({ kind: "request-end", id: reg.id });
          } catch (e) {
            if (finished) return;
            thread.send({ kind: "request-cancel", id: reg.id, message: e instanceof Error ? e.message : String(e) });
            fail(e instanceof Error ? e : new Error(String(e)));
          }
        })();
      });
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  };
}

function* chunksOf(bytes: Uint8Array, size: number): Iterable<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += size) yield bytes.subarray(at, at + size);
}

/** Owner-only: the data folder and the folders the emulators write into. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * On disk under the data folder, or in memory and a temporary folder (tests). In memory, `from`
 * names a snapshot folder (Emulators.saveSnapshot) both stores start with.
 */
export async function startEmulators(dataDir: string | undefined, opts: { from?: string } = {}): Promise<Emulators> {
  if (dataDir && opts.from) throw new Error("a data folder is not loaded from a snapshot");
  const key = randomBytes(32).toString("base64url");
  const s3Dir = dataDir ? join(dataDir, "s3") : mkdtempSync(join(tmpdir(), "timbre-s3-"));
  privateDir(s3Dir);
  if (opts.from) cpSync(join(opts.from, SNAPSHOT_S3), s3Dir, { recursive: true });
  const dynamoDir = dataDir ? join(dataDir, "dynamodb") : undefined;
  // Present while a store runs on the folder: found at start, the last run was killed mid-write.
  const openMarker = dataDir ? join(dataDir, "dynamodb.open") : undefined;
  let repaired: RepairReport | undefined;
  if (dynamoDir) {
    privateDir(dynamoDir);
    if (existsSync(openMarker!)) repaired = await repairIndexes(dynamoDir);
    writeFileSync(openMarker!, `${process.pid}\n`, { mode: 0o600 });
  }
  const onDeath = (e: Error) => {
    // As when the emulators ran on the request loop: the product cannot go on without its store.
    setImmediate(() => {
      throw e;
    });
  };
  const header = EMULATOR_KEY_HEADER;
  const dynamo = new EmulatorThread({ kind: "dynamo", path: dynamoDir, key, header, from: opts.from ? join(opts.from, SNAPSHOT_DYNAMO) : undefined }, onDeath);
  const s3 = new EmulatorThread({ kind: "s3", directory: s3Dir, reset: !dataDir, key, header }, onDeath);
  let ports: number[];
  try {
    ports = await Promise.all([dynamo.ready, s3.ready]);
  } catch (e) {
    await Promise.all([dynamo.close(), s3.close()]);
    throw e;
  }
  return {
    dynamo: `http://127.0.0.1:${ports[0]}`,
    s3: `http://127.0.0.1:${ports[1]}`,
    dynamoHandler: threadRequestHandler(dynamo, { streamResponses: false }),
    s3Handler: threadRequestHandler(s3, { streamResponses: true }),
    store: threadStore(s3),
    key,
    repaired,
    saveSnapshot: dataDir
      ? undefined
      : async (dir) => {
          if (isSnapshot(dir)) return;
          // Written beside it, then renamed into place: a reader never sees half a snapshot, and
          // of two processes saving at once the first one's stays.
          const partial = `${dir}.writing-${process.pid}-${randomBytes(4).toString("hex")}`;
          privateDir(partial);
          try {
            const { id, answer } = dynamo.expect();
            dynamo.send({ kind: "save", id, file: join(partial, SNAPSHOT_DYNAMO) });
            const m = await answer;
            if (m.kind !== "saved") throw new Error(m.kind === "store-failed" ? m.message : `unexpected answer ${m.kind}`);
            cpSync(s3Dir, join(partial, SNAPSHOT_S3), { recursive: true });
            try {
              renameSync(partial, dir);
            } catch (e) {
              if (!isSnapshot(dir)) throw e;
            }
          } finally {
            rmSync(partial, { recursive: true, force: true });
          }
        },
    async close() {
      await Promise.all([s3.close(), dynamo.close()]);
      if (openMarker) rmSync(openMarker, { force: true });
      if (!dataDir) rmSync(s3Dir, { recursive: true, force: true });
    },
  };
}
