import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DescribeTableCommand, ListTablesCommand, ScanCommand, type AttributeValue } from "@aws-sdk/client-dynamodb";
import { ListBucketsCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { parseConfig } from "../../functions/platform/config.js";
import { createLogger } from "../../functions/platform/adapters/log.js";
import { startEmbedded, type EmbeddedStack } from "../../infra/local/stack.js";
import { premadeVoiceRecords } from "../../functions/platform/domain/premadeVoices.js";

/**
 * Test stacks start from a snapshot of the system data the run's first stack seeded
 * (test/support/global-setup.ts): a stack so started must hold exactly what one seeded by the
 * product's own path holds, in every table, every index and the bucket.
 */
const base = { PORT: "0", LOG_LEVEL: "warn" };
const start = (env: Record<string, string>, snapshots: string | undefined, log?: (l: string) => void, now?: () => number) =>
  startEmbedded({ config: parseConfig({ ...base, ...env }), persist: false, web: false, seedDemo: false, workflowWaitMs: 0, scheduleMs: 0, systemSnapshots: snapshots, now, log: log ? createLogger("debug", {}, log) : undefined });

const sorted = (rows: Record<string, AttributeValue>[]) => rows.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b))))).sort();

/** Every table's items, every index's entries and every object, as the SDK reads them. */
async function contents(stack: EmbeddedStack) {
  const { ddb, s3 } = stack.ctx.aws;
  const out: Record<string, string[]> = {};
  const tables = (await ddb.send(new ListTablesCommand({}))).TableNames ?? [];
  for (const table of tables) {
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: table }));
    for (const index of [undefined, ...(Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName!)]) {
      const rows: Record<string, AttributeValue>[] = [];
      let after: Record<string, AttributeValue> | undefined;
      do {
        const page = await ddb.send(new ScanCommand({ TableName: table, IndexName: index, ExclusiveStartKey: after }));
        rows.push(...(page.Items ?? []));
        after = page.LastEvaluatedKey;
      } while (after);
      out[`${table}${index ? `/${index}` : ""}`] = sorted(rows);
    }
  }
  for (const { Name } of (await s3.send(new ListBucketsCommand({}))).Buckets ?? []) {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: Name! }));
    out[`s3:${Name}`] = (listed.Contents ?? []).map((o) => `${o.Key} ${o.Size} ${o.ETag}`).sort();
  }
  return out;
}

let snapshots: string;
let seeded: Record<string, string[]>;
let seededLog: string[];

beforeAll(async () => {
  snapshots = mkdtempSync(join(tmpdir(), "timbre-snapshot-test-"));
  seededLog = [];
  // Seeded by the product's path, then saved: what the run's first stack does.
  const first = await start({}, snapshots, (l) => seededLog.push(l));
  try {
    seeded = await contents(first);
  } finally {
    await first.close();
  }
}, 120_000);
afterAll(() => rmSync(snapshots, { recursive: true, force: true }));

describe("a test stack's system data from the run's snapshot", () => {
  it("the first stack seeds and saves; the next loads it and holds the same tables, items, indexes and objects", async () => {
    expect(seededLog.some((l) => l.includes("system data loaded from a snapshot"))).toBe(false);
    expect(readdirSync(snapshots)).toHaveLength(1);
    // Not a trivial comparison: the seeded tables hold the premade voices and the community library.
    const main = Object.entries(seeded).find(([k]) => k === "timbre-main")?.[1] ?? [];
    expect(main.length).toBeGreaterThanOrEqual(premadeVoiceRecords().length);
    expect(Object.keys(seeded).filter((k) => k.includes("/")).length).toBeGreaterThan(0);

    const log: string[] = [];
    const loaded = await start({}, snapshots, (l) => log.push(l));
    try {
      expect(log.some((l) => l.includes("system data loaded from a snapshot"))).toBe(true);
      expect(await contents(loaded)).toEqual(seeded);
    } finally {
      await loaded.close();
    }
  }, 120_000);

  it("a stack seeded at another time, without any snapshot, holds the same (the seeded data does not depend on the clock)", async () => {
    const fresh = await start({}, undefined, undefined, () => Date.UTC(2021, 0, 1));
    try {
      expect(await contents(fresh)).toEqual(seeded);
    } finally {
      await fresh.close();
    }
  }, 120_000);

  it("a stack with other table names does not load it: it seeds its own tables (and saves a snapshot of its own)", async () => {
    const log: string[] = [];
    const other = await start({ TABLE_MAIN: "other-main" }, snapshots, (l) => log.push(l));
    try {
      expect(log.some((l) => l.includes("system data loaded from a snapshot"))).toBe(false);
      const held = await contents(other);
      expect(held["other-main"]).toEqual(seeded["timbre-main"]);
      expect(held["timbre-main"]).toBeUndefined();
      expect(readdirSync(snapshots)).toHaveLength(2);
    } finally {
      await other.close();
    }
  }, 120_000);
});
