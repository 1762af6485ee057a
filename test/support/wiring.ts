import { afterAll, inject } from "vitest";
import { startWorkersFromBundle } from "../../functions/media/workers/pool.js";
// Every entry point (functions/handlers) plugs the CPU tasks into runCpu; so does each test file.
import "../../functions/handlers/offload/index.js";

// The worker threads a test starts load the server bundle's files (test/support/global-setup.ts).
startWorkersFromBundle(inject("workerBundleDir") || undefined);

// The CPU this file's process used (its main thread and worker threads: imports, stacks, engines;
// not Chromium's processes), for the slowest-files report (test/support/slowest-files.ts). Each
// file runs in a process of its own (pool: forks, isolated).
// (Vitest reads the hook's first parameter as fixtures: it must be a destructuring pattern.)
afterAll(({}, file) => {
  const cpu = process.cpuUsage();
  (file.meta as { cpuSeconds?: number }).cpuSeconds = (cpu.user + cpu.system) / 1e6;
});
