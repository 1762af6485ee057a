import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints the ten slowest test files at the end of a run (collect + setup + tests and hooks), so
 * the next slowdown is seen in the run that brings it, not half an hour of CI later.
 */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length < 2) return;
    const rows = testModules
      .map((m) => {
        const d = m.diagnostic();
        return { file: relative(process.cwd(), m.moduleId), seconds: (d.collectDuration + d.setupDuration + d.duration) / 1000, tests: [...m.children.allTests()].length };
      })
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 10);
    const lines = rows.map((r) => `  ${r.seconds.toFixed(1).padStart(7)} s  ${String(r.tests).padStart(3)} tests  ${r.file}`);
    process.stdout.write(`\nThe ten slowest test files:\n${lines.join("\n")}\n`);
  }
}
