import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { spawnSync } from "node:child_process";

export const ROOT = resolve(import.meta.dirname, "..", "..");
const SERVER_BUILD = join(ROOT, "build", "web", "server", "index.js");

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(path)) {
    // Tests are not part of the build: editing one must not trigger a rebuild.
    if (e === "node_modules" || e.startsWith(".") || /\.test\.tsx?$/.test(e)) continue;
    newest = Math.max(newest, newestMtime(join(path, e)));
  }
  return newest;
}

/** True when build/web is missing or older than anything it is built from. */
export function webBuildIsStale(): boolean {
  if (!existsSync(SERVER_BUILD)) return true;
  const built = statSync(SERVER_BUILD).mtimeMs;
  const sources = [join(ROOT, "web"), join(ROOT, "vite.config.ts"), join(ROOT, "functions", "domain"), join(ROOT, "functions", "contract"), join(ROOT, "functions", "dictionaries"), join(ROOT, "package-lock.json")];
  return sources.some((s) => newestMtime(s) > built);
}

/** Builds the web app when stale; throws with the build's output when it fails. */
export function ensureWebBuild(log: (line: string) => void = () => undefined): void {
  if (!webBuildIsStale()) return;
  log("Building the web app…");
  const r = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts", "build.ts")], { cwd: ROOT, stdio: "pipe", encoding: "utf8" });
  if (r.status !== 0) throw new Error(`The web build failed:\n${r.stdout}\n${r.stderr}`);
}
