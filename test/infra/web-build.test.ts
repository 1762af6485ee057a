import { describe, expect, it } from "vitest";
import { relative } from "node:path";
import { ROOT, webImportsOutsideWeb } from "../../scripts/lib/web-build.js";

/**
 * The tests rebuild the web app when anything it is built from is newer than the build. The
 * modules outside web/ are found by following web/app's imports, so the restructure that moved
 * functions/contract to functions/platform/contract (which the old fixed list still named) cannot
 * leave a stale build again.
 */
describe("the web build's sources", () => {
  const files = webImportsOutsideWeb().map((f) => relative(ROOT, f));

  it("include the modules web/app imports directly and those they import in turn", () => {
    // Imported by web/app directly.
    expect(files).toContain("functions/platform/contract/voiceCreation.ts");
    expect(files).toContain("functions/platform/domain/speechRules.ts");
    // Reached only through other modules' imports (handlers/web.ts is the server entry's).
    expect(files).toContain("functions/handlers/web.ts");
    expect(files.some((f) => f.startsWith("functions/media/engine/"))).toBe(true);
  });

  it("hold no tests and nothing under web/ (web/ is watched whole)", () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((f) => /\.test\.tsx?$/.test(f) || f.startsWith("web/"))).toEqual([]);
  });
});
