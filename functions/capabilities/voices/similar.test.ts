import { describe, expect, it } from "vitest";
import { decodeEmbedding, encodeEmbedding, INDEX_MAX_AGE_MS, LibraryEmbeddings } from "./similar.js";
import { EMBEDDING_DIM, EMBEDDING_VERSION } from "../../media/voice-analysis/index.js";
import type { LibraryEmbeddingEntry } from "../../platform/stores/library.js";

const unit = (i: number) => Array.from({ length: EMBEDDING_DIM }, (_, j) => (j === i ? 1 : 0));

/** A store whose embedding entries the test changes between loads; `hold` keeps the next read pending. */
function storeOf(entries: LibraryEmbeddingEntry[]) {
  let loads = 0;
  let gate: Promise<void> = Promise.resolve();
  let open = () => undefined as void;
  return {
    ctx: { stores: { library: { embeddings: async () => (loads++, await gate, [...entries]) } } } as never,
    entries,
    loads: () => loads,
    hold: () => (gate = new Promise<void>((r) => (open = r))),
    release: () => open(),
  };
}

describe("library embeddings in memory", () => {
  it("stores embeddings as little-endian Float32 and reads them back exactly", () => {
    const v = [0.5, -1.25, 3.0000001, 0];
    const bytes = encodeEmbedding(v);
    expect(bytes.byteLength).toBe(16);
    expect(Array.from(decodeEmbedding(bytes))).toEqual(Array.from(Float32Array.from(v)));
    // A view into a larger buffer at an odd offset decodes too (DynamoDB hands such views back).
    const padded = new Uint8Array(21);
    padded.set(bytes, 5);
    expect(Array.from(decodeEmbedding(padded.subarray(5)))).toEqual(Array.from(Float32Array.from(v)));
  });

  it("loads once, reloads in the background when older than a minute, and skips entries of another embedding version", async () => {
    let now = 0;
    const s = storeOf([
      { voice_id: "a", embedding: encodeEmbedding(unit(0)), version: EMBEDDING_VERSION },
      { voice_id: "old", embedding: encodeEmbedding(unit(1)), version: EMBEDDING_VERSION - 1 },
    ]);
    const index = new LibraryEmbeddings(() => now);
    await index.ready(s.ctx);
    await index.ready(s.ctx);
    expect(s.loads()).toBe(1);
    expect(index.size).toBe(1);
    s.entries.push({ voice_id: "b", embedding: encodeEmbedding(unit(2)), version: EMBEDDING_VERSION });
    now += INDEX_MAX_AGE_MS - 1;
    await index.ready(s.ctx);
    expect(index.size).toBe(1);
    now += 2;
    s.hold();
    await index.ready(s.ctx);
    // Stale: the request is answered from what is held while the reload runs.
    expect(s.loads()).toBe(2);
    expect(index.size).toBe(1);
    s.release();
    await index.reload(s.ctx);
    expect(s.loads()).toBe(2);
    expect(index.search(unit(2), 1).map((m) => m.id)).toEqual(["b"]);
  });

  it("ranks by cosine similarity, applies the minimum score and leaves excluded voices out", () => {
    const index = new LibraryEmbeddings();
    const mix = (a: number, b: number) => unit(0).map((x, i) => a * x + b * unit(1)[i]!);
    index.set("close", mix(1, 0.1));
    index.set("far", mix(0.1, 1));
    index.set("same", unit(0));
    expect(index.search(unit(0), 3).map((m) => m.id)).toEqual(["same", "close", "far"]);
    expect(index.search(unit(0), 3, 0.9).map((m) => m.id)).toEqual(["same", "close"]);
    expect(index.search(unit(0), 2, -1, new Set(["same"])).map((m) => m.id)).toEqual(["close", "far"]);
    index.delete("close");
    expect(index.search(unit(0), 3).map((m) => m.id)).toEqual(["same", "far"]);
  });
});
