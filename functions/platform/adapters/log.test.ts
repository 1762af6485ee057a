import { describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { createLogger, relativeStack } from "./log.js";

describe("logs", () => {
  it("keeps stack traces but with paths relative to the project", () => {
    const lines: string[] = [];
    const log = createLogger("info", {}, (l) => lines.push(l));
    log.error("boom", { error: new Error("failed here") });
    const stack = (JSON.parse(lines[0]) as { error: { stack: string } }).error.stack;
    expect(stack).toContain("failed here");
    expect(stack).toContain("functions/platform/adapters/log.test.ts");
    const root = resolve(import.meta.dirname, "..", "..", "..");
    expect(stack).not.toContain(root);
  });

  it("strips file URLs and absolute paths of the given root only", () => {
    const s = "Error: x\n    at f (file:///srv/app/functions/a.ts:1:1)\n    at g (/srv/app/node_modules/b.js:2:2)\n    at h (/elsewhere/c.js:3:3)";
    expect(relativeStack(s, "/srv/app")).toBe("Error: x\n    at f (functions/a.ts:1:1)\n    at g (node_modules/b.js:2:2)\n    at h (/elsewhere/c.js:3:3)");
  });
});
