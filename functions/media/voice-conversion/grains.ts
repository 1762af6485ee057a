/**
 * The conversion's synthesis, keeping the input's own excitation (issue 26: the pulse-and-noise
 * resynthesis lost the words of speech the engine did not make): pitch-synchronous overlap-add
 * (TD-PSOLA) of the input waveform, each grain filtered by the frame's envelope correction.
 *
 * - Analysis marks walk the input's voiced stretches one input period apart; synthesis marks walk
 *   the output one mapped period apart. Each synthesis mark takes the grain (a Hann window two
 *   input periods long) around the nearest analysis mark: the pulse shape, breath and noise of the
 *   input stay, only their spacing changes. Unvoiced stretches are grains at a fixed step taken
 *   from where they are (an identity overlap-add).
 * - Each grain is filtered (zero phase, in one FFT) by exp(gain), the frame's mapped envelope over
 *   its analysed one: the warp and the equaliser toward the target move the formants, and the
 *   grain keeps its fine structure (inverse filter by the source envelope, re-filter by the
 *   mapped one).
 * - Grains are scaled by sqrt(output period / input period), so the power spectral density stays
 *   the envelope's whatever the pitch change.
 *
 * Causal like the pulse synthesiser it replaces: once every grain centred before `until +
 * REACH` is placed, the output before `until` is final, so the conversion streams block by block.
 */
import { RealFFT } from "./fft.js";
import { BINS, FFT_SIZE } from "./spectral.js";
import { FRAME_SECONDS } from "./f0.js";

/** One frame of the plan the grains follow. */
export interface GrainFrame {
  /** The input's F0 here (0 = unvoiced). */
  srcF0: number;
  /** The output's F0 here (0 = unvoiced). */
  outF0: number;
  /** Natural-log amplitude correction per bin (mapped envelope over the analysed one, halved). */
  gain: Float32Array;
}

export interface GrainSource {
  /** Frames known so far (never read past). */
  readonly length: number;
  at(i: number): GrainFrame;
}

const HALF = FFT_SIZE / 2;
/** Samples either side of a synthesis mark a grain (with its filter's spread) may touch. */
export const GRAIN_REACH = HALF;
/** Unvoiced grains: a Hann window of twice this, this far apart (sums to one). */
const UNVOICED_STEP = 128;
/** Analysis marks move to the energy peak within this share of a period of where the period puts them. */
const SNAP = 0.15;
/** Half the energy window (samples) the marks' snapping reads. */
const PEAK_HALF = 11;

export class GrainSynth {
  private readonly fft = new RealFFT(FFT_SIZE);
  private readonly buf = new Float64Array(FFT_SIZE);
  private readonly re = new Float64Array(BINS);
  private readonly im = new Float64Array(BINS);
  private readonly gain = new Float64Array(BINS);
  /** Output accumulator: out[i] is absolute sample `start + i`. */
  private out = new Float64Array(1 << 15);
  private start = 0;
  /** The next synthesis mark (absolute, fractional). */
  private nextMark = 0;
  /** Analysis marks of the current voiced stretch, near the synthesis cursor. */
  private marks: number[] = [];
  /** Where the analysis-mark walk has got to (absolute, fractional); -1 when outside a voiced stretch. */
  private walk = -1;
  private readonly hop: number;

  /** `outMarks` (optional) hears the output position of every voiced grain, in order. */
  constructor(
    private readonly input: Float32Array,
    private readonly frames: GrainSource,
    private readonly fs: number,
    private readonly outMarks?: number[],
  ) {
    this.hop = FRAME_SECONDS * fs;
  }

  /** Interpolated F0 (field `key`) at sample p, 0 when unvoiced (the nearest frame decides). */
  private f0At(p: number, key: "srcF0" | "outF0"): number {
    const pos = p / this.hop;
    const last = this.frames.length - 1;
    const i = Math.max(0, Math.min(last, Math.floor(pos)));
    const j = Math.min(last, i + 1);
    const a = this.frames.at(i)[key];
    const b = this.frames.at(j)[key];
    const frac = Math.max(0, Math.min(1, pos - i));
    if (a > 0 && b > 0) return a * (1 - frac) + b * frac;
    const nearest = frac < 0.5 ? a : b;
    return nearest > 0 ? nearest : 0;
  }

  /**
   * The sample within `span` of `p` where the input's short-term energy (1 ms) peaks: the
   * period's main excitation, so every grain holds its pulse at the same place.
   */
  private peak(p: number, span: number): number {
    const x = this.input;
    const from = Math.max(0, Math.round(p - span));
    const to = Math.min(x.length - 1, Math.round(p + span));
    let best = p;
    let bestE = -1;
    for (let i = from; i <= to; i++) {
      let e = 0;
      for (let j = Math.max(0, i - PEAK_HALF); j <= Math.min(x.length - 1, i + PEAK_HALF); j++) e += x[j] * x[j];
      if (e > bestE) {
        bestE = e;
        best = i;
      }
    }
    return best;
  }

  /** The analysis mark nearest `t` in the voiced stretch around it, walking the input as needed. */
  private analysisMark(t: number): number {
    if (this.walk < 0 || this.marks.length === 0 || t - this.marks[this.marks.length - 1] > 2 * (this.fs / 40)) {
      // A new voiced stretch: its first mark is here.
      const f = this.f0At(t, "srcF0");
      const first = this.peak(t, f > 0 ? (0.5 * this.fs) / f : 0);
      this.marks = [first];
      this.walk = first;
    }
    while (this.walk < t + this.fs / 40) {
      const f = this.f0At(this.walk, "srcF0");
      if (!(f > 0)) break;
      const period = this.fs / f;
      this.walk = this.peak(this.walk + period, SNAP * period);
      this.marks.push(this.walk);
    }
    let best = this.marks[0];
    for (const m of this.marks) if (Math.abs(m - t) < Math.abs(best - t)) best = m;
    // Marks well behind the cursor are no longer needed.
    while (this.marks.length > 2 && this.marks[1] < t - this.fs / 40) this.marks.shift();
    return best;
  }

  /**
   * Places every grain centred before `until + GRAIN_REACH` and returns the output from the end
   * of the previous call up to `until`. Frames must be known up to `(until + 2 * GRAIN_REACH) / hop + 1`.
   */
  render(until: number): Float32Array {
    const end = Math.min(until + GRAIN_REACH, this.input.length + GRAIN_REACH);
    while (this.nextMark < end) {
      const t = this.nextMark;
      const outF0 = this.f0At(t, "outF0");
      const srcF0 = this.f0At(t, "srcF0");
      if (outF0 > 0 && srcF0 > 0) {
        const ta = this.analysisMark(t);
        const pa = this.fs / Math.max(srcF0, this.f0At(ta, "srcF0") || srcF0);
        const ps = this.fs / outF0;
        this.grain(ta, t, pa, Math.sqrt(ps / pa));
        this.outMarks?.push(t);
        this.nextMark += ps;
      } else {
        this.walk = -1;
        // Unvoiced: the identity overlap-add on a fixed grid.
        const grid = Math.ceil(t / UNVOICED_STEP) * UNVOICED_STEP;
        if (grid - t > 0.5) {
          this.nextMark = grid;
          continue;
        }
        this.grain(grid, grid, UNVOICED_STEP, 1);
        this.nextMark = grid + UNVOICED_STEP;
      }
    }
    const n = Math.max(0, until - this.start);
    this.ensure(n + FFT_SIZE);
    const result = new Float32Array(n);
    for (let i = 0; i < n; i++) result[i] = this.out[i];
    this.out.copyWithin(0, n);
    this.out.fill(0, this.out.length - n);
    this.start = until;
    return result;
  }

  private ensure(n: number): void {
    if (n <= this.out.length) return;
    const next = new Float64Array(Math.max(this.out.length * 2, n));
    next.set(this.out);
    this.out = next;
  }

  /** The grain around input sample `ta` (Hann, 2 * half long), filtered, scaled and added at output `ts`. */
  private grain(ta: number, ts: number, half: number, scale: number): void {
    const { buf, re, im, gain, input } = this;
    const centre = Math.round(ta);
    const h = Math.min(HALF - 1, Math.floor(half));
    buf.fill(0);
    let any = false;
    for (let n = -h; n <= h; n++) {
      const i = centre + n;
      if (i < 0 || i >= input.length) continue;
      const w = 0.5 + 0.5 * Math.cos((Math.PI * (n + centre - ta)) / half);
      const v = input[i] * w;
      buf[HALF + n] = v;
      if (v !== 0) any = true;
    }
    if (!any) return;
    this.gainAt(ts, gain);
    this.fft.forward(buf, re, im);
    // The grain lands at ts: the whole-sample part by where it is added, the rest as a phase.
    const shift = ts - centre;
    const whole = Math.floor(shift);
    const frac = shift - whole;
    for (let k = 0; k < BINS; k++) {
      const g = scale * Math.exp(gain[k]);
      const ph = (-2 * Math.PI * k * frac) / FFT_SIZE;
      const c = Math.cos(ph);
      const s = Math.sin(ph);
      const xr = re[k] * g;
      const xi = im[k] * g;
      re[k] = xr * c - xi * s;
      im[k] = xr * s + xi * c;
    }
    im[0] = 0;
    im[BINS - 1] = 0;
    this.fft.inverse(re, im, buf);
    this.add(centre + whole - HALF, buf);
  }

  /** The envelope correction at sample p, interpolated between frames. */
  private gainAt(p: number, out: Float64Array): void {
    const pos = p / this.hop;
    const last = this.frames.length - 1;
    const i = Math.max(0, Math.min(last, Math.floor(pos)));
    const j = Math.min(last, i + 1);
    const frac = Math.max(0, Math.min(1, pos - i));
    const a = this.frames.at(i).gain;
    const b = this.frames.at(j).gain;
    for (let k = 0; k < BINS; k++) out[k] = a[k] * (1 - frac) + b[k] * frac;
  }

  private add(at: number, x: Float64Array): void {
    const o = at - this.start;
    this.ensure(o + FFT_SIZE);
    const out = this.out;
    for (let n = 0; n < FFT_SIZE; n++) if (o + n >= 0) out[o + n] += x[n];
  }
}
