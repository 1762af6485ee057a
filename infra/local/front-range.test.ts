import { describe, expect, it } from "vitest";
import { byteRange } from "./front.js";

describe("byte ranges of static files (a video element seeking)", () => {
  it("reads one range in its three spellings and clamps it to the file", () => {
    expect(byteRange("bytes=0-99", 1000)).toEqual({ start: 0, end: 99 });
    expect(byteRange("bytes=900-", 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange("bytes=-100", 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange("bytes=990-5000", 1000)).toEqual({ start: 990, end: 999 });
    expect(byteRange("bytes=-5000", 1000)).toEqual({ start: 0, end: 999 });
  });

  it("answers 416 past the end and serves the whole file for anything else", () => {
    expect(byteRange("bytes=1000-", 1000)).toBeNull();
    expect(byteRange("bytes=-0", 1000)).toBeNull();
    for (const h of ["bytes=0-1,5-9", "items=0-9", "bytes=-", "bytes=9-1", "nonsense"]) expect(byteRange(h, 1000)).toBeUndefined();
  });
});
