import { createHash, timingSafeEqual } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { pipeline } from "node:stream/promises";
import { Agent, request, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable, Transform } from "node:stream";
import { parentPort, threadId, workerData } from "node:worker_threads";
import dynalite from "dynalite";
import S3rver from "s3rver";

/**
 * One embedded emulator (dynalite or s3rver) on a thread of its own: their parsing, validation,
 * hashing and file work does not run on the request loop (a clone stored 4.5 MB of samples and
 * cost the loop ~45 ms of s3rver and dynalite in stretches of up to 30 ms; decision record
 * 2026-11-27-emulators-off-the-request-loop). The product still talks to them over loopback
 * HTTP with the AWS SDK, as it would to AWS; the S3 thread also takes the /storage origin's
 * uploads straight into s3rver's store, through its port (emulators.ts).
 */
export type EmulatorWorkerData =
  /** `from`: a snapshot file (`save` below) loaded into the in-memory store before it listens (tests). */
  | { kind: "dynamo"; path?: string; key: string; header: string; from?: string }
  | { kind: "s3"; directory: string; reset: boolean; key: string; header: string };

/** To the worker. Chunks of a put arrive in order after its "put"; "end" or "abort" closes it. */
export type ToEmulator =
  | { kind: "close" }
  | { kind: "put"; id: number; bucket: string; key: string; contentType: string }
  | { kind: "chunk"; id: number; chunk: Uint8Array }
  | { kind: "end"; id: number }
  | { kind: "abort"; id: number; message: string }
  | { kind: "delete"; id: number; bucket: string; key: string }
  | { kind: "request"; id: number; method: string; path: string; headers: Record<string, string>; body?: string | Uint8Array; streamed?: boolean }
  /** A streamed request's body, in order; "request-end" ends it, "request-cancel" drops the request. */
  | { kind: "request-chunk"; id: number; chunk: Uint8Array }
  | { kind: "request-end"; id: number }
  | { kind: "request-cancel"; id: number; message: string }
  /** The reader of a streamed response is full, or wants more. */
  | { kind: "response-pause"; id: number }
  | { kind: "response-resume"; id: number }
  /** DynamoDB's in-memory store, every entry (tables, items, indexes) written to `file` (tests: a snapshot of the system data). */
  | { kind: "save"; id: number; file: string };

/** From the worker. "pull": the store took a put's chunks so far and wants more. */
export type FromEmulator =
  | { kind: "ready"; port: number }
  | { kind: "failed"; message: string }
  | { kind: "closed" }
  | { kind: "pull"; id: number }
  | { kind: "stored"; id: number; md5: string; size: number }
  | { kind: "deleted"; id: number }
  | { kind: "saved"; id: number }
  | { kind: "store-failed"; id: number; message: string }
  | { kind: "response"; id: number; status: number; headers: Record<string, string>; body: Uint8Array }
  /** A large response: its head, then its body in chunks, then its end (or "request-failed"). */
  | { kind: "response-head"; id: number; status: number; headers: Record<string, string>; chunks: Uint8Array[] }
  | { kind: "response-chunk"; id: number; chunk: Uint8Array }
  | { kind: "response-end"; id: number }
  /** Bytes of a streamed request body written to the socket: the sender may post that many more. */
  | { kind: "request-pull"; id: number; bytes: number }
  | { kind: "request-failed"; id: number; message: string; code?: string };

/** The parts of s3rver's FilesystemStore used here (s3rver 3: `S3rver#store`). */
interface S3rverStore {
  putObject(object: { bucket: string; key: string; content: Readable | Buffer; metadata: Record<string, string> }): Promise<{ size: number; md5: string }>;
  deleteObject(bucket: string, key: string): Promise<void>;
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
}

let writes = 0;

/**
 * s3rver 3's putObject resolves when its hashing stream has passed the last byte on, not when the
 * file stream behind it has written it: a GET right after a PUT could read a short file (seen
 * with a 5 MB upload: 4 MiB read back), and two puts of one key wrote into the same file. Every
 * put (its HTTP PUT handler's and the uploads') now writes a file of its own beside the object,
 * hashing as it goes, and renames it over the object once written, then writes the metadata as
 * s3rver does. The listing only takes files ending in `._S3rver_object`: the one being written
 * is not an object until it is renamed.
 */
function writeWholeFiles(store: S3rverStore): void {
  store.putObject = async (object) => {
    const file = store.getResourcePath(object.bucket, object.key, "object");
    await mkdir(dirname(file), { recursive: true });
    const partial = `${file}.writing-${threadId}-${++writes}`;
    const md5 = createHash("md5");
    let size = 0;
    const out = createWriteStream(partial);
    try {
      const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          md5.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(content, count, out);
      await rename(partial, file);
    } catch (e) {
      // A body that broke off at once fails the pipeline before the file is even open: the
      // stream opens it afterwards, so the file goes only once the stream has closed.
      if (!out.closed) await new Promise<void>((r) => out.once("close", () => r()));
      await rm(partial, { force: true });
      throw e;
    }
    const digest = md5.digest("hex");
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}

/**
 * Puts a check of this run's key in front of every request listener the server already has.
 * Neither emulator checks signatures, and s3rver answers CORS preflights for any origin: without
 * it an open loopback port hands every tenant's data to any local process or web page. Browsers
 * cannot send the header: a cross-origin request with a custom header needs a preflight, and the
 * guard refuses the preflight too, with no CORS headers.
 */
export function guardServer(server: Server, key: string, header: string): void {
  const expected = Buffer.from(key);
  const inner = server.listeners("request") as RequestListener[];
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const sent = req.headers[header];
    const given = Buffer.from(typeof sent === "string" ? sent : "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(403, { "content-type": "text/plain", connection: "close" });
      res.end("Forbidden");
      req.resume();
      return;
    }
    for (const l of inner) l.call(server, req, res);
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((res, rej) => {
    server.once("error", rej);
    server.listen(0, "127.0.0.1", () => res((server.address() as AddressInfo).port));
  });
}

const port = parentPort;
const data = workerData as EmulatorWorkerData | undefined;
const post = (m: FromEmulator, transfer: ArrayBuffer[] = []) => port!.postMessage(m, transfer);
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A put's body on this side: chunks pushed as they arrive, "pull" sent when the store reads on. */
class IncomingBody extends Readable {
  private waiting = false;
  constructor(private readonly id: number) {
    super({ highWaterMark: 1024 * 1024 });
    // An upload can break off before the store has piped this anywhere (it first makes the
    // object's folder): the store's pipeline still sees the error; unheard, it would end the thread.
    this.on("error", () => undefined);
  }
  add(chunk: Uint8Array): void {
    if (this.push(chunk)) post({ kind: "pull", id: this.id });
    else this.waiting = true;
  }
  override _read(): void {
    if (!this.waiting) return;
    this.waiting = false;
    post({ kind: "pull", id: this.id });
  }
}

/** Responses up to this size go back in one message; larger ones stream in the socket's chunks. */
const WHOLE_RESPONSE_BYTES = 256 * 1024;

/**
 * The product's SDK requests, posted to this thread instead of sent over a socket (emulators.ts,
 * `threadRequestHandler`): the HTTP client's work (the request's writes, the response's parsing)
 * happens here, beside the emulator, and not on the request loop. A body may arrive whole or in
 * chunks ("streamed", acknowledged as written); a response comes back whole when small, else as
 * a head and chunks the reader can pause.
 */
function serveRequests(listenPort: number): void {
  const agent = new Agent({ keepAlive: true });
  const open = new Map<number, { req: ReturnType<typeof request>; res?: IncomingMessage }>();
  port!.on("message", (m: ToEmulator) => {
    switch (m.kind) {
      case "request":
        break;
      case "request-chunk": {
        const o = open.get(m.id);
        const bytes = m.chunk.byteLength;
        o?.req.write(m.chunk, () => post({ kind: "request-pull", id: m.id, bytes }));
        return;
      }
      case "request-end":
        open.get(m.id)?.req.end();
        return;
      case "request-cancel": {
        const o = open.get(m.id);
        open.delete(m.id);
        o?.req.destroy(new Error(m.message));
        o?.res?.destroy();
        return;
      }
      case "response-pause":
        open.get(m.id)?.res?.pause();
        return;
      case "response-resume":
        open.get(m.id)?.res?.resume();
        return;
      default:
        return;
    }
    const id = m.id;
    const failed = (e: NodeJS.ErrnoException) => {
      if (!open.delete(id)) return;
      post({ kind: "request-failed", id, message: e.message, code: e.code });
    };
    // The body is all here or on its way: no waiting for "100 Continue".
    const headers = Object.fromEntries(Object.entries(m.headers).filter(([k]) => k.toLowerCase() !== "expect"));
    const req = request({ host: "127.0.0.1", port: listenPort, method: m.method, path: m.path, headers, agent }, (res) => {
      const entry = open.get(id);
      if (!entry) return void res.destroy();
      entry.res = res;
      const head = () => {
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(", ") : v;
        return h;
      };
      let held: Buffer[] | null = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        if (held) {
          held.push(c);
          size += c.length;
          if (size <= WHOLE_RESPONSE_BYTES) return;
          const chunks = held.map((b) => new Uint8Array(b));
          held = null;
          post({ kind: "response-head", id, status: res.statusCode ?? 500, headers: head(), chunks }, chunks.map((b) => b.buffer as ArrayBuffer));
          return;
        }
        const chunk = new Uint8Array(c);
        post({ kind: "response-chunk", id, chunk }, [chunk.buffer as ArrayBuffer]);
      });
      res.on("error", failed);
      res.on("end", () => {
        if (!open.delete(id)) return;
        if (held) {
          const body = new Uint8Array(Buffer.concat(held, size));
          post({ kind: "response", id, status: res.statusCode ?? 500, headers: head(), body }, [body.buffer as ArrayBuffer]);
        } else post({ kind: "response-end", id });
      });
    });
    open.set(id, { req });
    req.on("error", failed);
    if (!m.streamed) req.end(m.body);
  });
}

/** The parts of dynalite 4's store used for snapshots: its abstract-level database (memory-level when in memory). */
interface DynaliteLevel {
  iterator(options: { keyEncoding: "utf8"; valueEncoding: "utf8" }): { all(): Promise<[string, string][]> };
  batch(ops: { type: "put"; key: string; value: string; keyEncoding: "utf8"; valueEncoding: "utf8" }[]): Promise<void>;
}

/**
 * dynalite in memory, and its store's database. dynalite keeps the store to itself: its `db.create` is
 * wrapped for the one call, as the s3rver store is reached below (and as loudly when it moved).
 */
function inMemoryDynalite(): { server: Server; level: DynaliteLevel } {
  const dbModule = createRequire(import.meta.url)("dynalite/db") as { create: (o: unknown) => { db?: DynaliteLevel } };
  const create = dbModule.create;
  let level: DynaliteLevel | undefined;
  dbModule.create = (o: unknown) => {
    const store = create(o);
    level = store.db;
    return store;
  };
  let server: Server;
  try {
    server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  } finally {
    dbModule.create = create;
  }
  if (typeof level?.iterator !== "function" || typeof level.batch !== "function") throw new Error("dynalite's store is not where this version of Timbre expects it");
  return { server, level };
}

async function startDynamo(d: Extract<EmulatorWorkerData, { kind: "dynamo" }>): Promise<() => Promise<void>> {
  // Snapshots only for the in-memory store (tests); a data folder is never loaded into or saved from here.
  const { server: dyn, level } = d.path ? { server: dynalite({ path: d.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }), level: undefined } : inMemoryDynalite();
  if (d.from && level) {
    const entries = JSON.parse(await readFile(d.from, "utf8")) as [string, string][];
    await level.batch(entries.map(([key, value]) => ({ type: "put", key, value, keyEncoding: "utf8", valueEncoding: "utf8" })));
  }
  if (level) {
    port!.on("message", (m: ToEmulator) => {
      if (m.kind !== "save") return;
      level
        .iterator({ keyEncoding: "utf8", valueEncoding: "utf8" })
        .all()
        .then((entries) => writeFile(m.file, JSON.stringify(entries), { mode: 0o600 }))
        .then(
          () => post({ kind: "saved", id: m.id }),
          (e: unknown) => post({ kind: "store-failed", id: m.id, message: errorText(e) }),
        );
    });
  }
  guardServer(dyn, d.key, d.header);
  const listening = await listen(dyn);
  serveRequests(listening);
  post({ kind: "ready", port: listening });
  return () => new Promise<void>((r) => dyn.close(() => r()));
}

async function startS3(d: Extract<EmulatorWorkerData, { kind: "s3" }>): Promise<() => Promise<void>> {
  const s3rver = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: d.directory, resetOnClose: d.reset });
  const store = (s3rver as unknown as { store?: S3rverStore }).store;
  // Reaching into s3rver's store ties us to s3rver 3's layout: fail the start loudly otherwise.
  if (typeof store?.putObject !== "function" || typeof store.deleteObject !== "function" || typeof store.getResourcePath !== "function" || typeof store.putMetadata !== "function") {
    throw new Error("s3rver's store is not where this version of Timbre expects it");
  }
  writeWholeFiles(store);
  const address = await s3rver.run();
  guardServer((s3rver as unknown as { httpServer: Server }).httpServer, d.key, d.header);
  serveRequests(address.port);
  const bodies = new Map<number, IncomingBody>();
  port!.on("message", (m: ToEmulator) => {
    switch (m.kind) {
      case "put": {
        const body = new IncomingBody(m.id);
        bodies.set(m.id, body);
        store.putObject({ bucket: m.bucket, key: m.key, content: body, metadata: { "content-type": m.contentType } }).then(
          ({ md5, size }) => post({ kind: "stored", id: m.id, md5, size }),
          (e: unknown) => post({ kind: "store-failed", id: m.id, message: errorText(e) }),
        ).finally(() => bodies.delete(m.id));
        return;
      }
      case "chunk":
        bodies.get(m.id)?.add(m.chunk);
        return;
      case "end":
        bodies.get(m.id)?.push(null);
        return;
      case "abort":
        // The put fails and its half-written file goes: no object is left, none is replaced.
        bodies.get(m.id)?.destroy(new Error(m.message));
        return;
      case "delete":
        store.deleteObject(m.bucket, m.key).then(
          () => post({ kind: "deleted", id: m.id }),
          (e: unknown) => post({ kind: "store-failed", id: m.id, message: errorText(e) }),
        );
        return;
    }
  });
  post({ kind: "ready", port: address.port });
  return () => s3rver.close();
}

if (port && data) {
  let close: (() => Promise<void>) | undefined;
  port.on("message", (m: ToEmulator) => {
    if (m.kind !== "close") return;
    (close?.() ?? Promise.resolve()).catch(() => undefined).then(() => post({ kind: "closed" }));
  });
  (data.kind === "dynamo" ? startDynamo(data) : startS3(data)).then(
    (c) => (close = c),
    (e: unknown) => post({ kind: "failed", message: errorText(e) }),
  );
}
