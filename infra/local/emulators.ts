import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
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
  /** The per-run key; `npm run seed` reads it from the lock file (0600 in a 0700 folder). */
  key: string;
  /** Set when the previous run on this folder did not stop cleanly and the indexes were rebuilt. */
  repaired?: RepairReport;
  close(): Promise<void>;
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
