import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * screens.test.ts loads each screen once and checks it at three sizes by resizing the page. That holds because the web
 * app reads the screen's size in CSS, or in JS only through the two live readers below (a media query's change event,
 * the window's resize event): a resized page is the page a fresh load at that size gives (compared element by element,
 * docs/decisions/2026-12-07-browser-page-work.md, 2026-12-08). A component that read the width once (matchMedia,
 * innerWidth, screen.width) would lay out differently after a rotation than after a load, and the resize walk would then
 * check a screen no user gets on a fresh load: this fails first, so the reader is made live (or listed here once it is).
 */
const LIVE_READERS = ["web/app/lib/useMediaQuery.ts", "web/app/components/ui/useInViewport.ts"];
const SIZE_READS = /\bmatchMedia\s*\(|\binner(Width|Height)\b|\bouter(Width|Height)\b|\bscreen\.(width|height|orientation)\b|\bvisualViewport\b/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

describe("the web app reads the screen's size only through live readers", () => {
  const root = join(import.meta.dirname, "..", "..", "..");
  const files = sources(join(root, "web", "app")).map((f) => relative(root, f));

  it("finds the live readers where this check expects them", () => {
    expect(files.length).toBeGreaterThan(50);
    for (const reader of LIVE_READERS) {
      expect(files, reader).toContain(reader);
      expect(SIZE_READS.test(readFileSync(join(root, reader), "utf8")), reader).toBe(true);
    }
  });

  it("has no other reader of the viewport's size in the web app's code", () => {
    const others = files.filter((f) => !LIVE_READERS.includes(f)).filter((f) => SIZE_READS.test(readFileSync(join(root, f), "utf8")));
    expect(others).toEqual([]);
  });
});
