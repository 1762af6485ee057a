import { afterAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateTableCommand } from "@aws-sdk/client-dynamodb";
import { PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { parseConfig } from "../../functions/platform/config.js";
import { createAwsClients } from "../../functions/platform/adapters/aws.js";
import { startEmulators } from "../../infra/local/emulators.js";
import { repairIndexes } from "../../infra/local/store-repair.js";

/**
 * dynalite writes an item and its index entries in separate LevelDB operations, so a kill between
 * them leaves the indexes out of step with the items (CI lost webhook deliveries that way). A start
 * after an unclean stop rebuilds them. The damage a kill leaves is made here by hand, in the same
 * LevelDB dynalite uses, then repaired and read back through the AWS SDK.
 */
const dataDir = mkdtempSync(join(tmpdir(), "timbre-repair-"));
const dynamoDir = join(dataDir, "dynamodb");
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const fromDynalite = createRequire(createRequire(import.meta.url).resolve("dynalite/package.json"));
const { Level } = fromDynalite("level") as {
  Level: new (p: string, o: { valueEncoding: "json" }) => {
    open(): Promise<void>;
    close(): Promise<void>;
    keys(o: { gt: string; lt: string }): AsyncIterable<string>;
    get(k: string): Promise<Record<string, { S?: string }>>;
    put(k: string, v: unknown): Promise<void>;
    del(k: string): Promise<void>;
  };
};

async function withStore<T>(fn: (doc: ReturnType<typeof createAwsClients>["doc"], ddb: ReturnType<typeof createAwsClients>["ddb"]) => Promise<T>) {
  const emulators = await startEmulators(dataDir);
  const cfg = parseConfig({ LOG_LEVEL: "warn" });
  const { doc, ddb } = createAwsClients({ ...cfg, mode: "embedded", aws: { ...cfg.aws, dynamoEndpoint: emulators.dynamo, emulatorKey: emulators.key } });
  try {
    return { result: await fn(doc, ddb), repaired: emulators.repaired };
  } finally {
    await emulators.close();
  }
}

const queue = (doc: ReturnType<typeof createAwsClients>["doc"]) =>
  doc.send(new QueryCommand({ TableName: "queue", IndexName: "due", KeyConditionExpression: "#s = :s", ExpressionAttributeNames: { "#s": "shard" }, ExpressionAttributeValues: { ":s": "A" } })).then((r) => r.Items ?? []);

describe("rebuilding the embedded store's indexes after a crash", () => {
  it("restores missing entries, drops phantoms and refreshes stale copies; a clean stop needs nothing", async () => {
    const { repaired: first } = await withStore(async (doc, ddb) => {
      await ddb.send(
        new CreateTableCommand({
          TableName: "queue",
          BillingMode: "PAY_PER_REQUEST",
          KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
          AttributeDefinitions: [
            { AttributeName: "id", AttributeType: "S" },
            { AttributeName: "shard", AttributeType: "S" },
            { AttributeName: "due", AttributeType: "S" },
          ],
          GlobalSecondaryIndexes: [{ IndexName: "due", KeySchema: [{ AttributeName: "shard", KeyType: "HASH" }, { AttributeName: "due", KeyType: "RANGE" }], Projection: { ProjectionType: "ALL" } }],
        }),
      );
      for (const id of ["a", "b", "c", "d"]) await doc.send(new PutCommand({ TableName: "queue", Item: { id, shard: "A", due: `00${id}`, note: `item ${id}` } }));
      await doc.send(new PutCommand({ TableName: "queue", Item: { id: "off", note: "not queued" } }));
      expect((await queue(doc)).map((i) => i.id)).toEqual(["a", "b", "c", "d"]);
    });
    expect(first).toBeUndefined();
    expect(existsSync(join(dataDir, "dynamodb.open"))).toBe(false);

    // What a kill mid-write leaves: an entry deleted before its replacement was put (a), an item
    // deleted after its entry survived (b), an entry rewritten before its item was (c).
    const db = new Level(dynamoDir, { valueEncoding: "json" });
    await db.open();
    const entries: string[] = [];
    for await (const k of db.keys({ gt: "index-global~queue~due~", lt: "index-global~queue~due~\uffff" })) entries.push(k);
    const items: string[] = [];
    for await (const k of db.keys({ gt: "item-queue~", lt: "item-queue~\uffff" })) items.push(k);
    expect(entries).toHaveLength(4);
    const itemKey = async (id: string) => {
      for (const k of items) if ((await db.get(k))?.id.S === id) return k;
      throw new Error(id);
    };
    const entryKey = async (id: string) => {
      for (const k of entries) if ((await db.get(k))?.id.S === id) return k;
      throw new Error(id);
    };
    await db.del(await entryKey("a"));
    await db.del(await itemKey("b"));
    const c = await entryKey("c");
    await db.put(c, { ...(await db.get(c)), note: { S: "written before the item" } });
    await db.close();
    writeFileSync(join(dataDir, "dynamodb.open"), "1\n");

    const { result: after, repaired } = await withStore(async (doc) => queue(doc));
    expect(repaired).toEqual({ tables: 1, items: 4, written: 2, removed: 1 });
    expect(after.map((i) => [i.id, i.note])).toEqual([
      ["a", "item a"],
      ["c", "item c"],
      ["d", "item d"],
    ]);

    // Repaired is consistent: rebuilding again changes nothing.
    expect(await repairIndexes(dynamoDir)).toEqual({ tables: 1, items: 4, written: 0, removed: 0 });
  });
});
