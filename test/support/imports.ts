/**
 * The import graph of the product's sources, read from the files themselves: static imports and
 * re-exports (type-only ones too), dynamic `import()`, and worker entries started with
 * `new URL("./x.ts", import.meta.url)`. Only relative specifiers: packages are not our layers.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

export const ROOT = normalize(join(dirname(new URL(import.meta.url).pathname), "..", ".."));

const SPEC = /(?:(?:import|export)(?:\s+type)?[^'";]*?from\s+|import\(\s*|new URL\(\s*|^\s*import\s+)(['"])(\.\.?\/[^'"]*)\1/gm;
const SOURCE = /\.(ts|tsx|mts|mjs)$/;

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(join(ROOT, d), { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!["node_modules", "build", ".cache"].includes(e.name)) walk(p);
      } else if (SOURCE.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** The file a specifier names (`.js` written for a `.ts` or `.tsx` file, or a folder's index). */
function resolveTarget(from: string, spec: string): string | null {
  const t = normalize(join(dirname(from), spec));
  for (const c of [t, t.replace(/\.js$/, ".ts"), t.replace(/\.js$/, ".tsx"), `${t}.ts`, `${t}.tsx`, join(t, "index.ts")]) {
    const abs = join(ROOT, c);
    if (existsSync(abs) && statSync(abs).isFile()) return c;
  }
  return null;
}

export interface Edge {
  from: string;
  to: string;
  spec: string;
}

export function importsOf(file: string): Edge[] {
  const src = readFileSync(join(ROOT, file), "utf8");
  const edges: Edge[] = [];
  for (const m of src.matchAll(SPEC)) {
    const to = resolveTarget(file, m[2]);
    // A worker's built `.js` sibling (new URL("./x-worker.js")) exists only in a bundle.
    if (to && SOURCE.test(to)) edges.push({ from: file, to, spec: m[2] });
  }
  return edges;
}

/** Strongly connected components of more than one file (or a file importing itself): the circles. */
export function circles(files: string[], edges: Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (next.get(v) ?? []).includes(v)) out.push(c.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return out;
}

export const rel = (p: string) => relative(ROOT, join(ROOT, p));
