import { describe, expect, it } from "vitest";
import { matchesAny, matchesPattern } from "./match.js";

describe("route patterns", () => {
  it("matches exact paths, ignoring a trailing slash", () => {
    expect(matchesPattern("/app", "/app")).toBe(true);
    expect(matchesPattern("/app", "/app/")).toBe(true);
    expect(matchesPattern("/app", "/app/voices")).toBe(false);
  });

  it("matches a :param as exactly one non-empty segment", () => {
    expect(matchesPattern("/app/productions/:c/:p", "/app/productions/a/b")).toBe(true);
    expect(matchesPattern("/app/productions/:c/:p", "/app/productions/a")).toBe(false);
    expect(matchesPattern("/app/productions/:c/:p", "/app/productions/a/b/c")).toBe(false);
  });

  it("matches * as the rest of the path, possibly empty", () => {
    expect(matchesPattern("/app/studio/*", "/app/studio")).toBe(true);
    expect(matchesPattern("/app/studio/*", "/app/studio/x/y")).toBe(true);
    expect(matchesPattern("/app/studio/*", "/app/studiox")).toBe(false);
    expect(matchesAny(["/app/studio/*", "/app/projects/*"], "/app/projects/1")).toBe(true);
  });
});
