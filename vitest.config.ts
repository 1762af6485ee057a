import { defineConfig } from "vitest/config";
import SlowestFiles from "./test/support/slowest-files.js";
import { dependencyBundleAliases } from "./test/support/dependency-bundles.js";

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

/**
 * Files that share their process with other files (`isolate: false`): pure unit tests whose every
 * imported module was audited for state that outlives a file (docs/decisions/2026-12-07-shared-process.md).
 * They start no stack, engine pool or server configuration; the few module-level values they touch
 * (caches of tables, a counter for ids, the SIMD switch their tests turn back on in afterEach) give
 * the same results whichever file ran before. Each saves a process start, the setup file's imports
 * and vitest's runtime: what such a file costs more than its tests. Stay isolated: a file that sets
 * process-wide state (functions/handlers/lambda/boot.test.ts: the process' configuration), and the
 * files that compare timings measured in their own process (dictionaries/lexicon, speech/alignment,
 * engine/sentences: linear-time ratios), which another file's heap and garbage would be part of.
 */
const SHARED = [
  "web/app/components/**/*.test.ts",
  "web/app/lib/*.test.ts",
  "web/app/routes/**/*.test.ts",
  "web/app/styles/*.test.ts",
  "functions/capabilities/account/totp.test.ts",
  "functions/capabilities/assistant/brain.test.ts",
  "functions/capabilities/cloning/fit.test.ts",
  "functions/capabilities/dictionaries/{apply,xml}.test.ts",
  "functions/capabilities/openai/mapping.test.ts",
  "functions/capabilities/speech/normalize.test.ts",
  "functions/capabilities/voice-design/prompt.test.ts",
  "functions/capabilities/voices/{counters,libraryQuery,sampleProbe}.test.ts",
  "functions/capabilities/webhooks/targets.test.ts",
  "functions/media/audio/{encoder,flac,formats,g711,gain,mp3,pieces,resample-wasm,resample,segment,wav-sniff}.test.ts",
  "functions/media/audio/wasm/sources.test.ts",
  "functions/media/engine/encode-stream.test.ts",
  "functions/media/language/detect.test.ts",
  "functions/media/voice-analysis/{align,signal,simd}.test.ts",
  "functions/platform/adapters/{aws,log}.test.ts",
  "functions/platform/{config,operatorSettings}.test.ts",
  "functions/platform/contract/dictionaries.test.ts",
  "functions/platform/domain/{audioCredits,dialogueEnhance,policy}.test.ts",
  "functions/platform/http/{multipart,router}.test.ts",
  "functions/platform/net/fetch.test.ts",
  "functions/platform/storage/sigv4.test.ts",
  "functions/platform/stores/recent.test.ts",
  "infra/local/front-range.test.ts",
  "test/infra/web-build.test.ts",
];
const SHARING = process.env.TIMBRE_TEST_SHARED !== "0";

// Separate from the Remix vite config so the Remix plugin is not loaded in tests.
export default defineConfig({
  // Heavy dev dependencies the tests import (the official SDK) load from a one-file bundle of the
  // installed package, built by the global setup (test/support/dependency-bundles.ts);
  // TIMBRE_TEST_SDK_BUNDLE=0 imports the package as installed.
  resolve: { alias: dependencyBundleAliases() },
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
          exclude: ["node_modules", "build", "cdk.out", ".data", ...ALONE, ...(SHARING ? SHARED : [])],
          sequence: { groupOrder: 0 },
        },
      },
      // TIMBRE_TEST_SHARED=0: these files are isolated again, in "parallel".
      ...(SHARING
        ? [
            {
              extends: true as const,
              test: {
                name: "shared",
                include: SHARED,
                exclude: ["node_modules", "build", "cdk.out", ".data"],
                isolate: false,
                sequence: { groupOrder: 0 },
              },
            },
          ]
        : []),
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
