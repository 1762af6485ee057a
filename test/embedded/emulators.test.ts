import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, readdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { PassThrough, Readable } from "node:stream";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { S3Client, ListObjectsV2Command, CreateBucketCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { createAwsClients } from "../../functions/platform/adapters/aws.js";
import { EMULATOR_KEY_HEADER } from "../../functions/platform/adapters/aws.js";
import { parseConfig } from "../../functions/platform/config.js";
import { startEmbedded, type EmbeddedStack } from "../../infra/local/stack.js";
import { startEmulators, type Emulators } from "../../infra/local/emulators.js";
import { createTestAccount } from "../support/stack.js";

/**
 * The embedded DynamoDB and S3 hold every tenant's data and check no signatures. Nothing but the
 * product may reach them: not another local process without the run's key, not a web page.
 */
let stack: EmbeddedStack;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "timbre-guard-"));
  stack = await startEmbedded({ config: parseConfig({ PORT: "0", LOG_LEVEL: "warn", DATA_DIR: dataDir }), persist: true, web: false, workflowWaitMs: 0 });
  await createTestAccount(stack, "free");
});
afterAll(async () => {
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const listTablesBody = JSON.stringify({});
const dynamoHeaders = {
  "content-type": "application/x-amz-json-1.0",
  "x-amz-target": "DynamoDB_20120810.ListTables",
  authorization: "AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00",
};

describe("the embedded emulators", () => {
  it("refuse DynamoDB calls without the run's key, even with any signature", async () => {
    const r = await fetch(stack.endpoints.dynamo, { method: "POST", headers: dynamoHeaders, body: listTablesBody });
    expect(r.status).toBe(403);
    expect(await r.text()).not.toContain("timbre-main");
    const scan = await fetch(stack.endpoints.dynamo, {
      method: "POST",
      headers: { ...dynamoHeaders, "x-amz-target": "DynamoDB_20120810.Scan" },
      body: JSON.stringify({ TableName: "timbre-main" }),
    });
    expect(scan.status).toBe(403);
    expect(await scan.text()).not.toContain("password_hash");
  });

  it("refuse an SDK client that has the endpoint and the well-known credentials but not the key", async () => {
    const ddb = new DynamoDBClient({ endpoint: stack.endpoints.dynamo, region: "us-east-1", credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" }, maxAttempts: 1 });
    await expect(ddb.send(new ListTablesCommand({}))).rejects.toThrow();
    ddb.destroy();
    const s3 = new S3Client({ endpoint: stack.endpoints.s3, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" }, maxAttempts: 1 });
    await expect(s3.send(new ListObjectsV2Command({ Bucket: stack.config.aws.bucket }))).rejects.toThrow();
    s3.destroy();
  });

  it("refuse S3 listing and answer browsers' preflights with no CORS", async () => {
    const list = await fetch(`${stack.endpoints.s3}/${stack.config.aws.bucket}?list-type=2`);
    expect(list.status).toBe(403);
    expect(await list.text()).not.toContain("<Key>");
    const preflight = await fetch(`${stack.endpoints.s3}/${stack.config.aws.bucket}/x`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "PUT" },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("serve the product, whose clients carry the key", async () => {
    const tables = await stack.ctx.aws.ddb.send(new ListTablesCommand({}));
    expect(tables.TableNames).toContain("timbre-main");
    const r = await fetch(`${stack.url}/healthz`);
    expect(r.status).toBe(200);
  });

  it("keep the data folder and what the emulators write owner-only", () => {
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    for (const sub of readdirSync(dataDir)) {
      const st = statSync(join(dataDir, sub));
      expect(st.mode & 0o077, sub).toBe(0);
    }
  });

  it("answer while the request loop is blocked: they run on threads of their own", () => {
    // execFileSync holds this thread until the child is done: an emulator on this event loop
    // could not answer it, and the child would time out.
    const probe = `fetch(process.argv[1], { method: "POST", headers: JSON.parse(process.argv[2]), body: "{}" })
      .then(async (r) => { process.stdout.write(r.status + " " + (await r.text())); }, (e) => { process.stdout.write("failed " + e.message); })`;
    const headers = JSON.stringify({ ...dynamoHeaders, [EMULATOR_KEY_HEADER]: stack.endpoints.key });
    const out = execFileSync(process.execPath, ["-e", `setTimeout(() => { process.stdout.write("timed out"); process.exit(0); }, 10000).unref(); ${probe}`, stack.endpoints.dynamo, headers], { encoding: "utf8", timeout: 20_000 });
    // dynalite's own answer (it wants a signed request): it was reached and it answered.
    expect(out).toMatch(/^\d{3} \{"__type":/);
  });
});

describe("the product's S3 client, whose requests the S3 thread makes", () => {
  const collect = async (r: Readable) => {
    const parts: Buffer[] = [];
    for await (const c of r) parts.push(c as Buffer);
    return Buffer.concat(parts);
  };

  it("round-trips objects whole and in chunks (both ways), leaving the caller's bytes as they were", async () => {
    const blobs = stack.ctx.blobs;
    // Whole both ways; a request in chunks and a streamed answer (over 256 kB); several windows of chunks.
    for (const size of [1, 200_000, 700_000, 5_000_000]) {
      const bytes = randomBytes(size);
      const copy = Buffer.from(bytes);
      const key = `tmp/ws/emulators-sdk/${size}`;
      await blobs.put(key, bytes, "application/octet-stream");
      expect(bytes.equals(copy)).toBe(true);
      const back = await blobs.getBytes(key);
      expect(back!.bytes.length).toBe(size);
      expect(Buffer.from(back!.bytes).equals(copy)).toBe(true);
      expect(await blobs.head(key)).toMatchObject({ size });
    }
    expect((await blobs.list("tmp/ws/emulators-sdk/")).length).toBe(4);
    await blobs.deleteMany((await blobs.list("tmp/ws/emulators-sdk/")));
    expect(await blobs.list("tmp/ws/emulators-sdk/")).toEqual([]);
    // An error answer (S3's XML) reaches the SDK as S3 wrote it.
    expect(await blobs.getBytes("tmp/ws/emulators-sdk/absent")).toBeUndefined();
  });

  it("sends a stream body, reads ranges, and lets a reader stop half-way without stalling what follows", async () => {
    const blobs = stack.ctx.blobs;
    const bytes = randomBytes(3_000_000);
    const key = "tmp/ws/emulators-sdk/streamed";
    await blobs.putStream(key, Readable.from((function* () {
      for (let i = 0; i < bytes.length; i += 100_000) yield bytes.subarray(i, i + 100_000);
    })()), bytes.length, "application/octet-stream");
    const range = await blobs.getStream(key, "bytes=1000000-1999999");
    expect(range!.contentRange).toBe("bytes 1000000-1999999/3000000");
    expect((await collect(range!.stream)).equals(bytes.subarray(1_000_000, 2_000_000))).toBe(true);
    for (let i = 0; i < 3; i++) {
      const got = await blobs.getStream(key);
      await new Promise<void>((resolve) => got!.stream.once("data", () => resolve()));
      got!.stream.destroy();
    }
    const all = await blobs.getStream(key);
    expect((await collect(all!.stream)).equals(bytes)).toBe(true);
    await blobs.deleteMany([key]);
  });
});

describe("a store that closes while an answer is streaming", () => {
  it("ends the unread body quietly, and fails a reader's with the reason", async () => {
    const dir = mkdtempSync(join(tmpdir(), "timbre-closing-"));
    const own = await startEmbedded({ config: parseConfig({ PORT: "0", LOG_LEVEL: "warn", DATA_DIR: dir }), persist: true, web: false, workflowWaitMs: 0 });
    try {
      await own.ctx.blobs.put("tmp/ws/closing/big", randomBytes(3_000_000), "application/octet-stream");
      const unread = await own.ctx.blobs.getStream("tmp/ws/closing/big");
      const read = await own.ctx.blobs.getStream("tmp/ws/closing/big");
      const failure = new Promise<Error>((resolve) => read!.stream.on("error", resolve));
      const closed = new Promise<void>((resolve) => unread!.stream.on("close", () => resolve()));
      read!.stream.pause();
      await own.close();
      await closed;
      expect((await failure).message).toMatch(/thread exited|closed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a store that closes while a request is under way", () => {
  it("answers the request before its thread stops (no 'thread exited' at shutdown)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "timbre-closing-put-"));
    const own = await startEmulators(dir);
    try {
      const cfg = parseConfig({ PORT: "0", LOG_LEVEL: "warn", DATA_DIR: dir, TIMBRE_MODE: "embedded" });
      const { s3 } = createAwsClients({ ...cfg, mode: "embedded", aws: { ...cfg.aws, s3Endpoint: own.s3, emulatorKey: own.key } }, { s3Handler: own.s3Handler });
      await s3.send(new CreateBucketCommand({ Bucket: "closing" }));
      // Started and left running while the store closes, as background work outliving its request does.
      const put = s3.send(new PutObjectCommand({ Bucket: "closing", Key: "late", Body: randomBytes(4_000_000) })).then(
        () => "stored",
        (e: Error) => e.message,
      );
      await new Promise((r) => setTimeout(r, 5));
      await own.close();
      expect(await put).toBe("stored");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the embedded S3's store, as the storage origin writes to it", () => {
  const BUCKET = "emulators-test";
  let own: Emulators;
  const url = (key: string) => `${own.s3}/${BUCKET}/${key}`;
  const status = async (key: string) => (await fetch(url(key), { headers: { [EMULATOR_KEY_HEADER]: own.key } })).status;
  const read = async (key: string) => {
    const r = await fetch(url(key), { headers: { [EMULATOR_KEY_HEADER]: own.key } });
    expect(r.status).toBe(200);
    return Buffer.from(await r.arrayBuffer());
  };
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "timbre-store-"));
    own = await startEmulators(dataDir);
    expect((await fetch(`${own.s3}/${BUCKET}`, { method: "PUT", headers: { [EMULATOR_KEY_HEADER]: own.key } })).status).toBe(200);
  });
  afterAll(async () => {
    await own?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  let dataDir: string;
  /** Every file under the S3 folder: objects, their metadata, and anything half written. */
  const files = (dir = join(dataDir, "s3")): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [e.name]));

  it("store an upload whole before answering: a read right after the put gets every byte", async () => {
    const store = own.store!;
    for (const size of [1, 700_000, 5_000_000]) {
      const bytes = randomBytes(size);
      const copy = Buffer.from(bytes);
      const body = new PassThrough();
      const key = `tmp/ws/emulators-test/${size}`;
      const put = store.put(BUCKET, key, body, "application/octet-stream");
      // Handed over as the storage origin hands a request's body: many chunks, some of them views.
      for (let i = 0; i < size; i += 65_536) body.write(bytes.subarray(i, i + 65_536));
      body.end();
      const { size: stored } = await put;
      expect(stored).toBe(size);
      const back = await read(key);
      expect(back.length).toBe(size);
      expect(back.equals(copy)).toBe(true);
      expect(bytes.equals(copy)).toBe(true); // the caller's buffers are left as they were
      await store.delete(BUCKET, key);
      expect(await status(key)).toBe(404);
    }
  });

  it("leave no object behind when an upload's body breaks off", async () => {
    const store = own.store!;
    const body = new PassThrough();
    const key = "tmp/ws/emulators-test/broken";
    const put = store.put(BUCKET, key, body, "application/octet-stream");
    body.write(randomBytes(300_000));
    body.destroy(new Error("client went away"));
    await expect(put).rejects.toThrow("client went away");
    expect(await status(key)).toBe(404);
    expect(files().filter((f) => !f.startsWith(".") && f !== "metadata.json")).toEqual([]);
    // Broken off at once, before the store has opened anything (this ended the S3 thread once).
    for (let i = 0; i < 5; i++) {
      const early = new PassThrough();
      const p = store.put(BUCKET, `${key}-${i}`, early, "application/octet-stream");
      early.destroy(new Error("client went away"));
      await expect(p).rejects.toThrow();
    }
    expect(await status(key)).toBe(404);
    expect(files().filter((f) => !f.startsWith(".") && f !== "metadata.json")).toEqual([]);
  });
});
