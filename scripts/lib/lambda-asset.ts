/**
 * Which files of a Lambda asset the code in it can load, found from the emitted files alone:
 * starting at the entry (index.mjs), every JavaScript file reached is parsed and each string
 * literal in it is tried as a reference, the way Node would use it:
 *
 * - relative ("./chunk-X.js", "rnnoise.wasm"): a file beside the module (static and dynamic
 *   imports, `new URL("./worker.js", import.meta.url)` worker entries, Emscripten's locateFile);
 * - bare ("espeak-ng", "opusscript/build/x.js"): package resolution along node_modules folders
 *   (`main`, `exports`, the subpath itself), which also reads the package's package.json;
 * - path pieces (`join("@scope", "pkg", "dist", "x.js")`, every argument a literal): a file beside
 *   the module or under a node_modules folder, read by path (no resolution, no package.json).
 *
 * A JavaScript file reached by import or resolution is a module (Node reads its package's
 * package.json for `type`); a file reached by path pieces is read as it is. Source maps named by a
 * reached module's sourceMappingURL are read only with --enable-source-maps, and are counted on
 * their own. Licence notices (LICENSE, COPYING…) are never loaded but kept on purpose: also
 * counted on their own. Everything else is unused.
 *
 * This over-approximates (a literal that names a file counts as loading it), so an "unused" file
 * is one no code in the asset even names; a path computed from variables would be missed, which
 * shows as unused (loudly), never as silently kept.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import ts from "typescript";

export type FileRole = "module" | "data" | "source-map" | "notice" | "unused";

export interface AssetFile {
  /** Relative to the asset, with "/". */
  path: string;
  bytes: number;
  role: FileRole;
}

export interface AssetReport {
  files: AssetFile[];
  totalBytes: number;
  /** Bytes no entry point can load (role "unused"). */
  unusedBytes: number;
  sourceMapBytes: number;
  noticeBytes: number;
  /**
   * Bytes held twice among what is loaded: identical files, and long string literals (inlined
   * WebAssembly and the like, 1 KB or more) repeated across or within modules, or equal to a
   * .wasm file of the asset in base64. Code bundled twice is not seen here, only data.
   */
  duplicatedBytes: number;
}

export interface AnalyzeOptions {
  /** Entry modules, relative to the asset ("index.mjs"). */
  entries: string[];
  /** Whether the function runs with --enable-source-maps (NODE_OPTIONS), which reads the maps. */
  sourceMaps: boolean;
}

const JS = /\.(m|c)?js$/;
const NOTICE = /^(licen[cs]e|copying|notice|authors)([.-][\w.-]*)?$/i;
const BARE = /^(@[\w.-]+\/)?[\w.-]+(\/[^\s]*)?$/;
const LONG_LITERAL = 1024;

function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    return e.isDirectory() ? listFiles(full, base) : e.isFile() ? [relative(base, full).split(sep).join("/")] : [];
  });
}

interface Scan {
  /** Every string literal (imports, dynamic imports, URLs, resolve arguments…). */
  literals: string[];
  /** Calls whose arguments are all literals, joined with "/" (path.join pieces). */
  pieces: string[];
  /** Literals long enough to be inlined data. */
  long: string[];
  sourceMap: string | null;
}

function scanModule(text: string, name: string): Scan {
  const scan: Scan = { literals: [], pieces: [], long: [], sourceMap: null };
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const isLiteral = (n: ts.Node): n is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral => ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n);
  const stack: ts.Node[] = [file];
  while (stack.length) {
    const node = stack.pop()!;
    if (isLiteral(node)) {
      if (node.text.length >= LONG_LITERAL) scan.long.push(node.text);
      else scan.literals.push(node.text);
    } else if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && (node.arguments?.length ?? 0) >= 2 && node.arguments!.every(isLiteral)) {
      scan.pieces.push(node.arguments!.map((a) => (a as ts.StringLiteral).text).join("/"));
    }
    node.forEachChild((c) => {
      stack.push(c);
    });
  }
  scan.sourceMap = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1] ?? null;
  return scan;
}

/** The files a package's `exports` map can give for one subpath ("." or "./x"), under any condition. */
function exportTargets(exports: unknown, subpath: string): string[] {
  const flat = (v: unknown): string[] =>
    typeof v === "string" ? [v] : Array.isArray(v) ? v.flatMap(flat) : v && typeof v === "object" ? Object.values(v).flatMap(flat) : [];
  if (typeof exports === "string" || Array.isArray(exports)) return subpath === "." ? flat(exports) : [];
  if (!exports || typeof exports !== "object") return [];
  const map = exports as Record<string, unknown>;
  const keyed = Object.keys(map).some((k) => k.startsWith("."));
  if (!keyed) return subpath === "." ? flat(map) : [];
  if (subpath in map) return flat(map[subpath]);
  return Object.entries(map).flatMap(([key, value]) => {
    const star = key.indexOf("*");
    if (star < 0 || !subpath.startsWith(key.slice(0, star)) || !subpath.endsWith(key.slice(star + 1))) return [];
    const middle = subpath.slice(star, subpath.length - (key.length - star - 1));
    return flat(value).map((t) => t.replace("*", middle));
  });
}

export function analyzeAsset(dir: string, options: AnalyzeOptions): AssetReport {
  const files = listFiles(dir).sort();
  const present = new Set(files);
  const role = new Map<string, FileRole>();
  const queue: string[] = [];
  const longLiterals: string[] = [];

  /** The nearest package.json above a module inside node_modules: Node reads it for `type`. */
  const packageScope = (path: string) => {
    for (let d = posix.dirname(path); d !== "." && d.includes("node_modules/"); d = posix.dirname(d)) {
      if (present.has(`${d}/package.json`)) {
        role.set(`${d}/package.json`, "data");
        return;
      }
    }
  };
  const queued = new Set<string>();
  /** Marks a file; JavaScript is queued for scanning (once), a module's package.json marked. */
  const reach = (path: string, as: "module" | "data") => {
    if (!present.has(path)) return false;
    if (as === "module" && !JS.test(path)) as = "data";
    if (role.get(path) !== "module") role.set(path, as);
    if (as === "module") packageScope(path);
    if (JS.test(path) && !queued.has(path)) {
      queued.add(path);
      queue.push(path);
    }
    return true;
  };
  const withExtensions = (p: string) => [p, `${p}.js`, `${p}.mjs`, `${p}.cjs`, `${p}.json`, `${p}/index.js`, `${p}/index.mjs`];
  /** Folders searched for a bare name from a module's folder, nearest first. */
  const nodeModules = (from: string) => {
    const out: string[] = [];
    for (let d = from; ; d = posix.dirname(d)) {
      out.push(d === "." ? "node_modules" : `${d}/node_modules`);
      if (d === ".") return out;
    }
  };

  const resolveBare = (spec: string, from: string) => {
    const parts = spec.split("/");
    const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
    const sub = spec.slice(name.length + 1);
    for (const folder of nodeModules(from)) {
      const pkgDir = `${folder}/${name}`;
      if (!files.some((f) => f.startsWith(`${pkgDir}/`))) continue;
      let pkg: { main?: string; exports?: unknown } = {};
      if (reach(`${pkgDir}/package.json`, "data")) pkg = JSON.parse(readFileSync(join(dir, pkgDir, "package.json"), "utf8")) as typeof pkg;
      const targets = [
        ...exportTargets(pkg.exports, sub ? `./${sub}` : "."),
        ...(sub ? withExtensions(sub) : [...(pkg.main ? withExtensions(pkg.main) : []), "index.js"]),
      ];
      for (const t of targets) reach(posix.join(pkgDir, t), "module");
      return;
    }
  };

  for (const e of options.entries) reach(e, "module");
  while (queue.length) {
    const path = queue.shift()!;
    const from = posix.dirname(path);
    const scan = scanModule(readFileSync(join(dir, path), "utf8"), path);
    longLiterals.push(...scan.long);
    for (const s of scan.literals) {
      if (!s || s.length > 500 || /\s/.test(s) || s.startsWith("node:") || s.startsWith("/")) continue;
      const beside = posix.join(from, s);
      if (s.startsWith("./") || s.startsWith("../") || !s.includes("/")) {
        for (const p of s.startsWith(".") ? withExtensions(beside) : [beside]) reach(p, "module");
      }
      if (!s.startsWith(".") && BARE.test(s)) resolveBare(s, from);
    }
    for (const p of scan.pieces) {
      for (const candidate of [posix.join(from, p), ...nodeModules(from).map((f) => `${f}/${p}`)]) reach(candidate, "data");
    }
    if (scan.sourceMap && !scan.sourceMap.startsWith("data:") && options.sourceMaps) {
      const map = posix.join(from, scan.sourceMap);
      if (present.has(map) && !role.has(map)) role.set(map, "source-map");
    }
  }

  const out: AssetFile[] = files.map((path) => ({
    path,
    bytes: statSync(join(dir, path)).size,
    role: role.get(path) ?? (NOTICE.test(posix.basename(path)) ? "notice" : "unused"),
  }));
  const sum = (r: FileRole) => out.filter((f) => f.role === r).reduce((n, f) => n + f.bytes, 0);

  // Duplicates among what is loaded.
  let duplicatedBytes = 0;
  const seen = new Map<string, number>();
  const once = (key: string, bytes: number) => {
    const n = seen.get(key) ?? 0;
    if (n > 0) duplicatedBytes += bytes;
    seen.set(key, n + 1);
  };
  const digest = (b: string | Buffer) => createHash("sha256").update(b).digest("hex");
  const loaded = out.filter((f) => f.role === "module" || f.role === "data");
  for (const f of loaded) once(`file:${digest(readFileSync(join(dir, f.path)))}`, f.bytes);
  const wasm = new Map(loaded.filter((f) => f.path.endsWith(".wasm")).map((f) => [digest(readFileSync(join(dir, f.path)).toString("base64")), f.bytes]));
  for (const text of longLiterals) {
    const base64 = text.replace(/^data:[^,]*;base64,/, "");
    const asWasm = wasm.get(digest(base64));
    if (asWasm !== undefined) duplicatedBytes += text.length;
    else once(`literal:${digest(text)}`, text.length);
  }

  return {
    files: out,
    totalBytes: out.reduce((n, f) => n + f.bytes, 0),
    unusedBytes: sum("unused"),
    sourceMapBytes: sum("source-map"),
    noticeBytes: sum("notice"),
    duplicatedBytes,
  };
}

/** The asset folder of a function in a synthesized template, from its Code.S3Key. */
export function functionAssetDir(cdkOut: string, code: { S3Key: string }): string {
  return join(cdkOut, `asset.${code.S3Key.replace(/\.zip$/, "")}`);
}
