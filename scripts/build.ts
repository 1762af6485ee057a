import "./lib/quiet.js";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/** `npm run build`: builds the Remix app (web/app) into build/web with `remix vite:build`. */
const ROOT = resolve(import.meta.dirname, "..");
const remixBin = join(ROOT, "node_modules", ".bin", "remix");

if (!existsSync(remixBin)) {
  process.stderr.write(`Cannot build the web app: ${remixBin} is missing. Run \`npm install\` first.\n`);
  process.exit(1);
}

const started = performance.now();
const r = spawnSync(remixBin, ["vite:build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
if (r.error) {
  process.stderr.write(`Cannot build the web app: ${r.error.message}\n`);
  process.exit(1);
}
if (r.status !== 0) {
  process.stderr.write(`The web app build failed (remix vite:build exited with ${r.status ?? r.signal}). See the output above.\n`);
  process.exit(r.status ?? 1);
}
if (!existsSync(join(ROOT, "build", "web", "server", "index.js"))) {
  process.stderr.write("The web app build finished but build/web/server/index.js is missing.\n");
  process.exit(1);
}
process.stdout.write(`Built the web app into build/web in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
