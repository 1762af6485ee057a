import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints the ten slowest test files at the end of a run (collect + setup + tests and hooks), so
 * the next slowdown is seen in the run that brings it, not half an hour of CI later; and the ten
 * that used the most CPU in their own process (test/support/wiring.ts measures it; Chromium's
 * processes are not in it): on two cores the suite's time is its CPU.
 */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length < 2) return;
    const rows = testModules
      .map((m) => {
        const d = m.diagnostic();
        const cpu = (m.meta() as { cpuSeconds?: number }).cpuSeconds;
        return { file: relative(process.cwd(), m.moduleId), seconds: (d.collectDuration + d.setupDuration + d.duration) / 1000, cpu, tests: [...m.children.allTests()].length };
      });
    const line = (r: (typeof rows)[number]) => `  ${r.seconds.toFixed(1).padStart(7)} s  ${r.cpu === undefined ? "      ?" : r.cpu.toFixed(1).padStart(7)} s CPU  ${String(r.tests).padStart(3)} tests  ${r.file}`;
    const slowest = [...rows].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
    const busiest = [...rows].sort((a, b) => (b.cpu ?? 0) - (a.cpu ?? 0)).slice(0, 10);
    const total = rows.reduce((t, r) => t + (r.cpu ?? 0), 0);
    process.stdout.write(`\nThe ten slowest test files:\n${slowest.map(line).join("\n")}\n`);
    process.stdout.write(`\nThe ten files that used the most CPU (${total.toFixed(0)} s in all files' own processes):\n${busiest.map(line).join("\n")}\n`);
  }
}
