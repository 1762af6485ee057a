import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { chromium, type BrowserServer } from "playwright-core";
import { loadDefinitions } from "../../infra/local/definitions.js";
import { ensureWebBuild } from "../../scripts/lib/web-build.js";
import { ensureServerBundle, SERVER_DIR } from "../../scripts/lib/server-bundle.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "./chromium.js";
import { ensureDependencyBundles } from "./dependency-bundles.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's shared Chromium (test/browser/helpers.ts launchChromium connects to it); empty when there is none. */
    chromiumEndpoint: string;
    /** Where worker threads start from (functions/media/workers/pool.ts spawnWorker); empty: tsx as before. */
    workerBundleDir: string;
    /** The run's folder of system-data snapshots (infra/local/stack.ts systemSnapshots); empty: every stack seeds. */
    systemSnapshots: string;
    /** The run's folder of deterministic fixtures several files make alike (test/support/fixture-cache.ts); empty: none. */
    fixtureDir: string;
  }
}

/**
 * Once per test run: build the web app when build/web is missing or older than its sources
 * (browser tests serve it), then render (or reuse) the CDK definitions so test files do not
 * each pay the CDK load. And one Chromium for the run's browser files (without a fake
 * microphone), which they connect to instead of each launching its own; set
 * TIMBRE_TEST_SHARED_CHROMIUM=0 to have each file launch its own. And the server bundle
 * (build/server, as `npm start` builds it, only when a source changed), whose worker files every
 * worker thread the tests start loads instead of registering tsx and transpiling in each thread
 * (0.3 s of CPU instead of 0.8 s a thread); TIMBRE_TEST_WORKER_BUNDLE=0 turns it off. And a
 * folder for the run's system-data snapshot: the run's first test stack seeds the system data as
 * `npm start` does and saves its stores there, the others start from that copy (about 2 s of CPU
 * less a stack); TIMBRE_TEST_SYSTEM_SNAPSHOT=0 has every stack seed. And a folder for the run's
 * deterministic fixtures (test/support/fixture-cache.ts: engine speech that several files make
 * alike, made once); TIMBRE_TEST_FIXTURE_CACHE=0 has every file make its own. And the one-file
 * bundles of heavy dev dependencies that vitest.config.ts points their imports at (the official
 * SDK: test/support/dependency-bundles.ts, built only when missing or its package changed);
 * TIMBRE_TEST_SDK_BUNDLE=0 imports the package as installed.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureWebBuild((line) => process.stdout.write(`${line}\n`));
  await loadDefinitions();
  await ensureDependencyBundles((line) => process.stdout.write(`${line}\n`));
  const bundles = process.env.TIMBRE_TEST_WORKER_BUNDLE === "0" ? "" : SERVER_DIR;
  if (bundles) await ensureServerBundle();
  project.provide("workerBundleDir", bundles);
  let server: BrowserServer | undefined;
  // The "alone" files launch no browser, and a run of named files launches it only when one of
  // them may be a browser test (vitest keeps the command line's filters as filenamePattern; when
  // it does not say, the browser is launched).
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  const mayBrowse = !filters?.length || filters.some((f) => /browser|product|^test\/?$|^\.?\/?$/.test(f));
  if (project.name !== "alone" && mayBrowse && process.env.TIMBRE_TEST_SHARED_CHROMIUM !== "0") {
    server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }
  project.provide("chromiumEndpoint", server?.wsEndpoint() ?? "");
  const snapshots = process.env.TIMBRE_TEST_SYSTEM_SNAPSHOT === "0" ? "" : mkdtempSync(join(tmpdir(), "timbre-system-"));
  project.provide("systemSnapshots", snapshots);
  const fixtures = process.env.TIMBRE_TEST_FIXTURE_CACHE === "0" ? "" : mkdtempSync(join(tmpdir(), "timbre-fixtures-"));
  project.provide("fixtureDir", fixtures);
  return async () => {
    await server?.close();
    if (snapshots) rmSync(snapshots, { recursive: true, force: true });
    if (fixtures) rmSync(fixtures, { recursive: true, force: true });
  };
}
