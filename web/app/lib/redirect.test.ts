import { describe, expect, it } from "vitest";
import { safeRedirect } from "./redirect.js";

describe("redirect after sign-in", () => {
  it("follows same-site paths", () => {
    expect(safeRedirect("/app/settings/api-keys?x=1")).toBe("/app/settings/api-keys?x=1");
  });

  it("refuses other sites and odd values", () => {
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "app", "", null, undefined, "/app\n"]) {
      expect(safeRedirect(bad)).toBe("/app");
    }
  });
});
