import { describe, expect, it } from "vitest";
import { newestFirst } from "./api-keys.server.js";

describe("API key order", () => {
  it("lists the newest key first, and keys made in the same second by name, highest first", () => {
    const keys = [
      { name: "Seed", created_at_unix: 100 },
      { name: "Bulk 2", created_at_unix: 200 },
      { name: "Bulk 10", created_at_unix: 200 },
      { name: "Bulk 9", created_at_unix: 200 },
      { name: "Later", created_at_unix: 300 },
    ];
    expect(newestFirst(keys).map((k) => k.name)).toEqual(["Later", "Bulk 10", "Bulk 9", "Bulk 2", "Seed"]);
  });
});
