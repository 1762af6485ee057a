import { describe, expect, it } from "vitest";
import { MAX_PAGE_BUTTONS, pageCount, pageWindow } from "./pagination.js";

describe("pagination window", () => {
  it("shows every page when there are at most 8", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(3, 8)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("never shows more than 8 page buttons, and always the current page", () => {
    expect(MAX_PAGE_BUTTONS).toBe(8);
    for (let total = 1; total <= 40; total++) {
      for (let current = 1; current <= total; current++) {
        const pages = pageWindow(current, total);
        expect(pages.length).toBe(Math.min(8, total));
        expect(pages).toContain(current);
        expect(pages[0]).toBeGreaterThanOrEqual(1);
        expect(pages[pages.length - 1]).toBeLessThanOrEqual(total);
        pages.slice(1).forEach((p, i) => expect(p).toBe(pages[i] + 1));
      }
    }
  });

  it("centres the window on the current page and pins it to the ends", () => {
    expect(pageWindow(10, 20)).toEqual([7, 8, 9, 10, 11, 12, 13, 14]);
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(pageWindow(20, 20)).toEqual([13, 14, 15, 16, 17, 18, 19, 20]);
  });

  it("clamps out-of-range pages and handles no pages", () => {
    expect(pageWindow(0, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(99, 10)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pageWindow(1, 0)).toEqual([]);
  });

  it("counts pages, at least one", () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
  });
});
