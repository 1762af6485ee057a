import { defineConfig } from "vitest/config";
import SlowestFiles from "./test/support/slowest-files.js";

// Separate from the Remix vite config so the Remix plugin is not loaded in tests.
export default defineConfig({
  test: {
    include: ["functions/**/*.test.ts", "infra/**/*.test.ts", "workflows/**/*.test.ts", "web/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["node_modules", "build", "cdk.out", ".data"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
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
  },
});
