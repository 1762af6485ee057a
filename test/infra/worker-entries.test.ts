import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureServerBundle, ROOT, SERVER_DIR } from "../../scripts/lib/server-bundle.mjs";
import { WORKERS } from "../../scripts/lib/worker-entries.mjs";
import { LAMBDA_WORKERS } from "../../infra/constructs/function.js";

/**
 * What ships is what is tested: every worker thread the code can start must be built into the
 * server that `npm start` runs and, unless it is embedded-only, into the Lambda asset. Speech to
 * speech and the isolator once answered 500 under `npm start` because the server bundle's list of
 * workers had been written by hand and missed one; this reads the sources instead of trusting a list.
 */

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && !e.name.startsWith(".")) out.push(...sources(rel));
    } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

const SOURCE_FILES = ["functions", "infra", "workflows", "scripts"].flatMap(sources);

/** Each `{ ts: new URL("./x.ts", import.meta.url), js: new URL("./y.js", import.meta.url) }` a pool starts a worker from. */
function spawnedWorkers(): { name: string; entry: string; file: string; at: number }[] {
  const found = [];
  for (const file of SOURCE_FILES) {
    const code = readFileSync(join(ROOT, file), "utf8");
    for (const m of code.matchAll(/ts:\s*new URL\("\.\/([^"]+\.ts)",\s*import\.meta\.url\),\s*js:\s*new URL\("\.\/([^"]+)\.js",\s*import\.meta\.url\)/g)) {
      found.push({ name: m[2], entry: relative(ROOT, join(ROOT, dirname(file), m[1])), file, at: m.index });
    }
  }
  return found;
}

describe("worker entries", () => {
  const spawned = spawnedWorkers();

  it("lists every worker the code can start, and nothing else", () => {
    // The five pools known today; a new pool shows up here without anyone remembering the list.
    expect(spawned.length).toBeGreaterThanOrEqual(5);
    for (const w of spawned) {
      expect(WORKERS, `${w.file} starts ${w.name}.js: add it to scripts/lib/worker-entries.mjs`).toHaveProperty([w.name]);
      expect(WORKERS[w.name as keyof typeof WORKERS].entry, `${w.name}.js is built from ${w.entry}`).toBe(w.entry);
    }
    expect(Object.keys(WORKERS).sort()).toEqual([...new Set(spawned.map((w) => w.name))].sort());
  });

  it("builds every one of them into the server that npm start runs", async () => {
    await ensureServerBundle();
    for (const w of spawned) expect(existsSync(join(SERVER_DIR, `${w.name}.js`)), `build/server/${w.name}.js`).toBe(true);
  });

  it("bundles every worker a Lambda can start into the API function; the others are started by embedded-only code", () => {
    for (const w of spawned) {
      if (WORKERS[w.name as keyof typeof WORKERS].lambda) {
        expect(LAMBDA_WORKERS).toContain(`${w.name}.js`);
        continue;
      }
      if (w.file.startsWith(join("infra", "local"))) continue;
      // The exported function around the spawn: everything that calls it must be embedded-only.
      const code = readFileSync(join(ROOT, w.file), "utf8");
      const starter = [...code.slice(0, w.at).matchAll(/export (?:async )?function (\w+)/g)].pop()?.[1];
      expect(starter, `the function in ${w.file} that starts ${w.name}.js`).toBeDefined();
      const callers = SOURCE_FILES.filter((f) => f !== w.file && new RegExp(`\\b${starter}\\(`).test(readFileSync(join(ROOT, f), "utf8")));
      expect(callers.length, `someone calls ${starter}`).toBeGreaterThan(0);
      for (const f of callers) expect(f, `${starter} (starts ${w.name}.js, not in the Lambda asset) called from ${f}`).toMatch(/^(infra\/local|scripts)\//);
    }
  });
});
