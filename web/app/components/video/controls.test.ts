import { describe, expect, it } from "vitest";
import { clock, controlsVisible, nextRate, rateLabel } from "./controls.js";

describe("the video player's controls", () => {
  it("cycle the playback rate 1x, 1.5x, 2x and back", () => {
    expect([nextRate(1), nextRate(1.5), nextRate(2)]).toEqual([1.5, 2, 1]);
    // A rate set elsewhere (the element's own menu) starts the cycle again.
    expect(nextRate(0.75)).toBe(1);
    expect([1, 1.5, 2].map(rateLabel)).toEqual(["1x", "1.5x", "2x"]);
  });

  it("show on hover or focus, linger after the pointer leaves, and hide once started and left alone", () => {
    const base = { hovered: false, focused: false, lingering: false, started: true };
    expect(controlsVisible(base)).toBe(false);
    expect(controlsVisible({ ...base, hovered: true })).toBe(true);
    expect(controlsVisible({ ...base, focused: true })).toBe(true);
    expect(controlsVisible({ ...base, lingering: true })).toBe(true);
    expect(controlsVisible({ ...base, started: false })).toBe(true);
  });

  it("write times as m:ss", () => {
    expect([clock(0), clock(9.9), clock(61), clock(NaN), clock(-1)]).toEqual(["0:00", "0:09", "1:01", "0:00", "0:00"]);
  });
});
