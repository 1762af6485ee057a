import { describe, expect, it } from "vitest";
import { RecentRecords } from "./recent.js";

describe("recent records (API keys and sessions read on every request)", () => {
  it("answers from memory within the time to live, and reads again after it", async () => {
    let now = 0;
    let reads = 0;
    const r = new RecentRecords<{ v: number }>(5_000, 100, () => now);
    const load = async () => ({ v: ++reads });
    expect(await r.get("k", load)).toEqual({ v: 1 });
    now = 4_999;
    expect(await r.get("k", load)).toEqual({ v: 1 });
    now = 5_000;
    expect(await r.get("k", load)).toEqual({ v: 2 });
    expect(reads).toBe(2);
  });

  it("never keeps an absent record: a key created a moment later is found", async () => {
    const r = new RecentRecords<string>(5_000);
    expect(await r.get("k", async () => undefined)).toBeUndefined();
    expect(await r.get("k", async () => "created")).toBe("created");
  });

  it("forgets a record it is told was written, and does not keep a read that began before the write", async () => {
    const r = new RecentRecords<string>(5_000);
    expect(await r.get("k", async () => "old")).toBe("old");
    r.forget("k");
    expect(await r.get("k", async () => "new")).toBe("new");
    // A slow read of the old record, overtaken by a write (revocation): its answer is not kept.
    let finish!: (v: string) => void;
    r.forget("k");
    const slow = r.get("k", () => new Promise<string>((res) => (finish = res)));
    r.forget("k");
    finish("before the write");
    expect(await slow).toBe("before the write");
    expect(await r.get("k", async () => "after the write")).toBe("after the write");
  });

  it("keeps at most its bound, dropping the oldest first", async () => {
    const r = new RecentRecords<number>(60_000, 3);
    for (let i = 0; i < 4; i++) await r.get(`k${i}`, async () => i);
    let reread = 0;
    expect(await r.get("k0", async () => (reread++, 10))).toBe(10);
    expect(await r.get("k3", async () => (reread++, 30))).toBe(3);
    expect(reread).toBe(1);
  });

  it("updates a kept record in place (the last use of a key) and does nothing for one it does not keep", async () => {
    const r = new RecentRecords<{ used: number }>(60_000);
    await r.get("k", async () => ({ used: 1 }));
    r.update("k", (x) => ({ used: x.used + 1 }));
    r.update("other", () => ({ used: 99 }));
    expect(await r.get("k", async () => ({ used: -1 }))).toEqual({ used: 2 });
    expect(await r.get("other", async () => ({ used: 7 }))).toEqual({ used: 7 });
  });
  it("shares one load among callers asking for the same key while it is on its way (a first wave of requests reads a key once)", async () => {
    const r = new RecentRecords<string>(5_000);
    let reads = 0;
    let finish!: (v: string) => void;
    const load = () => (reads++, new Promise<string>((res) => (finish = res)));
    const wave = [r.get("k", load), r.get("k", load), r.get("k", load)];
    const other = r.get("other", async () => (reads++, "other"));
    finish("record");
    expect(await Promise.all(wave)).toEqual(["record", "record", "record"]);
    expect(await other).toBe("other");
    expect(reads).toBe(2);
  });

  it("does not let a read that begins after a write join a load that began before it", async () => {
    const r = new RecentRecords<string>(5_000);
    let finish!: (v: string) => void;
    const before = r.get("k", () => new Promise<string>((res) => (finish = res)));
    r.forget("k"); // a revocation lands while the load is on its way
    const after = r.get("k", async () => "after the write");
    finish("before the write");
    expect(await before).toBe("before the write");
    expect(await after).toBe("after the write");
    expect(await r.get("k", async () => "again")).toBe("after the write");
  });

  it("lets every caller of a failed load see the failure, and loads again on the next ask", async () => {
    const r = new RecentRecords<string>(5_000);
    let fail!: (e: Error) => void;
    const load = () => new Promise<string>((_, rej) => (fail = rej));
    const wave = [r.get("k", load), r.get("k", load)];
    fail(new Error("store down"));
    for (const w of wave) await expect(w).rejects.toThrow("store down");
    expect(await r.get("k", async () => "back")).toBe("back");
    // A loader that throws before it returns a promise is a failed load too, not a load on its way forever.
    await expect(r.get("s", () => { throw new Error("at once"); })).rejects.toThrow("at once");
    expect(await r.get("s", async () => "loaded")).toBe("loaded");
  });
});
