import { loadDefinitions } from "../../infra/local/definitions.js";
import { ensureWebBuild } from "../../scripts/lib/web-build.js";

/**
 * Once per test run: build the web app when build/web is missing or older than its sources
 * (browser tests serve it), then render (or reuse) the CDK definitions so test files do not
 * each pay the CDK load.
 */
export default async function setup(): Promise<void> {
  ensureWebBuild((line) => process.stdout.write(`${line}\n`));
  await loadDefinitions();
}
