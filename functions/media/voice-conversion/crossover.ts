/**
 * A Linkwitz-Riley crossover (two cascaded Butterworth sections a side, 24 dB per octave): the
 * low band of one signal plus the high band of another. On one signal the two halves sum to an
 * all-pass, so where the two signals agree the join is flat.
 *
 * Stateful and sample by sample: the output does not depend on how the signals are cut into
 * blocks, which keeps the conversion's streaming identical to its whole-file result.
 */
class Biquad {
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;
  constructor(
    private readonly b0: number,
    private readonly b1: number,
    private readonly b2: number,
    private readonly a1: number,
    private readonly a2: number,
  ) {}

  step(x: number): number {
    const y = this.b0 * x + this.b1 * this.x1 + this.b2 * this.x2 - this.a1 * this.y1 - this.a2 * this.y2;
    this.x2 = this.x1;
    this.x1 = x;
    this.y2 = this.y1;
    this.y1 = y;
    return y;
  }
}

/** Butterworth (Q = 1/sqrt 2) low- or high-pass at `hz` (bilinear transform, prewarped). */
function butterworth(kind: "low" | "high", hz: number, fs: number): Biquad {
  const w = (2 * Math.PI * hz) / fs;
  const alpha = Math.sin(w) / Math.SQRT2;
  const c = Math.cos(w);
  const a0 = 1 + alpha;
  const b = kind === "low" ? [(1 - c) / 2, 1 - c, (1 - c) / 2] : [(1 + c) / 2, -(1 + c), (1 + c) / 2];
  return new Biquad(b[0] / a0, b[1] / a0, b[2] / a0, (-2 * c) / a0, (1 - alpha) / a0);
}

export class Crossover {
  private readonly low: Biquad[];
  private readonly high: Biquad[];

  constructor(hz: number, fs: number) {
    this.low = [butterworth("low", hz, fs), butterworth("low", hz, fs)];
    this.high = [butterworth("high", hz, fs), butterworth("high", hz, fs)];
  }

  /** low-passed `lowSource` plus high-passed `highSource` (same length). */
  mix(lowSource: Float32Array, highSource: Float32Array): Float32Array {
    const out = new Float32Array(lowSource.length);
    const [l1, l2] = this.low;
    const [h1, h2] = this.high;
    for (let i = 0; i < out.length; i++) out[i] = l2.step(l1.step(lowSource[i])) + h2.step(h1.step(highSource[i]));
    return out;
  }
}
