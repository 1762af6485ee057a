import { describe, expect, it } from "vitest";
import { decodeAlaw, decodeMulaw, encodeAlaw, encodeMulaw } from "./g711.js";

const everySample = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);

function worstErrors(decoded: Int16Array) {
  let relative = 0;
  let small = 0;
  for (let i = 0; i < everySample.length; i++) {
    const x = everySample[i];
    const err = Math.abs(decoded[i] - x);
    if (Math.abs(x) >= 256) relative = Math.max(relative, err / Math.abs(x));
    else small = Math.max(small, err);
  }
  return { relative, small };
}

describe("G.711", () => {
  it("µ-law round trip stays within the codec's 8-bit log step (≤ 4.3% above 256, ≤ 8 LSB below)", () => {
    const e = worstErrors(decodeMulaw(encodeMulaw(everySample)));
    expect(e.relative).toBeLessThanOrEqual(0.043);
    expect(e.small).toBeLessThanOrEqual(8);
  });

  it("A-law round trip stays within the codec's log step (≤ 3.2% above 256, ≤ 16 LSB below)", () => {
    const e = worstErrors(decodeAlaw(encodeAlaw(everySample)));
    expect(e.relative).toBeLessThanOrEqual(0.032);
    expect(e.small).toBeLessThanOrEqual(16);
  });

  it("uses the standard code points for silence and full scale", () => {
    const x = new Int16Array([0, 32767, -32768]);
    expect(Array.from(encodeMulaw(x))).toEqual([0xff, 0x80, 0x00]);
    expect(Array.from(encodeAlaw(x))).toEqual([0xd5, 0xaa, 0x2a]);
  });
});
