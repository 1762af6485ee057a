// @ts-check
/**
 * `npm start`: bundle the server when its sources changed (about a second), then run the bundle
 * in this process: no TypeScript is transpiled at start, in this thread or in the workers.
 * Without esbuild (an install without dev dependencies) it runs the sources through tsx instead.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureServerBundle, ROOT, SERVER_DIR } from "./lib/server-bundle.mjs";

let bundled = true;
try {
  if (await ensureServerBundle()) process.stdout.write("Bundled the server into build/server\n");
} catch (e) {
  if (!(e instanceof Error && /Cannot find (package|module) 'esbuild'/.test(e.message))) throw e;
  bundled = false;
}
if (bundled) {
  await import(pathToFileURL(join(SERVER_DIR, "start.js")).href);
} else {
  process.stdout.write("esbuild is not installed: running the TypeScript sources through tsx (slower to start)\n");
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(join(ROOT, "scripts", "start.ts")).href);
}
