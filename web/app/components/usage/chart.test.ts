import { describe, expect, it } from "vitest";
import { layoutBars, niceMax, topSeries } from "./chart.js";

describe("usage chart geometry", () => {
  it("keeps the five largest series and sums the rest as Other", () => {
    const usage = Object.fromEntries(["a", "b", "c", "d", "e", "f", "g"].map((k, i) => [k, [i, 1]]));
    const s = topSeries(usage);
    expect(s.map((x) => x.name)).toEqual(["g", "f", "e", "d", "c", "Other"]);
    expect(s.at(-1)!.values).toEqual([0 + 1, 2]);
  });

  it("rounds the axis up to 1, 2 or 5 times a power of ten", () => {
    expect(niceMax([{ name: "a", values: [130, 20] }])).toBe(200);
    expect(niceMax([{ name: "a", values: [3] }, { name: "b", values: [2] }])).toBe(5);
    expect(niceMax([{ name: "a", values: [0] }])).toBe(1);
  });

  it("stacks segments from the bottom in proportion to the axis", () => {
    const [bar] = layoutBars([{ name: "a", values: [50] }, { name: "b", values: [25] }], 100, 200, 100);
    expect(bar.segments).toEqual([
      { series: 0, y: 100, height: 100, value: 50 },
      { series: 1, y: 50, height: 50, value: 25 },
    ]);
    expect(bar.width).toBeCloseTo(70);
  });
});
