import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { assembleWat, GENERATED_WASM } from "../../../../scripts/lib/wasm-sources.js";

describe("hand-written WebAssembly", () => {
  it.each(GENERATED_WASM)("$out is the assembly of $wat", async ({ wat, out, name }) => {
    const built = await assembleWat(readFileSync(wat, "utf8"), wat);
    const shipped = ((await import(`../../../../${out.replace(/\.ts$/, ".js")}`)) as Record<string, string>)[name];
    expect(shipped, `${out} is stale: run npm run build:wasm`).toBe(Buffer.from(built).toString("base64"));
    expect(WebAssembly.validate(built)).toBe(true);
  });
});
