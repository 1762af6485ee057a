import { describe, expect, it } from "vitest";
import { loadDefinitions } from "../../infra/local/definitions.js";
import { LIBRARY_INDEXES, LIBRARY_SORT_ATTRIBUTE, libraryIndexKey } from "../../functions/platform/stores/libraryIndexes.js";

describe("the library table as CDK renders it", () => {
  it("has one GSI per library access pattern, keyed as the store queries it, sharing the sort attribute", async () => {
    const defs = await loadDefinitions();
    const library = defs.tables.find((t) => t.logicalName === "library")!;
    expect(library.keySchema).toEqual([
      { AttributeName: "pk", KeyType: "HASH" },
      { AttributeName: "sk", KeyType: "RANGE" },
    ]);
    expect(library.globalSecondaryIndexes.map((g) => g.IndexName).sort()).toEqual(LIBRARY_INDEXES.map((i) => i.name).sort());
    for (const g of library.globalSecondaryIndexes) {
      expect(g.KeySchema).toEqual([
        { AttributeName: libraryIndexKey(g.IndexName), KeyType: "HASH" },
        { AttributeName: LIBRARY_SORT_ATTRIBUTE, KeyType: "RANGE" },
      ]);
    }
    // DynamoDB allows 20 GSIs per table.
    expect(library.globalSecondaryIndexes.length).toBeLessThanOrEqual(20);
    expect(library.ttlAttribute).toBe("ttl");
  });
});
