import { createHash } from "node:crypto";
import { createRequire } from "node:module";

/**
 * Crash recovery for the embedded DynamoDB. dynalite writes one item in several LevelDB
 * operations (the old index entries deleted, the new ones put, then the item), so a process
 * killed between them (kill -9, power loss, OOM) leaves an item whose secondary index entries are
 * missing, stale or phantom. Real DynamoDB never does: an index reflects every item. A missing
 * entry is worse than it looks: the webhook queue is a sparse index, and a delivery whose entry
 * was lost would never be sent (CI caught it: test/embedded/webhooks-durability.test.ts).
 *
 * So a start after an unclean stop rebuilds every index from the items, before dynalite opens
 * the folder: one pass over the items (what each index should hold) and one over the index
 * entries (what it holds), then the difference is written as one batch. Linear in the data, and
 * only after a crash (emulators.ts keeps an "open" marker while the store runs).
 */

type Attr = Record<string, unknown>;
type Item = Record<string, Attr>;
interface IndexDef {
  IndexName: string;
  KeySchema: Array<{ AttributeName: string; KeyType: string }>;
  Projection: { ProjectionType: string; NonKeyAttributes?: string[] };
}
interface TableDef {
  TableName: string;
  KeySchema: Array<{ AttributeName: string; KeyType: string }>;
  AttributeDefinitions: Array<{ AttributeName: string; AttributeType: string }>;
  GlobalSecondaryIndexes?: IndexDef[];
  LocalSecondaryIndexes?: IndexDef[];
}
interface LevelDb {
  open(): Promise<void>;
  close(): Promise<void>;
  iterator(opts: { gt: string; lt: string }): AsyncIterable<[string, unknown]>;
  get(key: string): Promise<unknown>;
  batch(ops: Array<{ type: "put"; key: string; value: unknown } | { type: "del"; key: string }>): Promise<void>;
}
interface DynaliteDb {
  getIndexActions(indexes: IndexDef[], existing: Item | null, item: Item, table: TableDef): { puts: Array<{ index: string; key: string; item: Item }> };
}

// dynalite's own LevelDB binding and key functions: the repair writes exactly what dynalite reads.
const fromDynalite = createRequire(createRequire(import.meta.url).resolve("dynalite/package.json"));
const { Level } = fromDynalite("level") as { Level: new (path: string, opts: { valueEncoding: "json" }) => LevelDb };
const dyn = fromDynalite("./db/index.js") as DynaliteDb;

export interface RepairReport {
  tables: number;
  items: number;
  /** Index entries written: missing ones, and ones whose copy of the item was out of date. */
  written: number;
  /** Index entries removed: they pointed at an item that no longer has those keys. */
  removed: number;
}

const digest = (value: unknown) => createHash("sha1").update(JSON.stringify(value)).digest("base64");

/** Everything under `prefix~`, as [key, value]. */
async function* range(db: LevelDb, prefix: string): AsyncIterable<[string, unknown]> {
  yield* db.iterator({ gt: `${prefix}~`, lt: `${prefix}~\uffff` });
}

/** Rebuilds the secondary indexes of every table in the dynalite folder `path` from its items. */
export async function repairIndexes(path: string): Promise<RepairReport> {
  const db = new Level(path, { valueEncoding: "json" });
  await db.open();
  const report: RepairReport = { tables: 0, items: 0, written: 0, removed: 0 };
  try {
    const tables: TableDef[] = [];
    for await (const [, value] of range(db, "table")) tables.push(value as TableDef);
    for (const table of tables) {
      const kinds = [
        ["global", table.GlobalSecondaryIndexes ?? []],
        ["local", table.LocalSecondaryIndexes ?? []],
      ] as const;
      if (!kinds.some(([, list]) => list.length)) continue;
      report.tables++;
      // What each index should hold: full LevelDB key -> a digest of the entry and the item it comes from.
      const entriesOf = (item: Item) =>
        kinds.flatMap(([kind, list]) => (list.length ? dyn.getIndexActions(list, null, item, table).puts.map((p) => ({ key: `index-${kind}~${table.TableName}~${p.index}~${p.key}`, value: p.item })) : []));
      const expected = new Map<string, { digest: string; itemKey: string }>();
      for await (const [itemKey, value] of range(db, `item-${table.TableName}`)) {
        report.items++;
        for (const e of entriesOf(value as Item)) expected.set(e.key, { digest: digest(e.value), itemKey });
      }
      const ops: Array<{ type: "put"; key: string; value: unknown } | { type: "del"; key: string }> = [];
      const stale: Array<{ key: string; itemKey: string }> = [];
      for (const [kind, list] of kinds) {
        for (const index of list) {
          for await (const [key, value] of range(db, `index-${kind}~${table.TableName}~${index.IndexName}`)) {
            const want = expected.get(key);
            if (!want) {
              ops.push({ type: "del", key });
              report.removed++;
              continue;
            }
            if (want.digest !== digest(value)) stale.push({ key, itemKey: want.itemKey });
            expected.delete(key);
          }
        }
      }
      // Missing or out-of-date entries (rare: only what a crash interrupted) are rebuilt from their item.
      for (const [key, { itemKey }] of expected) stale.push({ key, itemKey });
      for (const { key, itemKey } of stale) {
        const entry = entriesOf((await db.get(itemKey)) as Item).find((e) => e.key === key)!;
        ops.push({ type: "put", key, value: entry.value });
        report.written++;
      }
      if (ops.length) await db.batch(ops);
    }
  } finally {
    await db.close();
  }
  return report;
}
