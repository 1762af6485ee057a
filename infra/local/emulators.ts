import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { tmpdir } from "node:os";
import { join } from "node:path";
import dynalite from "dynalite";
import S3rver from "s3rver";
import { EMULATOR_KEY_HEADER } from "../../functions/adapters/aws.js";
import { repairIndexes, type RepairReport } from "./store-repair.js";

/**
 * dynalite and s3rver in this process. Neither checks signatures, and s3rver answers CORS
 * preflights for any origin, so an open loopback port would hand every tenant's data (password
 * hashes, key records, audio) to any local process or to any web page the user visits. Each
 * listens on loopback behind a guard that refuses, before the emulator sees it, every request
 * without this run's random key (a header only the product's SDK clients add). Browsers cannot
 * send it: a cross-origin request with a custom header needs a preflight, and the guard refuses
 * the preflight too, with no CORS headers.
 */
export interface Emulators {
  dynamo: string;
  s3: string;
  /** The S3 emulator's own store, in this process (absent in front of LocalStack). */
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
  put(bucket: string, key: string, body: Readable, contentType: string): Promise<{ etag: string; size: number }>;
  delete(bucket: string, key: string): Promise<void>;
}

/** The part of s3rver's FilesystemStore that InProcessStore uses (s3rver 3: `S3rver#store`). */
interface S3rverStore {
  putObject(object: { bucket: string; key: string; content: Readable; metadata: Record<string, string> }): Promise<{ size: number; md5: string }>;
  deleteObject(bucket: string, key: string): Promise<void>;
}

function inProcessStore(s3rver: S3rver): InProcessStore {
  const store = (s3rver as unknown as { store?: S3rverStore }).store;
  if (typeof store?.putObject !== "function" || typeof store.deleteObject !== "function") throw new Error("s3rver's store is not where this version of Timbre expects it");
  return {
    async put(bucket, key, body, contentType) {
      const { md5, size } = await store.putObject({ bucket, key, content: body, metadata: { "content-type": contentType } });
      // The ETag s3rver's PUT answers with.
      return { etag: JSON.stringify(md5), size };
    },
    delete: (bucket, key) => store.deleteObject(bucket, key),
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((res, rej) => {
    server.once("error", rej);
    server.listen(port, host, () => res((server.address() as AddressInfo).port));
  });
}

/** Puts the key check in front of every request listener the server already has. */
export function guardServer(server: Server, key: string): void {
  const expected = Buffer.from(key);
  const inner = server.listeners("request") as RequestListener[];
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const sent = req.headers[EMULATOR_KEY_HEADER];
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
  const dyn = dynalite({ path: dynamoDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  guardServer(dyn, key);
  const dynPort = await listen(dyn, 0, "127.0.0.1");
  const s3rver = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3Dir, resetOnClose: !dataDir });
  const s3Address = await s3rver.run();
  guardServer((s3rver as unknown as { httpServer: Server }).httpServer, key);
  return {
    dynamo: `http://127.0.0.1:${dynPort}`,
    s3: `http://127.0.0.1:${s3Address.port}`,
    store: inProcessStore(s3rver),
    key,
    repaired,
    async close() {
      await s3rver.close();
      await new Promise<void>((r) => dyn.close(() => r()));
      if (openMarker) rmSync(openMarker, { force: true });
      if (!dataDir) rmSync(s3Dir, { recursive: true, force: true });
    },
  };
}
