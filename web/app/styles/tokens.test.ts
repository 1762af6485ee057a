import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** The design system's rules, checked on the stylesheets themselves. */
const dir = import.meta.dirname;
const sheets = readdirSync(dir).filter((f) => f.endsWith(".css"));
const tokens = readFileSync(join(dir, "tokens.css"), "utf8");
const defined = new Set([...tokens.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]));
const withoutComments = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, "");

describe("design tokens", () => {
  it("gives every colour a dark-mode pair", () => {
    const [light, dark] = withoutComments(tokens).split('[data-theme="dark"]');
    const colourNames = (block: string) => [...block.matchAll(/(--[\w-]+)\s*:\s*(#[0-9a-f]{3,8}|rgb\()/gi)].map((m) => m[1]);
    expect(colourNames(light!).length).toBeGreaterThan(10);
    expect(new Set(colourNames(dark!))).toEqual(new Set(colourNames(light!)));
  });

  it.each(sheets.filter((f) => f !== "tokens.css"))("%s writes no colour of its own", (file) => {
    const css = withoutComments(readFileSync(join(dir, file), "utf8"));
    expect(css.match(/#[0-9a-f]{3,8}\b/gi) ?? []).toEqual([]);
    expect(css.match(/\b(rgba?|hsla?)\(/gi) ?? []).toEqual([]);
  });

  it.each(sheets)("%s uses only tokens that exist", (file) => {
    const css = withoutComments(readFileSync(join(dir, file), "utf8"));
    const used = [...css.matchAll(/var\((--[\w-]+)/g)].map((m) => m[1]!);
    expect(used.filter((v) => !defined.has(v))).toEqual([]);
  });
});
