import { afterAll, inject } from "vitest";
import { startWorkersFromBundle } from "../../functions/media/workers/pool.js";
import { runCpu, setCpuRunner, type CpuTaskKind } from "../../functions/platform/offload/index.js";

// Every entry point (functions/handlers) plugs the CPU tasks into runCpu; so does each test file,
// on its first CPU task: functions/handlers/offload loads every task's code (the lexicon's parser,
// the clone's audio work, the captcha's PNG encoder), which most files never run. Loading it
// plugs in the real runner (worker threads while a stack runs, inline otherwise), which then
// takes this task and every later one. A file that starts a stack loads it with the stack.
let plugged = false;
setCpuRunner(async (message, transfer) => {
  // Called again once loaded: the real runner did not replace this one (it would loop).
  if (plugged) throw new Error("functions/handlers/offload did not plug its CPU runner in");
  await import("../../functions/handlers/offload/index.js");
  plugged = true;
  return runCpu(message.kind as CpuTaskKind, message.input as never, transfer);
});

// The worker threads a test starts load the server bundle's files (test/support/global-setup.ts).
startWorkersFromBundle(inject("workerBundleDir") || undefined);
// The run's system-data snapshots, for startTestStack (test/support/stack.ts; this process only).
process.env.TIMBRE_TEST_SYSTEM_SNAPSHOTS = inject("systemSnapshots");

// The CPU this file's process used (its main thread and worker threads: imports, stacks, engines;
// not Chromium's processes), for the slowest-files report (test/support/slowest-files.ts). Each
// file runs in a process of its own (pool: forks, isolated).
// (Vitest reads the hook's first parameter as fixtures: it must be a destructuring pattern.)
afterAll(({}, file) => {
  const cpu = process.cpuUsage();
  (file.meta as { cpuSeconds?: number }).cpuSeconds = (cpu.user + cpu.system) / 1e6;
});
