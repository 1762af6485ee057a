import { defineConfig } from "vitest/config";
import SlowestFiles from "./test/support/slowest-files.js";

/**
 * Files whose assertions compare this process' own timings (event-loop delay, a burst of
 * clients against `npm start`): they run one at a time after every other file has finished, so
 * no other file's CPU is in their measurements.
 */
const ALONE = [
  "test/speech/overload.test.ts",
  "test/api/loop-responsiveness.test.ts",
  "test/api/signin-limits.test.ts",
  "test/embedded/front-limits.test.ts",
  "functions/media/engine/espeak-engine.test.ts",
];

// Separate from the Remix vite config so the Remix plugin is not loaded in tests.
export default defineConfig({
  test: {
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits 1 s by default: on a loaded 2-core machine a page that renders in 300 ms alone can take
    // several seconds with another file's Chromium and engine beside it (CI failed a browser test that way).
    expect: { poll: { timeout: 10_000 } },
    globalSetup: ["test/support/global-setup.ts"],
    // What every entry point wires (the CPU tasks behind runCpu), for tests that call capabilities directly.
    setupFiles: ["test/support/wiring.ts"],
    reporters: ["default", new SlowestFiles()],
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
    },
    // Vitest's default is one worker per core minus one: one file at a time on a 2-core machine,
    // which leaves a core idle while a file waits (on real-time microphone audio, on Chromium).
    // Two at a time keeps both cores busy; three overloaded them (each file also runs Chromium
    // and the stack's worker threads) until browser tests ran three times slower and hit their
    // timeouts. TIMBRE_TEST_WORKERS overrides (a machine with more cores).
    maxWorkers: Number(process.env.TIMBRE_TEST_WORKERS ?? 2),
    projects: [
      {
        extends: true,
        test: {
          name: "parallel",
          include: ["functions/**/*.test.ts", "infra/**/*.test.ts", "workflows/**/*.test.ts", "web/**/*.test.ts", "test/**/*.test.ts"],
          exclude: ["node_modules", "build", "cdk.out", ".data", ...ALONE],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "alone",
          include: ALONE,
          exclude: ["node_modules", "build", "cdk.out", ".data"],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
