/**
 * Residual-excited synthesis (issue 26, "speech to speech keeps the words"): the input's own
 * excitation, moved in pitch pitch-synchronously, filtered by the mapped (target) envelope.
 *
 * 1. Inverse filter: each input sample is filtered by the all-pole fit (linear prediction) of its
 *    10 ms frame's analysed envelope (spectral.ts) and divided by the fit's gain, which leaves the
 *    residual: spectrally flat, with the glottal closures as sharp peaks and the fine temporal
 *    structure (onsets, bursts, jitter) of the input.
 * 2. Epochs: through voiced stretches, one analysis mark per input period, at the residual's
 *    largest magnitude within ±25% of a period after the previous mark (the first at the
 *    largest within the first period).
 * 3. Pitch: synthesis marks one mapped period apart; each takes the Hann grain (two input periods)
 *    of the residual around the nearest analysis mark, scaled by sqrt(output period / input period)
 *    so the excitation's power stays the same. Unvoiced stretches are an identity overlap-add
 *    (256-sample Hann grains, 128 apart).
 * 4. Filter: the excitation through the all-pole fit of the mapped frame's envelope, times its gain
 *    (or, with `outputFilter: "minphase"`, through the mapped envelope's minimum-phase response, one
 *    per synthesis mark, as the vocoder shapes its pulses).
 *
 * With nothing moved (mapped frames = analysed frames) steps 1 and 4 cancel exactly and step 3 is
 * close to the identity, so the analysis and resynthesis floor is near zero (residual.test.ts).
 * Causal with a bounded look-ahead (RESIDUAL_LOOKAHEAD samples), like the vocoder: frames must be
 * known that far past the block end, and blocks of any size give the same samples.
 */
import { RealFFT } from "./fft.js";
import { AP_BANDS, AP_EDGES, BINS, FFT_SIZE, SpectralAnalyzer, WORK_RATE } from "./spectral.js";
import { prng } from "../engine/prng.js";
import { FRAME_SECONDS, MIN_F0, trackF0 } from "./f0.js";
import { MinimumPhase, type FrameSource, type SynthFrame } from "./synth.js";

/** Prediction order at 22.05 kHz: two poles per kHz of band, plus two. */
export const LPC_ORDER = 24;
/** The highest prediction order a fit may ask for. */
const MAX_ORDER = 64;
/** The envelope's floor for the fit, relative to its peak (dB): keeps the fit well conditioned in empty bands. */
const FLOOR_DB = -70;
/** Half a grain of an unvoiced stretch, samples. */
const UNVOICED_HALF = 128;
/** Gaussian lag window on the autocorrelation, per lag (about 20 Hz of smoothing at 22.05 kHz). */
const LAG_WINDOW = 0.006;

/** All-pole fit of a frame: a[0] = 1, a[1..order]; gain = sqrt(prediction error power). */
export interface Lpc {
  a: Float64Array;
  gain: number;
}

/** Linear prediction from a natural-log power envelope (BINS values): autocorrelation by inverse FFT, then Levinson-Durbin. */
export class LpcFitter {
  private readonly fft = new RealFFT(FFT_SIZE);
  private readonly re = new Float64Array(BINS);
  private readonly zeros = new Float64Array(BINS);
  private readonly r = new Float64Array(FFT_SIZE);
  private readonly tmp = new Float64Array(MAX_ORDER + 1);

  fit(logEnv: ArrayLike<number>, order = LPC_ORDER): Lpc {
    const { re, r, tmp } = this;
    let peak = -Infinity;
    for (let k = 0; k < BINS; k++) peak = Math.max(peak, logEnv[k]);
    const floor = peak + (FLOOR_DB / 10) * Math.LN10;
    for (let k = 0; k < BINS; k++) re[k] = Math.exp(Math.max(floor, logEnv[k]) - peak);
    this.fft.inverse(re, this.zeros, r);
    // A little white noise on the diagonal and a narrow lag window: a stable, well-conditioned fit.
    r[0] *= 1 + 1e-6;
    for (let i = 1; i <= order; i++) r[i] *= Math.exp(-0.5 * (i * LAG_WINDOW) ** 2);
    const a = new Float64Array(order + 1);
    a[0] = 1;
    let err = r[0];
    for (let i = 1; i <= order; i++) {
      let acc = r[i];
      for (let j = 1; j < i; j++) acc += a[j] * r[i - j];
      const k = -acc / err;
      tmp.set(a.subarray(0, i));
      for (let j = 1; j < i; j++) a[j] = tmp[j] + k * tmp[i - j];
      a[i] = k;
      err *= 1 - k * k;
      if (!(err > 1e-30)) {
        err = 1e-30;
        break;
      }
    }
    // Power of the envelope = gain^2 / |A|^2; the envelope was scaled by exp(-peak) above.
    return { a, gain: Math.sqrt(err * Math.exp(peak)) };
  }
}

/** What the synthesiser needs of an analysed input frame: its pitch and the envelope's fit. */
export interface AnalysedFrame {
  f0: number;
  lpc: Lpc;
}

export interface AnalysedSource {
  readonly length: number;
  at(i: number): AnalysedFrame;
}

/** How the residual synthesis places its epochs and what it takes from the vocoder. */
export interface ResidualOptions {
  /**
   * "peak": the residual's largest magnitude within ±25% of a period after the last mark.
   * "mbs" (default): SEDREAMS-like; the input's mean-based signal (a Blackman-weighted mean over
   * 1.75 periods, smooth at F0, one minimum per period) is followed one tracked period at a time,
   * and each mark is the residual's largest magnitude in the interval that starts a little before
   * that minimum and ends under half a period after it, so a mark can neither slip by a period nor
   * jump to a secondary peak outside its own cycle.
   */
  epochs?: "peak" | "mbs";
  /**
   * Band split (0 = off, the input's residual over the whole band): below this frequency the
   * voiced excitation is the input's residual grains, above it the vocoder's excitation at the same
   * synthesis marks (one flat pulse per mark, mixed with noise by the mapped frame's aperiodicity),
   * joined by a 4th-order Linkwitz-Riley crossover; unvoiced stretches keep the input's residual.
   * The mapped envelope filters both.
   */
  crossoverHz?: number;
  /**
   * Large lowering (0 = off): where the output period is more than this many input periods, the
   * voiced excitation below the crossover (the whole band without a split) is one flat pulse per
   * synthesis mark too, at the grain's residual power, mixed with noise by the mapped aperiodicity
   * there, so the output carries the target's period and not the input's cycles inside its grains.
   */
  lowerPulseRatio?: number;
  /**
   * What `lowerPulseRatio` is compared with (default "mark"): "mark" is each synthesis mark's output
   * period over its analysis mark's input period; "median" is the utterances' median periods' ratio
   * (`utterancePeriodRatio`), so the whole utterance takes the pulses or none of it does, and a jump of
   * the input's tracked F0 (an octave error, a high excursion) does not switch a few marks to pulses.
   */
  lowerPulseBy?: "mark" | "median";
  /**
   * The output's median period over the input's (convert.ts sets it from the plan's median F0s:
   * 2^(sourceLog - targetLog)); read only with `lowerPulseBy: "median"`, where without it no mark takes the pulse.
   */
  utterancePeriodRatio?: number;
  /**
   * The share of power (0..1, default 0) that the voiced excitation below the crossover takes from
   * the pulse rather than the input's residual grain at every voiced mark: the source's glottal
   * pulse shape (its harmonics' slope and phase under the envelope) gives way to the flat pulse, whose
   * spectrum the mapped (target-equalised) envelope shapes alone.
   */
  lowPulse?: number;
  /**
   * Unvoiced stretches (and voiced marks with no analysis mark near) take white noise at the input
   * residual's local power instead of the residual itself (default false): the source's fine
   * temporal structure in fricatives, bursts and breath gives way to plain noise.
   */
  unvoicedNoise?: boolean;
  /**
   * Prediction order of the output filter's fit of the mapped envelope (default LPC_ORDER, the
   * inverse filter's; at most 64). A higher order follows the target-equalised envelope closer; with
   * nothing moved the two filters then no longer cancel exactly.
   */
  synthesisOrder?: number;
  /**
   * The output filter (default "allpole"): "allpole" runs the excitation through the all-pole fit of
   * the mapped frame's envelope (order `synthesisOrder`) sample by sample; "minphase" cuts the
   * excitation at the synthesis marks (one output period a segment when voiced, UNVOICED_HALF when
   * not, at most SEGMENT_MAX) and convolves each segment with the mapped envelope's minimum-phase
   * response at its first sample (the vocoder's, synth.ts: the cepstrum of the whole envelope,
   * interpolated between the two frames around it), so the output has the target's envelope in full
   * detail without an order to choose; a voiced mark's segment is delayed by the mark's fraction of a
   * sample, as the vocoder delays each pulse. With nothing moved the two filters no longer cancel exactly
   * (the order-24 inverse filter leaves the envelope's finer detail in the residual).
   */
  outputFilter?: "allpole" | "minphase";
  /**
   * Where each voiced mark's (and unvoiced grain's) excitation power comes from (default "residual"):
   * "residual" takes the input residual's local power around the analysis mark (which jumps at onsets
   * and bursts, where the 10 ms frame's fit predicts the input badly); "envelope" gives every pulse,
   * noise and residual grain unit power per sample (a residual grain is divided by its own Hann-weighted
   * RMS), so, as in the vocoder, the mapped envelope alone sets the level, while the marks' timing and
   * voicing stay the residual's.
   */
  excitationPower?: "residual" | "envelope";
  /** Measurement hook: each voiced synthesis mark's output sample and the input residual's mean power around its analysis mark (±1 input period). */
  onMark?: (at: number, residualPower: number) => void;
  /** Seed of the high band's noise. */
  seed?: number;
}

/** The minimum-phase output filter's longest segment (samples): a longer output period is cut into pieces. */
const SEGMENT_MAX = FFT_SIZE / 2;
/** Its convolution's FFT: a segment (<= SEGMENT_MAX) and a response (FFT_SIZE) without wrap-around. */
const CONV_SIZE = 2 * FFT_SIZE;
const CONV_BINS = CONV_SIZE / 2 + 1;

/** The minimum-phase output filter's state (outputFilter "minphase"). */
class MinPhaseFilter {
  readonly minPhase = new MinimumPhase();
  readonly fft = new RealFFT(FFT_SIZE);
  readonly conv = new RealFFT(CONV_SIZE);
  readonly logAmp = new Float64Array(BINS);
  readonly re = new Float64Array(BINS);
  readonly im = new Float64Array(BINS);
  readonly ir = new Float64Array(FFT_SIZE);
  readonly buf = new Float64Array(CONV_SIZE);
  readonly sre = new Float64Array(CONV_BINS);
  readonly sim = new Float64Array(CONV_BINS);
  /** Each mapped frame's response, zero-padded to CONV_SIZE and transformed. */
  readonly responses = new Map<number, { re: Float64Array; im: Float64Array }>();
  /** Segment starts (synthesis marks, output samples) not yet passed; `from` is the first unread. */
  readonly bounds: number[] = [];
  /** Each bound's fractional part (the exact mark minus the sample it starts at; 0 for unvoiced grains). */
  readonly fracs: number[] = [];
  from = 0;
  /** Output accumulator: out[i] is absolute sample `outStart + i` (the synth's outDone). */
  out = new Float64Array(1 << 14);
  /** Segments are filtered up to (not including) this sample. */
  done = 0;
}

/** A 2nd-order Butterworth section (direct form I), run twice for a Linkwitz-Riley crossover. */
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
  static butterworth(kind: "low" | "high", f: number, fs: number): Biquad {
    const w = Math.tan((Math.PI * f) / fs);
    const q = Math.SQRT1_2;
    const norm = 1 / (1 + w / q + w * w);
    const a1 = 2 * (w * w - 1) * norm;
    const a2 = (1 - w / q + w * w) * norm;
    return kind === "low" ? new Biquad(w * w * norm, 2 * w * w * norm, w * w * norm, a1, a2) : new Biquad(norm, -2 * norm, norm, a1, a2);
  }
  step(x: number): number {
    const y = this.b0 * x + this.b1 * this.x1 + this.b2 * this.x2 - this.a1 * this.y1 - this.a2 * this.y2;
    this.x2 = this.x1;
    this.x1 = x;
    this.y2 = this.y1;
    this.y1 = y;
    return y;
  }
}

export class ResidualSynth {
  private readonly hop: number;
  private readonly residual: Float32Array;
  private resDone = 0;
  /** Analysis marks (input samples), ascending; `markScan` is where the search goes on. */
  private readonly marks: number[] = [];
  private markScan = 0;
  private lastMark = -1;
  private markFrom = 0;
  /** Excitation accumulator: exc[i] is absolute sample `excStart + i`. */
  private exc = new Float64Array(1 << 14);
  private excStart = 0;
  private nextMark = 0;
  private readonly history: Float64Array;
  private readonly synthesisOrder: number;
  private outDone = 0;
  private readonly fitter = new LpcFitter();
  private readonly mappedLpc = new Map<number, Lpc>();
  private readonly epochs: "peak" | "mbs";
  private readonly crossoverHz: number;
  private readonly lowerPulseRatio: number;
  /** With `lowerPulseBy: "median"`, whether every voiced mark takes the pulse (null: decided per mark). */
  private readonly lowerAll: boolean | null;
  private readonly lowPulse: number;
  /** Noise of the low band's pulses (its own sequence, so the high band's is the same with it on or off). */
  private readonly lowRand: () => number;
  private readonly unvoicedNoise: boolean;
  private readonly noiseRand: () => number;
  /** "mbs" epochs: the last mark's position after its cycle's mean-based minimum. */
  private markOffset = 0;
  /** Band split: the voiced residual grains (low band), the pulses (high band), each in its own accumulator. */
  private readonly split: { low: [Biquad, Biquad]; high: [Biquad, Biquad]; rand: () => number } | null;
  private pulses = new Float64Array(1 << 14);
  private voicedExc = new Float64Array(1 << 14);
  private readonly blackman = new Map<number, Float64Array>();
  private readonly minPhase: MinPhaseFilter | null;
  /** excitationPower "envelope": unit-power excitation at every mark. */
  private readonly unitPower: boolean;
  private readonly onMark: ((at: number, residualPower: number) => void) | null;

  constructor(
    private readonly input: Float32Array,
    private readonly analysed: AnalysedSource,
    private readonly mapped: FrameSource,
    private readonly fs: number,
    opts: ResidualOptions = {},
  ) {
    this.hop = FRAME_SECONDS * fs;
    this.residual = new Float32Array(input.length);
    this.epochs = opts.epochs ?? "mbs";
    const fc = opts.crossoverHz ?? 0;
    this.crossoverHz = fc;
    this.lowerPulseRatio = opts.lowerPulseRatio ?? 0;
    this.lowerAll =
      (opts.lowerPulseBy ?? "mark") === "median" ? this.lowerPulseRatio > 0 && (opts.utterancePeriodRatio ?? 0) > this.lowerPulseRatio : null;
    this.lowPulse = Math.max(0, Math.min(1, opts.lowPulse ?? 0));
    this.lowRand = prng(((opts.seed ?? 1) ^ 0x5bd1e995) >>> 0);
    this.unvoicedNoise = opts.unvoicedNoise ?? false;
    this.synthesisOrder = Math.max(1, Math.min(MAX_ORDER, Math.round(opts.synthesisOrder ?? LPC_ORDER)));
    this.history = new Float64Array(this.synthesisOrder);
    this.noiseRand = prng(((opts.seed ?? 1) ^ 0x27d4eb2f) >>> 0);
    this.minPhase = (opts.outputFilter ?? "allpole") === "minphase" ? new MinPhaseFilter() : null;
    this.unitPower = (opts.excitationPower ?? "residual") === "envelope";
    this.onMark = opts.onMark ?? null;
    this.split =
      fc > 0
        ? {
            low: [Biquad.butterworth("low", fc, fs), Biquad.butterworth("low", fc, fs)],
            high: [Biquad.butterworth("high", fc, fs), Biquad.butterworth("high", fc, fs)],
            rand: prng(opts.seed ?? 1),
          }
        : null;
  }

  /** The input's mean-based signal at sample n: a Blackman-weighted mean over 2 * half + 1 samples. */
  private mbs(n: number, half: number): number {
    let w = this.blackman.get(half);
    if (!w) {
      w = new Float64Array(2 * half + 1);
      let sum = 0;
      for (let m = 0; m <= 2 * half; m++) {
        const p = (2 * Math.PI * m) / (2 * half);
        w[m] = 0.42 - 0.5 * Math.cos(p) + 0.08 * Math.cos(2 * p);
        sum += w[m];
      }
      for (let m = 0; m <= 2 * half; m++) w[m] /= sum;
      this.blackman.set(half, w);
    }
    const x = this.input;
    let acc = 0;
    const from = Math.max(0, n - half);
    const to = Math.min(x.length - 1, n + half);
    for (let i = from; i <= to; i++) acc += w[i - n + half] * x[i];
    return acc;
  }

  private frameOf(p: number, length: number): number {
    return Math.max(0, Math.min(length - 1, Math.round(p / this.hop)));
  }

  /** Residual up to (not including) sample `to`. */
  private residualTo(to: number): void {
    const { input, residual } = this;
    const end = Math.min(input.length, to);
    for (let n = this.resDone; n < end; n++) {
      const { a, gain } = this.analysed.at(this.frameOf(n, this.analysed.length)).lpc;
      let e = input[n];
      for (let k = 1; k <= LPC_ORDER && k <= n; k++) e += a[k] * input[n - k];
      residual[n] = gain > 0 ? e / gain : 0;
    }
    this.resDone = Math.max(this.resDone, end);
  }

  private inputF0(p: number): number {
    return this.analysed.at(this.frameOf(p, this.analysed.length)).f0;
  }

  /**
   * Analysis marks from sample `from` (or where the search stopped, if later) up to sample `to`
   * (each needs the residual a period and a quarter past it). The search restarts at `from` after
   * a stretch the output did not voice, so it never reads input frames far behind the output.
   */
  private marksTo(from: number, to: number): void {
    const maxPeriod = this.fs / MIN_F0;
    const n = this.input.length;
    if (this.markScan < from) {
      this.markScan = from;
      this.lastMark = -1;
    }
    while (this.markScan < Math.min(to, n)) {
      const f0 = this.inputF0(this.markScan);
      if (!(f0 > 0)) {
        this.lastMark = -1;
        this.markScan = Math.floor(this.markScan / this.hop + 1) * this.hop;
        continue;
      }
      const period = Math.min(maxPeriod, this.fs / f0);
      const lo = this.lastMark < 0 ? Math.ceil(this.markScan) : Math.ceil(this.lastMark + 0.75 * period);
      const hi = Math.min(n - 1, this.lastMark < 0 ? Math.floor(this.markScan + period) : Math.floor(this.lastMark + 1.25 * period));
      if (lo > hi) {
        this.markScan = n;
        break;
      }
      let best = lo;
      if (this.epochs === "mbs") {
        // The mean-based signal's minimum in this cycle, then the residual's peak around it.
        const half = Math.round(0.875 * period);
        let min = lo;
        let minValue = Infinity;
        for (let i = lo; i <= hi; i++) {
          const v = this.mbs(i, half);
          if (v < minValue) {
            minValue = v;
            min = i;
          }
        }
        // The residual's peak within half a period of where this cycle's mark is expected (the last
        // mark's offset from its minimum; the minimum itself at a stretch's start), weighted down
        // toward the window's edges so the mark keeps its place in the cycle.
        const expect = min + (this.lastMark >= 0 ? this.markOffset : 0);
        const prev = this.lastMark >= 0 && this.marks.length ? this.marks[this.marks.length - 1] : -Infinity;
        const rlo = Math.max(0, Math.ceil(prev + 0.5 * period), Math.round(expect - 0.5 * period));
        const rhi = Math.min(n - 1, Math.round(expect + 0.5 * period));
        this.residualTo(rhi + 1);
        best = Math.min(rhi, rlo);
        let bestScore = -1;
        for (let i = rlo; i <= rhi; i++) {
          const d = (i - expect) / (0.5 * period);
          const score = Math.abs(this.residual[i]) * (1 - 0.5 * d * d);
          if (score > bestScore) {
            bestScore = score;
            best = i;
          }
        }
        this.markOffset = best - min;
        // The next cycle's minimum is searched from the minimum, not the refined mark.
        if (this.inputF0(best) > 0) {
          this.marks.push(best);
          this.lastMark = min;
          this.markScan = min + 1;
          continue;
        }
        // The refined mark fell in an unvoiced frame: go on from there, but never step back behind the
        // search (the refinement may reach before `lo`; stepping back there looped at a voicing onset).
        if (best < this.markScan) {
          this.lastMark = -1;
          this.markScan = min + 1;
          continue;
        }
      } else {
        this.residualTo(hi + 1);
        for (let i = lo; i <= hi; i++) if (Math.abs(this.residual[i]) > Math.abs(this.residual[best])) best = i;
      }
      if (!(this.inputF0(best) > 0)) {
        this.lastMark = -1;
        this.markScan = best;
        continue;
      }
      this.marks.push(best);
      this.lastMark = best;
      this.markScan = best + 1;
    }
  }

  /** The analysis mark nearest sample `t` (-1 when none is known); marks well behind are dropped. */
  private nearestMark(t: number): number {
    const m = this.marks;
    let j = this.markFrom;
    while (j + 1 < m.length && m[j + 1] <= t) j++;
    this.markFrom = j;
    if (j >= m.length) return -1;
    let best = m[j];
    if (j + 1 < m.length && Math.abs(m[j + 1] - t) < Math.abs(best - t)) best = m[j + 1];
    if (this.markFrom > 1024) {
      m.splice(0, this.markFrom);
      this.markFrom = 0;
    }
    return best;
  }

  private f0Out(p: number): number {
    const pos = p / this.hop;
    const last = this.mapped.length - 1;
    const i = Math.max(0, Math.min(last, Math.floor(pos)));
    const j = Math.min(last, i + 1);
    const a = this.mapped.at(i).f0;
    const b = this.mapped.at(j).f0;
    const frac = Math.max(0, Math.min(1, pos - i));
    if (a > 0 && b > 0) return a * (1 - frac) + b * frac;
    const nearest = frac < 0.5 ? a : b;
    return nearest > 0 ? nearest : 0;
  }

  private ensure(n: number): void {
    if (n <= this.exc.length) return;
    const grow = (a: Float64Array) => {
      const next = new Float64Array(Math.max(a.length * 2, n));
      next.set(a);
      return next;
    };
    this.exc = grow(this.exc);
    if (this.split) {
      this.pulses = grow(this.pulses);
      this.voicedExc = grow(this.voicedExc);
    }
  }

  /** The mapped frame's aperiodicity between lo and hi Hz (bands weighted by their width there). */
  private apBetween(p: number, lo: number, hi: number): number {
    const ap = this.mapped.at(this.frameOf(p, this.mapped.length)).ap;
    let s = 0;
    let w = 0;
    for (let b = 0; b < AP_BANDS; b++) {
      const width = Math.max(0, Math.min(hi, AP_EDGES[b + 1]) - Math.max(lo, AP_EDGES[b]));
      s += width * ap[b];
      w += width;
    }
    return w > 0 ? Math.max(0, Math.min(1, s / w)) : 0;
  }

  /** The high band's excitation for a voiced synthesis mark: a flat pulse and noise over one output period, at the grain's residual power. */
  private highBand(at: number, from: number, halfIn: number, pOut: number): void {
    this.residualTo(Math.min(this.input.length, from + halfIn + 1));
    this.ensure(at - this.excStart + Math.max(1, Math.round(pOut)) + 1);
    this.pulseAt(this.pulses, this.split!.rand, this.apBetween(at, this.crossoverHz, Infinity), at, from, halfIn, pOut);
  }

  /**
   * The low band's (whole band's without a split) pulse for a voiced mark, carrying `share` of the
   * energy that the mark's residual grain (half-width `half`, times `scale`) would have carried.
   */
  private lowBand(at: number, from: number, half: number, scale: number, pOut: number, share: number): void {
    const n = this.input.length;
    this.residualTo(Math.min(n, from + half + 1));
    let e = 0;
    for (let j = -half; j <= half; j++) {
      const src = from + j;
      if (src < 0 || src >= n) continue;
      const w = (0.5 + 0.5 * Math.cos((Math.PI * j) / (half + 1))) * this.residual[src];
      e += w * w;
    }
    // Unit power: the Hann-weighted energy of a unit-power grain (the sum of w^2) in place of the residual's.
    const energy = share * scale * scale * (this.unitPower ? this.hannEnergy(half) : e);
    const ap = this.apBetween(at, 0, this.split ? this.crossoverHz : Infinity);
    const len = Math.max(1, Math.round(pOut));
    const o = at - this.excStart;
    this.ensure(o + len + 1);
    const acc = this.split ? this.voicedExc : this.exc;
    if (o >= 0) acc[o] += Math.sqrt((1 - ap) * energy);
    const noise = Math.sqrt((ap * energy) / len);
    for (let j = 0; j < len; j++) {
      const g = (this.lowRand() - 0.5) * Math.sqrt(12);
      if (o + j >= 0) acc[o + j] += noise * g;
    }
  }

  /** A flat pulse and noise (share `ap` of the power) over one output period at `at`, at the residual's power around `from`. */
  private pulseAt(acc: Float64Array, rand: () => number, ap: number, at: number, from: number, halfIn: number, pOut: number): void {
    const n = this.input.length;
    let e = 0;
    let count = 0;
    for (let j = -halfIn; j <= halfIn; j++) {
      const src = from + j;
      if (src < 0 || src >= n) continue;
      e += this.residual[src] * this.residual[src];
      count++;
    }
    const rms = this.unitPower ? 1 : count > 0 ? Math.sqrt(e / count) : 0;
    const o = at - this.excStart;
    const len = Math.max(1, Math.round(pOut));
    if (o + len + 1 > acc.length) throw new Error("pulseAt: accumulator not grown");
    if (o >= 0) acc[o] += Math.sqrt(1 - ap) * Math.sqrt(pOut) * rms;
    const noise = Math.sqrt(ap) * rms;
    for (let j = 0; j < len; j++) {
      // Uniform noise of unit variance: deterministic, in the order the marks are placed.
      const g = (rand() - 0.5) * Math.sqrt(12);
      if (o + j >= 0) acc[o + j] += noise * g;
    }
  }

  /** Adds residual[from + j] * w(j) * scale, j = -half..half, centred at output sample `at`. */
  private grain(at: number, from: number, half: number, scale: number, periodicHann: boolean): void {
    const n = this.input.length;
    this.residualTo(Math.min(n, from + half + 1));
    const o = at - this.excStart;
    this.ensure(o + half + 2);
    // With a band split, voiced grains feed the low band only.
    const acc = this.split && !periodicHann ? this.voicedExc : this.exc;
    if (periodicHann && this.unvoicedNoise) {
      // White noise at the grain's (Hann-weighted) residual power.
      let e = 0;
      let wsum = 0;
      for (let j = -half; j < half; j++) {
        const src = from + j;
        if (src < 0 || src >= n) continue;
        const w = 0.5 + 0.5 * Math.cos((Math.PI * j) / half);
        e += w * this.residual[src] * this.residual[src];
        wsum += w;
      }
      const rms = this.unitPower ? 1 : wsum > 0 ? Math.sqrt(e / wsum) : 0;
      for (let j = -half; j < half; j++) {
        const g = (this.noiseRand() - 0.5) * Math.sqrt(12);
        const dst = o + j;
        if (from + j < 0 || from + j >= n || dst < 0) continue;
        acc[dst] += g * rms * (0.5 + 0.5 * Math.cos((Math.PI * j) / half)) * scale;
      }
      return;
    }
    let norm = 1;
    if (this.unitPower) {
      // The grain divided by its own Hann-weighted RMS: unit power, the residual's waveform.
      let e = 0;
      let wsum = 0;
      for (let j = -half; j <= half; j++) {
        const src = from + j;
        if (src < 0 || src >= n) continue;
        const w = periodicHann ? 0.5 + 0.5 * Math.cos((Math.PI * j) / half) : 0.5 + 0.5 * Math.cos((Math.PI * j) / (half + 1));
        e += w * w * this.residual[src] * this.residual[src];
        wsum += w * w;
      }
      norm = e > 1e-20 ? Math.sqrt(wsum / e) : 0;
    }
    for (let j = -half; j <= half; j++) {
      const src = from + j;
      const dst = o + j;
      if (src < 0 || src >= n || dst < 0) continue;
      // The periodic Hann of 2 * half samples sums to one at a hop of `half`.
      const w = periodicHann ? 0.5 + 0.5 * Math.cos((Math.PI * j) / half) : 0.5 + 0.5 * Math.cos((Math.PI * j) / (half + 1));
      if (periodicHann && j === half) continue;
      acc[dst] += this.residual[src] * w * scale * norm;
    }
  }

  /** The sum of the squared Hann window of a voiced grain of half-width `half` (a unit-power grain's energy). */
  private hannEnergy(half: number): number {
    let s = 0;
    for (let j = -half; j <= half; j++) s += (0.5 + 0.5 * Math.cos((Math.PI * j) / (half + 1))) ** 2;
    return s;
  }

  /** The input residual's mean power over ±`half` samples around `from` (for `onMark`). */
  private localPower(from: number, half: number): number {
    const n = this.input.length;
    this.residualTo(Math.min(n, from + half + 1));
    let e = 0;
    let count = 0;
    for (let j = -half; j <= half; j++) {
      const src = from + j;
      if (src < 0 || src >= n) continue;
      e += this.residual[src] * this.residual[src];
      count++;
    }
    return count > 0 ? e / count : 0;
  }

  /** Synthesis marks up to sample `to` (their grains reach at most RESIDUAL_LOOKAHEAD past them). */
  private placeTo(to: number): void {
    const n = this.input.length;
    const maxPeriod = this.fs / MIN_F0;
    // Up to half an unvoiced grain past the end, so the last samples get their full overlap-add.
    while (this.nextMark < Math.min(to, n + UNVOICED_HALF)) {
      const t = Math.round(this.nextMark);
      const fOut = this.f0Out(this.nextMark);
      if (fOut > 0) {
        this.marksTo(Math.max(0, t - maxPeriod), t + 2 * maxPeriod);
        const a = this.nearestMark(t);
        const fIn = a >= 0 ? this.inputF0(a) : 0;
        const pIn = fIn > 0 ? Math.min(maxPeriod, this.fs / fIn) : 0;
        if (a >= 0 && pIn > 0 && Math.abs(a - t) <= pIn) {
          const pOut = this.fs / fOut;
          // Lowered pitch: a grain two input periods long would carry the input's next cycles too and
          // keep its period audible (and measurable) across the gaps, so it narrows with the ratio,
          // to one input period at most; its power per output period stays the residual's.
          const half = Math.max(1, Math.round(pIn * Math.max(0.5, Math.min(1, pIn / pOut))));
          // Large lowering takes the pulse alone below the crossover; otherwise the pulse's share is lowPulse.
          const lowered = this.lowerAll ?? (this.lowerPulseRatio > 0 && pOut > this.lowerPulseRatio * pIn);
          const pulse = lowered ? 1 : this.lowPulse;
          const scale = Math.sqrt(pOut / pIn) * Math.sqrt(pIn / half);
          this.onMark?.(t, this.localPower(a, Math.round(pIn)));
          if (pulse < 1) this.grain(t, a, half, Math.sqrt(1 - pulse) * scale, false);
          if (pulse > 0) this.lowBand(t, a, half, scale, pOut, pulse);
          if (this.split) this.highBand(t, a, Math.round(pIn), pOut);
          this.minPhase?.bounds.push(t);
          this.minPhase?.fracs.push(this.nextMark - t);
          this.nextMark += pOut;
          continue;
        }
      }
      this.grain(t, t, UNVOICED_HALF, 1, true);
      this.minPhase?.bounds.push(t);
      this.minPhase?.fracs.push(0);
      this.nextMark += UNVOICED_HALF;
    }
  }

  private lpcOut(i: number): Lpc {
    let l = this.mappedLpc.get(i);
    if (!l) {
      l = this.fitter.fit(this.mapped.at(i).logEnv, this.synthesisOrder);
      this.mappedLpc.set(i, l);
    }
    return l;
  }

  /** The output from the end of the previous call up to `until`. Frames must be known up to (until + RESIDUAL_LOOKAHEAD) / hop + 1. */
  render(until: number): Float32Array {
    if (this.minPhase) return this.renderMinPhase(until, this.minPhase);
    this.placeTo(until + RESIDUAL_GRAIN_REACH);
    const count = Math.max(0, until - this.outDone);
    const out = new Float32Array(count);
    const h = this.history;
    this.ensure(until - this.excStart + 1);
    for (let s = 0; s < count; s++) {
      const n = this.outDone + s;
      const { a, gain } = this.lpcOut(this.frameOf(n, this.mapped.length));
      const e = n - this.excStart;
      let x = this.exc[e];
      if (this.split) {
        const { low, high } = this.split;
        x += low[1].step(low[0].step(this.voicedExc[e])) + high[1].step(high[0].step(this.pulses[e]));
      }
      let y = gain * x;
      const order = this.synthesisOrder;
      for (let k = 1; k <= order; k++) y -= a[k] * h[k - 1];
      for (let k = order - 1; k > 0; k--) h[k] = h[k - 1];
      h[0] = y;
      out[s] = y;
    }
    this.outDone += count;
    // The excitation behind the output is final and read no more.
    const drop = this.outDone - this.excStart;
    if (drop > 0) {
      for (const a of this.split ? [this.exc, this.pulses, this.voicedExc] : [this.exc]) {
        a.copyWithin(0, drop);
        a.fill(0, a.length - drop);
      }
      this.excStart = this.outDone;
    }
    const keepFrom = this.frameOf(this.outDone, this.mapped.length) - 1;
    for (const key of this.mappedLpc.keys()) if (key < keepFrom) this.mappedLpc.delete(key);
    return out;
  }

  /** The excitation (both bands) at absolute sample n; the crossover's filters step, so call it once per sample, in order. */
  private excitationAt(n: number): number {
    const e = n - this.excStart;
    let x = this.exc[e];
    if (this.split) {
      const { low, high } = this.split;
      x += low[1].step(low[0].step(this.voicedExc[e])) + high[1].step(high[0].step(this.pulses[e]));
    }
    return x;
  }

  /** The mapped frame i's minimum-phase response (of the whole envelope), zero-padded to CONV_SIZE and transformed. */
  private responseOf(f: MinPhaseFilter, i: number): { re: Float64Array; im: Float64Array } {
    const j = Math.max(0, Math.min(this.mapped.length - 1, i));
    let r = f.responses.get(j);
    if (r) return r;
    const env = this.mapped.at(j).logEnv;
    for (let k = 0; k < BINS; k++) f.logAmp[k] = 0.5 * env[k];
    f.minPhase.response(f.logAmp, f.re, f.im);
    f.im[0] = 0;
    f.im[BINS - 1] = 0;
    f.fft.inverse(f.re, f.im, f.ir);
    f.buf.fill(0);
    f.buf.set(f.ir);
    r = { re: new Float64Array(CONV_BINS), im: new Float64Array(CONV_BINS) };
    f.conv.forward(f.buf, r.re, r.im);
    f.responses.set(j, r);
    return r;
  }

  /**
   * Convolves the excitation over [s, e) with the response at s, delayed by `delay` (a fraction of a sample), and adds
   * it to the output accumulator. The delay is the vocoder's (synth.ts): a linear phase on the segment's
   * spectrum, the Nyquist bin kept real, so a voiced mark's pulse sits at the mark's exact position and not
   * at the nearest sample (see docs/decisions/2026-12-07-sts-residual.md, "2026-12-08, later").
   */
  private filterSegment(f: MinPhaseFilter, s: number, e: number, delay: number): void {
    const { buf, sre, sim } = f;
    buf.fill(0);
    for (let n = s; n < e; n++) buf[n - s] = this.excitationAt(n);
    f.conv.forward(buf, sre, sim);
    if (delay !== 0) {
      const step = (-2 * Math.PI * delay) / CONV_SIZE;
      for (let k = 0; k < CONV_BINS; k++) {
        const c = Math.cos(step * k);
        const sn = Math.sin(step * k);
        const xr = sre[k];
        const xi = sim[k];
        sre[k] = xr * c - xi * sn;
        sim[k] = xr * sn + xi * c;
      }
      sim[CONV_BINS - 1] = 0;
    }
    const t = s / this.hop;
    const i = Math.floor(t);
    const frac = Math.min(1, t - i);
    const a = this.responseOf(f, i);
    const b = this.responseOf(f, i + 1);
    for (let k = 0; k < CONV_BINS; k++) {
      const hr = (1 - frac) * a.re[k] + frac * b.re[k];
      const hi = (1 - frac) * a.im[k] + frac * b.im[k];
      const xr = sre[k];
      const xi = sim[k];
      sre[k] = xr * hr - xi * hi;
      sim[k] = xr * hi + xi * hr;
    }
    f.conv.inverse(sre, sim, buf);
    const o = s - this.outDone;
    const len = e - s + FFT_SIZE - 1;
    if (o + len > f.out.length) {
      const next = new Float64Array(Math.max(2 * f.out.length, o + len));
      next.set(f.out);
      f.out = next;
    }
    for (let n = 0; n < len; n++) f.out[o + n] += buf[n];
  }

  /**
   * render() with the minimum-phase output filter: every segment that starts before `until` is
   * filtered whole (so blocks of any size give the same samples), which needs the excitation final up
   * to SEGMENT_MAX past the block end.
   */
  private renderMinPhase(until: number, f: MinPhaseFilter): Float32Array {
    const final = until + SEGMENT_MAX;
    this.placeTo(final + RESIDUAL_GRAIN_REACH);
    this.ensure(final - this.excStart + 1);
    while (f.done < until) {
      const s = f.done;
      const b = f.bounds;
      while (f.from < b.length && b[f.from] <= s) f.from++;
      if (f.from > 1024) {
        b.splice(0, f.from);
        f.fracs.splice(0, f.from);
        f.from = 0;
      }
      const next = f.from < b.length ? b[f.from] : Math.round(this.nextMark);
      const e = Math.max(s + 1, Math.min(s + SEGMENT_MAX, next));
      // A segment that starts at a voiced mark is delayed by the mark's fraction of a sample (the pieces of a long period after the first are not).
      this.filterSegment(f, s, e, f.from > 0 && b[f.from - 1] === s ? f.fracs[f.from - 1] : 0);
      f.done = e;
    }
    const count = Math.max(0, until - this.outDone);
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = f.out[i];
    f.out.copyWithin(0, count);
    f.out.fill(0, f.out.length - count);
    this.outDone += count;
    // The excitation behind the output is final and read no more (segments are filtered past it).
    const drop = this.outDone - this.excStart;
    if (drop > 0) {
      for (const a of this.split ? [this.exc, this.pulses, this.voicedExc] : [this.exc]) {
        a.copyWithin(0, drop);
        a.fill(0, a.length - drop);
      }
      this.excStart = this.outDone;
    }
    const keepFrom = this.frameOf(f.done, this.mapped.length) - 1;
    for (const key of f.responses.keys()) if (key < keepFrom) f.responses.delete(key);
    return out;
  }
}

/** How far a grain placed before the block end can reach past it: half a grain of the longest input period. */
const RESIDUAL_GRAIN_REACH = Math.ceil(22_050 / MIN_F0) + 2;
/** Samples of analysed and mapped frames needed past a block's end. */
export const RESIDUAL_LOOKAHEAD = RESIDUAL_GRAIN_REACH + 4 * Math.ceil(22_050 / MIN_F0) + 2 * UNVOICED_HALF + SEGMENT_MAX;

/**
 * Analysis and resynthesis with nothing moved (the input's own frames as the mapped ones): the
 * synthesis's floor, for its test and scripts/sts-floor.ts. No level change, no post chain.
 */
export function resynthesize(samples: Float32Array, fs = WORK_RATE): Float32Array {
  const { f0 } = trackF0(samples, fs);
  const analyzer = new SpectralAnalyzer(fs);
  const fitter = new LpcFitter();
  const frames: SynthFrame[] = [];
  const analysed: AnalysedFrame[] = [];
  for (let i = 0; i < f0.length; i++) {
    const frame: SynthFrame = { f0: f0[i], logEnv: new Float32Array(BINS), ap: new Float32Array(AP_BANDS) };
    analyzer.analyze(samples, i * FRAME_SECONDS * fs, frame.f0, frame);
    frames.push(frame);
    analysed.push({ f0: f0[i], lpc: fitter.fit(frame.logEnv) });
  }
  const synth = new ResidualSynth(samples, { length: analysed.length, at: (i) => analysed[i] }, { length: frames.length, at: (i) => frames[i] }, fs);
  return synth.render(samples.length);
}
