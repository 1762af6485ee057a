import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { Worker } from "node:worker_threads";
import { TaskPool, WorkerPool, workerExecArgv, type PooledJob } from "./pool.js";

describe("worker threads", () => {
  it("pass a worker the parent's flags but not those of the main entry or the debugger", () => {
    expect(workerExecArgv(["--input-type=module", "-e", "code", "--enable-source-maps", "--inspect=9229", "--max-old-space-size=512"])).toEqual([
      "--enable-source-maps",
      "--max-old-space-size=512",
    ]);
    expect(workerExecArgv(["--import", "tsx"])).toEqual(["--import", "tsx"]);
  });

  it.each([
    ["`node --input-type=module -e` (a bundle loaded as Lambda's INIT is measured)", []],
    ["V8 flags (`--max-old-space-size`, `--stack-trace-limit`) beside `-e`", ["--max-old-space-size=512", "--stack-trace-limit=50"]],
  ])("start from a process that was itself started with %s", (_what, v8Flags) => {
    const dir = mkdtempSync(join(tmpdir(), "timbre-worker-"));
    try {
      const entry = join(dir, "worker.mjs");
      writeFileSync(entry, "export {};\n");
      const adapter = JSON.stringify(join(import.meta.dirname, "pool.ts"));
      const file = JSON.stringify(pathToFileURL(entry).href);
      const code = `
        const { spawnWorker } = await import(${adapter});
        const w = spawnWorker({ ts: new URL(${file}), js: new URL(${file}) }, "file:///bundle.mjs");
        w.on("error", (e) => { console.log("error", e.message); process.exit(1); });
        w.on("exit", (c) => { console.log("exit", c); process.exit(0); });`;
      const r = spawnSync(process.execPath, [...v8Flags, "--import", "tsx", "--input-type=module", "-e", code], { encoding: "utf8", timeout: 20_000 });
      expect(r.stdout.trim(), r.stderr).toBe("exit 0");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a pool replaces a worker that dies (failing only the task it held), and gives up on a worker that never starts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "timbre-pool-"));
    const ok = join(dir, "ok.mjs");
    const broken = join(dir, "broken.mjs");
    writeFileSync(
      ok,
      `import { parentPort } from "node:worker_threads";
       parentPort.on("message", (m) => { if (m.job === "crash") process.exit(3); parentPort.postMessage({ kind: "done", id: m.id, output: m.job * 2 }); });
       parentPort.postMessage({ kind: "ready" });`,
    );
    writeFileSync(broken, `throw new Error("cannot load");`);
    const url = (f: string) => ({ ts: pathToFileURL(f), js: pathToFileURL(f) });
    const pool = new TaskPool<unknown, number>(url(ok), "file:///bundle.mjs", 1);
    const dead = new TaskPool<unknown, number>(url(broken), "file:///bundle.mjs", 1);
    try {
      const crashed = pool.run("crash");
      const queued = pool.run(21);
      await expect(crashed).rejects.toThrow(/exited \(3\)/);
      expect(await queued).toBe(42);
      expect(await pool.run(5)).toBe(10);
      await expect(dead.run(1)).rejects.toThrow(/cannot load|failed to start/);
    } finally {
      await Promise.all([pool.close(), dead.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
  describe("WorkerPool: priorities, pinned jobs and transports", () => {
    // Each worker answers a job with its own thread id and the job's payload; "crash" ends it.
    const echo = `
      const { parentPort, threadId } = require("node:worker_threads");
      parentPort.on("message", (m) => {
        if (m.job === "crash") process.exit(4);
        parentPort.postMessage({ kind: "done", id: m.id, output: { thread: threadId, job: m.job } });
      });
      parentPort.postMessage({ kind: "ready" });`;
    interface Job extends PooledJob {
      resolve(v: { thread: number; job: unknown }): void;
      reject(e: Error): void;
    }
    const newPool = (size: number, start: () => Worker = () => new Worker(echo, { eval: true })) =>
      new WorkerPool<Job>({
        size,
        name: "test",
        start,
        onMessage: (p, m) => {
          p.resolve((m as unknown as { output: { thread: number; job: unknown } }).output);
          return true;
        },
        fail: (p, e) => p.reject(e),
      });
    let nextId = 1;
    const run = (pool: WorkerPool<Job>, job: unknown, priority?: number, on?: Parameters<WorkerPool<Job>["submit"]>[1]) =>
      new Promise<{ thread: number; job: unknown }>((resolve, reject) => pool.submit({ id: nextId++, job, transfer: [], priority, resolve, reject }, on));

    it("a free worker takes the lowest priority first, jobs of equal priority in the order they came", async () => {
      const pool = newPool(1);
      try {
        await pool.warm();
        const order: unknown[] = [];
        // The first job goes to the only worker at once; the others queue behind it.
        const jobs = [
          run(pool, "first", 9),
          run(pool, "b5", 5),
          run(pool, "c1", 1),
          run(pool, "d5", 5),
          run(pool, "e0"),
          run(pool, "f1", 1),
        ].map((p) => p.then((r) => order.push(r.job)));
        await Promise.all(jobs);
        expect(order).toEqual(["first", "e0", "c1", "f1", "b5", "d5"]);
      } finally {
        await pool.close();
      }
    });

    it("runs a pinned job only on its worker, ordered with the shared queue by priority", async () => {
      const pool = newPool(2);
      try {
        await pool.warm();
        const [a, b] = pool.workers;
        const pinnedToB = await Promise.all([1, 2, 3, 4].map((i) => run(pool, `b${i}`, i, b)));
        expect(pinnedToB.every((r) => r.thread === b.worker.threadId)).toBe(true);
        expect((await run(pool, "a", 0, a)).thread).toBe(a.worker.threadId);
        // With both of b's kinds of work waiting, the lower priority goes first whichever queue holds it.
        const order: unknown[] = [];
        const jobs = [run(pool, "busy-b", 0, b), run(pool, "pinned-late", 7, b), run(pool, "pinned-early", 2, b)].map((p) => p.then((r) => order.push(r.job)));
        await Promise.all(jobs);
        expect(order).toEqual(["busy-b", "pinned-early", "pinned-late"]);
        expect(pool.leastLoaded((w) => (w === a ? 5 : 0))).toBe(b);
      } finally {
        await pool.close();
      }
    });

    it("a pinned worker that dies fails its pinned jobs, is replaced, and new pins to it fail at once", async () => {
      const pool = newPool(2);
      try {
        await pool.warm();
        const [, b] = pool.workers;
        const crashed = run(pool, "crash", 0, b);
        const pinned = [run(pool, "after-1", 1, b), run(pool, "after-2", 2, b)];
        await expect(crashed).rejects.toThrow(/test worker exited \(4\)/);
        for (const p of pinned) await expect(p).rejects.toThrow(/test worker exited \(4\)/);
        expect(pool.isLive(b)).toBe(false);
        await expect(run(pool, "late", 0, b)).rejects.toThrow(/worker was replaced/);
        // The pool is whole again: two workers, the shared queue runs.
        await pool.warm();
        expect(pool.workers).toHaveLength(2);
        expect((await run(pool, 21)).job).toBe(21);
      } finally {
        await pool.close();
      }
    });

    it("sends jobs through a transport of the caller's (a MessageChannel the worker reads)", async () => {
      const viaChannel = `
        const { parentPort, workerData } = require("node:worker_threads");
        workerData.port.on("message", (m) => parentPort.postMessage({ kind: "done", id: m.id, output: { thread: 0, job: "channel:" + m.job } }));
        parentPort.postMessage({ kind: "ready" });`;
      const { MessageChannel } = await import("node:worker_threads");
      let disposed = 0;
      const pool = new WorkerPool<Job>({
        size: 1,
        name: "test",
        start: () => {
          const { port1, port2 } = new MessageChannel();
          const worker = new Worker(viaChannel, { eval: true, workerData: { port: port2 }, transferList: [port2] });
          return { worker, send: (m, t) => port1.postMessage(m, t), dispose: () => (disposed++, port1.close()) };
        },
        onMessage: (p, m) => {
          p.resolve((m as unknown as { output: { thread: number; job: unknown } }).output);
          return true;
        },
        fail: (p, e) => p.reject(e),
      });
      expect((await run(pool, "x")).job).toBe("channel:x");
      await pool.close();
      expect(disposed).toBe(1);
    });
  });
});
