import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { analyzeAsset } from "../../scripts/lib/lambda-asset.js";

/**
 * A tiny asset laid out as a Lambda function's: a bundle, a worker beside it found through
 * `new URL(…, import.meta.url)`, a lazily imported chunk, runtime packages in node_modules, and
 * files no code names.
 */
let dir: string;
const inlined = "A".repeat(2048);

function put(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "timbre-lambda-asset-"));
  put(
    "index.mjs",
    `import{createRequire as r}from"node:module";import{join as j}from"node:path";import"./chunk-A.js";` +
      `const w=new URL("./worker.js",import.meta.url);const wasm=r(import.meta.url).resolve("pkg/dist/pkg.wasm");` +
      `const loader=j("@scope","codec","build","loader.js");const data="${inlined}";\n//# sourceMappingURL=index.mjs.map\n`,
  );
  put("index.mjs.map", `{"version":3,"mappings":""}`);
  put("chunk-A.js", `export const later=()=>import("./chunk-lazy.js");`);
  put("chunk-lazy.js", `export const data="${inlined}";`);
  put("worker.js", `import dep from "dep";dep();`);
  put("orphan.js", `export const never = 1;`);
  put("node_modules/pkg/package.json", `{"name":"pkg"}`);
  put("node_modules/pkg/LICENSE", "MIT");
  put("node_modules/pkg/dist/pkg.wasm", "\0asm");
  put("node_modules/pkg/dist/pkg-browser.wasm", "\0asm");
  put("node_modules/dep/package.json", `{"name":"dep","type":"module","exports":{".":{"import":"./esm/dep.js","require":"./cjs/dep.cjs"}}}`);
  put("node_modules/dep/esm/dep.js", `export default()=>fetch(new URL("dep.wasm",import.meta.url));`);
  put("node_modules/dep/esm/dep.wasm", "\0asm\u0001");
  put("node_modules/dep/cjs/dep.cjs", `module.exports=()=>{};`);
  put("node_modules/dep/README.md", "# dep");
  put("node_modules/@scope/codec/package.json", `{"name":"@scope/codec"}`);
  put("node_modules/@scope/codec/build/loader.js", `var m="base64";`);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const roles = (sourceMaps = true) => Object.fromEntries(analyzeAsset(dir, { entries: ["index.mjs"], sourceMaps }).files.map((f) => [f.path, f.role]));

it("follows static and dynamic imports, worker URLs, package resolution and path pieces", () => {
  const r = roles();
  expect(r["index.mjs"]).toBe("module");
  expect(r["chunk-A.js"]).toBe("module");
  expect(r["chunk-lazy.js"]).toBe("module");
  expect(r["worker.js"]).toBe("module");
  // Resolution reads package.json and reaches every condition's target; a loader finds its .wasm beside it.
  expect(r["node_modules/dep/package.json"]).toBe("data");
  expect(r["node_modules/dep/esm/dep.js"]).toBe("module");
  expect(r["node_modules/dep/cjs/dep.cjs"]).toBe("module");
  expect(r["node_modules/dep/esm/dep.wasm"]).toBe("data");
  expect(r["node_modules/pkg/dist/pkg.wasm"]).toBe("data");
  expect(r["node_modules/pkg/package.json"]).toBe("data");
  // Found by path and read as it is: its package is never resolved.
  expect(r["node_modules/@scope/codec/build/loader.js"]).toBe("data");
  expect(r["node_modules/@scope/codec/package.json"]).toBe("unused");
});

it("reports what no entry point can load, and counts source maps and licences on their own", () => {
  const report = analyzeAsset(dir, { entries: ["index.mjs"], sourceMaps: true });
  const unused = report.files.filter((f) => f.role === "unused").map((f) => f.path);
  expect(unused.sort()).toEqual(["node_modules/@scope/codec/package.json", "node_modules/dep/README.md", "node_modules/pkg/dist/pkg-browser.wasm", "orphan.js"]);
  expect(report.unusedBytes).toBe(report.files.filter((f) => f.role === "unused").reduce((n, f) => n + f.bytes, 0));
  expect(roles()["index.mjs.map"]).toBe("source-map");
  expect(report.sourceMapBytes).toBeGreaterThan(0);
  expect(roles()["node_modules/pkg/LICENSE"]).toBe("notice");
  // Without --enable-source-maps nothing reads the map.
  expect(roles(false)["index.mjs.map"]).toBe("unused");
  // The same 2 KB literal in the bundle and in a chunk: held twice.
  expect(report.duplicatedBytes).toBe(inlined.length);
  expect(report.totalBytes).toBe(report.files.reduce((n, f) => n + f.bytes, 0));
});

it("counts a WebAssembly module both inlined in a bundle and copied as a file", () => {
  const other = mkdtempSync(join(tmpdir(), "timbre-lambda-asset-"));
  try {
    const wasm = Buffer.alloc(1500, 7);
    writeFileSync(join(other, "codec.wasm"), wasm);
    writeFileSync(join(other, "index.mjs"), `const a=new URL("./codec.wasm",import.meta.url);const b="data:application/wasm;base64,${wasm.toString("base64")}";`);
    const report = analyzeAsset(other, { entries: ["index.mjs"], sourceMaps: false });
    expect(report.unusedBytes).toBe(0);
    expect(report.duplicatedBytes).toBe(`data:application/wasm;base64,${wasm.toString("base64")}`.length);
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
});
