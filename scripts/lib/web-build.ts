import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
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

const IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

/** A relative import's file: `x.js` is written for `x.ts`/`x.tsx`; undefined when none exists. */
function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(js|jsx|mjs)$/, "");
  for (const c of [base, `${stem}.ts`, `${stem}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return undefined;
}

/**
 * The product modules outside web/ that the web app is built from: every file under functions/
 * (or elsewhere) that web/app reaches through relative imports, followed transitively. Computed
 * from the imports rather than listed, so a module moved or newly imported still triggers a rebuild.
 */
export function webImportsOutsideWeb(): string[] {
  const webDir = join(ROOT, "web");
  const seen = new Set<string>();
  const outside = new Set<string>();
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.name === "node_modules" || e.name.startsWith(".") ? [] : e.isDirectory() ? walk(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
    );
  const queue = walk(join(webDir, "app"));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.startsWith(`${webDir}/`)) outside.add(file);
    for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = resolveImport(file, m[1]);
      if (target && !seen.has(target)) queue.push(target);
    }
  }
  return [...outside].sort();
}

/** True when build/web is missing or older than anything it is built from. */
export function webBuildIsStale(): boolean {
  if (!existsSync(SERVER_BUILD)) return true;
  const built = statSync(SERVER_BUILD).mtimeMs;
  const sources = [join(ROOT, "web"), join(ROOT, "vite.config.ts"), join(ROOT, "package-lock.json"), ...webImportsOutsideWeb()];
  return sources.some((s) => newestMtime(s) > built);
}

/** Builds the web app when stale; throws with the build's output when it fails. */
export function ensureWebBuild(log: (line: string) => void = () => undefined): void {
  if (!webBuildIsStale()) return;
  log("Building the web app…");
  const r = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts", "build.ts")], { cwd: ROOT, stdio: "pipe", encoding: "utf8" });
  if (r.status !== 0) throw new Error(`The web build failed:\n${r.stdout}\n${r.stderr}`);
}
