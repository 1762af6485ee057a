import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, request, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import dynalite from "dynalite";
import S3rver from "s3rver";
import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import { parseConfig } from "../../functions/platform/config.js";
import { startEmbedded, type EmbeddedStack } from "../../infra/local/stack.js";
import { createTestAccount } from "../support/stack.js";

/**
 * No Docker engine runs here, so LocalStack itself is not exercised. This proves the switch:
 * in localstack mode every AWS client goes to the one edge endpoint and nothing is started
 * locally. The "edge" is a small router in front of dynalite and s3rver, as LocalStack routes
 * by request (DynamoDB calls carry X-Amz-Target).
 */
let edge: Server;
let dyn: Server;
let s3: S3rver;
let s3Dir: string;
let stack: EmbeddedStack;
let edgeUrl: string;
const seen = { dynamo: 0, s3: 0 };

beforeAll(async () => {
  dyn = dynalite({ createTableMs: 0 });
  await new Promise<void>((r) => dyn.listen(0, "127.0.0.1", r));
  s3Dir = mkdtempSync(join(tmpdir(), "timbre-edge-"));
  s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3Dir });
  const s3Port = (await s3.run()).port;
  const dynPort = (dyn.address() as AddressInfo).port;
  edge = createServer((req, res) => {
    const isDynamo = String(req.headers["x-amz-target"] ?? "").startsWith("DynamoDB_");
    isDynamo ? seen.dynamo++ : seen.s3++;
    const upstream = request({ host: "127.0.0.1", port: isDynamo ? dynPort : s3Port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => edge.listen(0, "127.0.0.1", r));
  edgeUrl = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
  stack = await startEmbedded({
    config: parseConfig({ TIMBRE_MODE: "localstack", LOCALSTACK_ENDPOINT: edgeUrl, PORT: "0", LOG_LEVEL: "warn" }),
    web: false,
    workflowWaitMs: 0,
  });
});

afterAll(async () => {
  await stack?.close();
  edge?.close();
  await s3?.close();
  dyn?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

describe("localstack mode", () => {
  it("sends DynamoDB and S3 traffic to the single edge endpoint and creates its tables there", async () => {
    expect(stack.endpoints).toEqual({ dynamo: edgeUrl, s3: edgeUrl, key: "" });
    expect(stack.config.mode).toBe("localstack");
    const direct = new DynamoDBClient({ endpoint: edgeUrl, region: "us-east-1", credentials: { accessKeyId: "x", secretAccessKey: "x" } });
    const tables = await direct.send(new ListTablesCommand({}));
    expect(tables.TableNames).toEqual(expect.arrayContaining(["timbre-main", "timbre-history", "timbre-ledger"]));
    direct.destroy();
    expect(seen.dynamo).toBeGreaterThan(0);
    expect(seen.s3).toBeGreaterThan(0);
  });

  it("serves the same API through it", async () => {
    const acct = await createTestAccount(stack, "creator");
    const client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
    expect((await client.user.subscription.get()).tier).toBe("creator");
  });
});
