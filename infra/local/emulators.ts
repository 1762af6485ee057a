import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import type { HttpHandlerOptions, HttpRequest, HttpResponse } from "@smithy/types";
import { EMULATOR_KEY_HEADER, type DynamoRequestHandler } from "../../functions/adapters/aws.js";
import { spawnWorker } from "../../functions/adapters/worker-threads.js";
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
   * The product's DynamoDB client sends its requests through this (absent in front of LocalStack):
   * posted to the emulator's thread, which makes the HTTP request there.
   */
  dynamoHandler?: DynamoRequestHandler;
  /** The S3 emulator's own store (absent in front of LocalStack). */
  store?: InProcessStore;
  /** The per-run key; `npm run seed` reads it from the lock file (0600 in a 0700 folder). */
  key: string;
  /** Set when the previous run on this folder did not stop cleanly and the indexes were rebuilt. */
  repaired?: RepairReport;
  close(): Promise<void>;
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
        else this.waiters.get(m.id)?.settle(m);
      });
      const died = (e: Error) => {
        reject(e);
        for (const w of this.waiters.values()) w.settle({ kind: "store-failed", id: 0, message: e.message });
        this.waiters.clear();
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

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.exited) return;
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

/**
 * An SDK request handler that posts each request to the DynamoDB thread: what the SDK builds,
 * signs and parses is unchanged, only the socket work moves off the request loop.
 */
function threadRequestHandler(dynamo: EmulatorThread): DynamoRequestHandler {
  return {
    metadata: { handlerProtocol: "http/1.1" },
    async handle(request: HttpRequest, options: HttpHandlerOptions = {}): Promise<{ response: HttpResponse }> {
      const signal = options.abortSignal as AbortSignal | undefined;
      const aborted = () => Object.assign(new Error("Request aborted"), { name: "AbortError" });
      if (signal?.aborted) throw aborted();
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(request.query ?? {})) for (const one of Array.isArray(v) ? v : [v]) query.append(k, one ?? "");
      const path = query.size ? `${request.path}?${query}` : request.path;
      const body = request.body as unknown;
      if (body !== undefined && typeof body !== "string" && !(body instanceof Uint8Array)) throw new Error("the embedded DynamoDB takes string or byte bodies");
      const { id, answer } = dynamo.expect();
      dynamo.send({ kind: "request", id, method: request.method, path, headers: request.headers, body: body as string | Uint8Array | undefined });
      const m = await (signal ? Promise.race([answer, new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(aborted()), { once: true }))]) : answer);
      if (m.kind !== "response") throw Object.assign(new Error(m.kind === "request-failed" || m.kind === "store-failed" ? m.message : `unexpected answer ${m.kind}`), { code: m.kind === "request-failed" ? m.code : undefined });
      return { response: { statusCode: m.status, reason: undefined, headers: m.headers, body: m.body } };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  };
}

/** Owner-only: the data folder and the folders the emulators write into. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** On disk under the data folder, or in memory and a temporary folder (tests). */
export async function startEmulators(dataDir: string | undefined): Promise<Emulators> {
  const key = randomBytes(32).toString("base64url");
  const s3Dir = dataDir ? join(dataDir, "s3") : mkdtempSync(join(tmpdir(), "timbre-s3-"));
  privateDir(s3Dir);
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
  const dynamo = new EmulatorThread({ kind: "dynamo", path: dynamoDir, key, header }, onDeath);
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
    dynamoHandler: threadRequestHandler(dynamo),
    store: threadStore(s3),
    key,
    repaired,
    async close() {
      await Promise.all([s3.close(), dynamo.close()]);
      if (openMarker) rmSync(openMarker, { force: true });
      if (!dataDir) rmSync(s3Dir, { recursive: true, force: true });
    },
  };
}
