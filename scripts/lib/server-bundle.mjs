// @ts-check
/**
 * The server as `npm start` runs it: our TypeScript sources bundled by esbuild into build/server
 * (dependencies stay in node_modules), rebuilt when a source is newer than the bundle. Starting
 * from the bundle skips transpiling at every start, and each worker thread loads one small file
 * instead of registering a TypeScript loader of its own.
 *
 * Plain JavaScript on purpose: it runs before anything can load TypeScript.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { WORKER_ENTRY_POINTS } from "./worker-entries.mjs";

export const ROOT = resolve(import.meta.dirname, "..", "..");
export const SERVER_DIR = join(ROOT, "build", "server");
const STAMP = join(SERVER_DIR, ".built");

/**
 * Output file -> entry: the server and every worker thread the code can start
 * (scripts/lib/worker-entries.mjs). Each worker pool starts its thread from the file of this name
 * beside the code that spawns it (spawnWorker), which in the bundle is this folder.
 */
export const SERVER_ENTRIES = {
  start: "scripts/start.ts",
  ...WORKER_ENTRY_POINTS,
};

const SOURCES = ["functions", "infra", "workflows", join("scripts", "start.ts"), join("scripts", "lib"), "package-lock.json", "tsconfig.json"];

/**
 * aws-local-stepfunctions is bundled (the one dependency that is) so that what it imports and the
 * embedded runner never uses resolves to ./step-functions-stubs.mjs: the AWS Lambda client, its
 * credential providers and the ASL validator cost 0.3-0.5 s of the request loop at the first
 * workflow execution. Its other imports stay external.
 * @type {import("esbuild").Plugin}
 */
const localStepFunctions = {
  name: "local-step-functions",
  setup(b) {
    const stubs = join(ROOT, "scripts", "lib", "step-functions-stubs.mjs");
    const inPackage = (/** @type {string} */ importer) => importer.includes(`${join("node_modules", "aws-local-stepfunctions")}`);
    b.onResolve({ filter: /^aws-local-stepfunctions$/ }, () => ({ path: join(ROOT, "node_modules", "aws-local-stepfunctions", "build", "main.node.esm.js") }));
    b.onResolve({ filter: /^(@aws-sdk\/client-lambda|@aws-sdk\/credential-providers|asl-validator)$/ }, (args) => (inPackage(args.importer) ? { path: stubs } : undefined));
  },
};

/** @param {string} path */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(path)) {
    if (e === "node_modules" || e.startsWith(".") || /\.test\.tsx?$/.test(e)) continue;
    newest = Math.max(newest, newestMtime(join(path, e)));
  }
  return newest;
}

/** True when build/server is missing or older than anything it is built from. */
export function serverBundleIsStale() {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return SOURCES.some((s) => newestMtime(join(ROOT, s)) > built);
}

/**
 * Builds build/server when stale. Builds into a fresh folder and swaps it in, so a server that is
 * running from the old bundle (or a second start racing this one) never sees half a bundle.
 * @returns {Promise<boolean>} whether it built
 */
export async function ensureServerBundle() {
  if (!serverBundleIsStale()) return false;
  const { build } = await import("esbuild");
  const tmp = `${SERVER_DIR}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: SERVER_ENTRIES,
    outdir: tmp,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Dependencies load from node_modules as they are: some read their own files at run time.
    packages: "external",
    // Dynamic imports become chunks loaded when first used. Without this esbuild hoists the
    // external imports of lazily imported code to the top of the bundle, so every start loaded
    // aws-cdk-lib (~670 files) for the workflow definitions, which are cached after one render.
    splitting: true,
    chunkNames: "chunk-[name]-[hash]", // beside the entries: code finds files relative to its own folder
    sourcemap: "linked",
    logLevel: "error",
    plugins: [localStepFunctions],
  });
  writeFileSync(join(tmp, STAMP.slice(SERVER_DIR.length + 1)), new Date().toISOString());
  const old = `${SERVER_DIR}.${process.pid}.old`;
  if (existsSync(SERVER_DIR)) renameSync(SERVER_DIR, old);
  renameSync(tmp, SERVER_DIR);
  rmSync(old, { recursive: true, force: true });
  return true;
}
