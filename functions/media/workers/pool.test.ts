import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { TaskPool, workerExecArgv } from "./pool.js";

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
      const adapter = JSON.stringify(join(import.meta.dirname, "worker-threads.ts"));
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
});
