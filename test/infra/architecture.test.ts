/**
 * The layer rule of docs/architecture.md, read from the imports themselves:
 *
 *   functions/handlers      entry points, routes, workflows' steps, the CPU task table
 *        ↓
 *   functions/capabilities  one folder per product capability (its API handlers, its service)
 *        ↓
 *   functions/platform      config, context, HTTP, stores, domain rules, the wire contract
 *        ↓
 *   functions/media         signal processing and the engines (no product knowledge)
 *
 * A file may import its own layer and the layers below, never above; the web app (web/app)
 * may import the platform only (and the type of its host, functions/handlers/web.ts); and no
 * import circles anywhere. Tests, fixtures and `testing.ts` helpers may import anything.
 */
import { describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { circles, importsOf, ROOT, sourceFiles, type Edge } from "../support/imports.js";

const LAYERS = ["media", "platform", "capabilities", "handlers"] as const;
const layerOf = (file: string): number => LAYERS.indexOf(file.split("/")[1] as (typeof LAYERS)[number]);
const isTestCode = (file: string) => /\.test\.tsx?$/.test(file) || /(^|\/)fixtures\//.test(file) || /(^|\/)testing\.ts$/.test(file);

/** Imports that break the rule, as "from -> to". */
export function breaches(edges: Edge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    if (isTestCode(e.from)) continue;
    if (e.from.startsWith("functions/")) {
      if (!e.to.startsWith("functions/")) out.push(`${e.from} -> ${e.to} (outside functions/)`);
      else if (layerOf(e.to) > layerOf(e.from)) out.push(`${e.from} -> ${e.to} (upward)`);
    } else if (e.from.startsWith("web/") && e.to.startsWith("functions/")) {
      if (!e.to.startsWith("functions/platform/") && e.to !== "functions/handlers/web.ts") out.push(`${e.from} -> ${e.to} (web beyond the platform)`);
    }
  }
  return out;
}

const product = [...sourceFiles("functions"), ...sourceFiles("web/app")];
const edges = product.flatMap(importsOf);

describe("the tree shows the architecture (docs/architecture.md)", () => {
  it("functions/ holds the four layers and nothing else", () => {
    const top = readdirSync(join(ROOT, "functions"), { withFileTypes: true }).map((e) => e.name + (e.isDirectory() ? "/" : ""));
    expect(top.sort()).toEqual(LAYERS.map((l) => `${l}/`).sort());
  });

  it("reads the imports it judges (a few thousand of them, with the worker entries)", () => {
    expect(edges.length).toBeGreaterThan(1500);
    // A worker started by URL counts as an import of its pool's module.
    expect(edges).toContainEqual(expect.objectContaining({ from: "functions/media/voice-conversion/pool.ts", to: "functions/media/voice-conversion/conversion-worker.ts" }));
  });

  it("no file imports a layer above its own, and the web app imports only the platform", () => {
    expect(breaches(edges)).toEqual([]);
  });

  it("would see a breach: an upward import, an import out of functions/, the web app reaching a capability", () => {
    expect(
      breaches([
        { from: "functions/media/audio/wav.ts", to: "functions/platform/context.ts", spec: "" },
        { from: "functions/platform/context.ts", to: "infra/local/stack.ts", spec: "" },
        { from: "web/app/lib/api.server.ts", to: "functions/capabilities/speech/generate.ts", spec: "" },
        { from: "functions/capabilities/speech/generate.ts", to: "functions/media/audio/wav.ts", spec: "" },
        { from: "functions/media/audio/wav.test.ts", to: "functions/handlers/routes.ts", spec: "" },
      ]),
    ).toHaveLength(3);
  });

  it("has no import circles, in functions/ or the web app", () => {
    const code = product.filter((f) => !isTestCode(f));
    expect(circles(code, edges.filter((e) => code.includes(e.from)))).toEqual([]);
    // The detector itself: a -> b -> a is a circle.
    expect(circles(["a", "b", "c"], [{ from: "a", to: "b", spec: "" }, { from: "b", to: "a", spec: "" }, { from: "b", to: "c", spec: "" }])).toEqual([["a", "b"]]);
  });
});
