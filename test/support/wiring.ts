import { afterAll, inject } from "vitest";
import { startWorkersFromBundle } from "../../functions/media/workers/pool.js";
import { runCpu, setCpuRunner, type CpuTaskKind } from "../../functions/platform/offload/index.js";

/**
 * What this setup file keeps for the whole process. Vitest evaluates a setup file again before
 * each test file, but with `isolate: false` (the "shared" project, vitest.config.ts) the modules it
 * imports are evaluated once per process: state that must outlive one file lives here.
 */
const processWide = globalThis as typeof globalThis & { __timbreWiring?: { offloadLoaded: boolean; cpuAtLastFileEnd: number } };
const wiring = (processWide.__timbreWiring ??= { offloadLoaded: false, cpuAtLastFileEnd: 0 });

// Every entry point (functions/handlers) plugs the CPU tasks into runCpu; so does each test file,
// on its first CPU task: functions/handlers/offload loads every task's code (the lexicon's parser,
// the clone's audio work, the captcha's PNG encoder), which most files never run. Loading it
// plugs in the real runner (worker threads while a stack runs, inline otherwise), which then
// takes this task and every later one. A file that starts a stack loads it with the stack. Once
// it is loaded in this process its runner stays plugged in (a later file of a shared process must
// not put this one back: the module would not be evaluated again to replace it).
if (!wiring.offloadLoaded) {
  let plugged = false;
  setCpuRunner(async (message, transfer) => {
    // Called again once loaded: the real runner did not replace this one (it would loop).
    if (plugged) throw new Error("functions/handlers/offload did not plug its CPU runner in");
    await import("../../functions/handlers/offload/index.js");
    plugged = true;
    wiring.offloadLoaded = true;
    return runCpu(message.kind as CpuTaskKind, message.input as never, transfer);
  });
}

// The worker threads a test starts load the server bundle's files (test/support/global-setup.ts).
startWorkersFromBundle(inject("workerBundleDir") || undefined);
// The run's system-data snapshots, for startTestStack (test/support/stack.ts; this process only).
process.env.TIMBRE_TEST_SYSTEM_SNAPSHOTS = inject("systemSnapshots");
// The run's folder of fixtures several files make alike (test/support/fixture-cache.ts).
process.env.TIMBRE_TEST_FIXTURE_DIR = inject("fixtureDir");

// The CPU this file used in its process (the main thread and worker threads: imports, stacks,
// engines; not Chromium's processes), for the slowest-files report (test/support/slowest-files.ts).
// An isolated file has a process of its own: all of that process' CPU. Files sharing a process
// ("shared" project) each count from the end of the file before them (the first counts the
// process' start).
// (Vitest reads the hook's first parameter as fixtures: it must be a destructuring pattern.)
afterAll(({}, file) => {
  const cpu = process.cpuUsage();
  const seconds = (cpu.user + cpu.system) / 1e6;
  (file.meta as { cpuSeconds?: number }).cpuSeconds = seconds - wiring.cpuAtLastFileEnd;
  wiring.cpuAtLastFileEnd = seconds;
});
