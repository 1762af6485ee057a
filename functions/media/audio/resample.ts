/**
 * Streaming polyphase resampler: a Kaiser-windowed sinc evaluated at the L phases of the
 * rational ratio L/M. The cutoff sits below the lower of the two Nyquist rates, so it
 * anti-aliases on the way down and removes images on the way up. Arithmetic is plain
 * float math in a fixed order, so the output is deterministic and streaming in pieces gives
 * exactly the samples of one call. The inner loops run in WebAssembly SIMD when it is there
 * (./resample-wasm.ts), with the same bits.
 */
import { halfbandRunSimd, polyphaseRun } from "./resample-wasm.js";

/** Below this many outputs a call stays in JavaScript (copying in and out would not pay). */
const SIMD_MIN_OUTPUTS = 64;

export interface ResamplerOptions {
  /** Stopband attenuation in dB (default 80 down, 70 up). */
  attenuationDb?: number;
  /** Passband edge as a fraction of the lower sample rate (default 0.42 down, 0.40 up; stopband starts at 0.5). */
  passFraction?: number;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Modified Bessel function of the first kind, order 0 (series; converges fast for Kaiser betas). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 64; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

const tables = new Map<string, Float32Array>();

/** Polyphase table: for each phase p, taps of the windowed sinc at offsets (taps/2 - 1 - j + p/up). Cached per design. */
function coefficients(up: number, taps: number, fc: number, atten: number): Float32Array {
  const key = `${up}:${taps}:${fc}:${atten}`;
  const cached = tables.get(key);
  if (cached) return cached;
  const beta = atten > 50 ? 0.1102 * (atten - 8.7) : 0.5842 * (atten - 21) ** 0.4 + 0.07886 * (atten - 21);
  const half = taps / 2;
  const i0b = besselI0(beta);
  const out = new Float32Array(up * taps);
  const row = new Float64Array(taps);
  for (let p = 0; p < up; p++) {
    let sum = 0;
    for (let j = 0; j < taps; j++) {
      const t = half - 1 - j + p / up;
      const x = 2 * fc * t;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const r = t / half;
      const w = r * r >= 1 ? 0 : besselI0(beta * Math.sqrt(1 - r * r)) / i0b;
      row[j] = 2 * fc * sinc * w;
      sum += row[j];
    }
    // Unit gain at DC for every phase keeps a constant input constant.
    for (let j = 0; j < taps; j++) out[p * taps + j] = row[j] / sum;
  }
  tables.set(key, out);
  return out;
}

/**
 * Doubling the rate (eSpeak's 22,050 Hz to 44,100 Hz, the default MP3 rate) with a half-band
 * filter: its zeros fall on every other output, so those outputs are the input samples themselves
 * and the rest take one symmetric pair sum per tap pair, a quarter of the general polyphase work.
 * The passband ends at 0.40 of the input rate, mirrored around the input Nyquist: speech has
 * almost nothing near it, so the images left in the narrow transition band are inaudible.
 */
const HALFBAND_ATTENUATION_DB = 70;
const HALFBAND_PASS = 0.4;

let halfband: Float64Array | null = null;

function halfbandPairs(): Float64Array {
  if (halfband) return halfband;
  // Transition from pass to 1 - pass of the input rate, on the output's time axis.
  const width = (1 - 2 * HALFBAND_PASS) / 2;
  const atten = HALFBAND_ATTENUATION_DB;
  const taps = Math.ceil((atten - 7.95) / (14.36 * width));
  const pairs = Math.ceil(taps / 4);
  const beta = 0.1102 * (atten - 8.7);
  const i0b = besselI0(beta);
  const half = pairs * 2; // the window spans ±half output samples
  const c = new Float64Array(pairs);
  let sum = 0;
  for (let k = 0; k < pairs; k++) {
    // The odd output sits halfway between inputs m-k and m+1+k: output-time offset 2k+1.
    const t = 2 * k + 1;
    const sinc = Math.sin((Math.PI * t) / 2) / ((Math.PI * t) / 2);
    const r = t / (half + 1);
    c[k] = sinc * (besselI0(beta * Math.sqrt(1 - r * r)) / i0b);
    sum += 2 * c[k];
  }
  // Unit gain at DC for the odd outputs, as the even ones (copies) have.
  for (let k = 0; k < pairs; k++) c[k] /= sum;
  halfband = c;
  return c;
}

/**
 * The odd outputs 2m+1 for m in [from, from + count): out[2(m - from) + 1] from x[i - k] and
 * x[i + 1 + k], i = m + offset. Two partial sums in a fixed order (a: even k, b: odd k), so the
 * result is the same on every run; the eleven-pair design (the only one in use) is unrolled with
 * its coefficients in locals, about twice as fast as the loop and bit for bit the same sums.
 * `x` is float64 so each sample is converted once rather than at each of its 22 reads.
 */
function halfbandRun(c: Float64Array, x: Float64Array, offset: number, count: number, out: Float32Array, outOffset = 0): void {
  if (count >= SIMD_MIN_OUTPUTS && halfbandRunSimd(c, x, offset, count, out, outOffset)) return;
  const pairs = c.length;
  const end = outOffset + 2 * count;
  if (pairs === 11) {
    const c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c4 = c[4], c5 = c[5], c6 = c[6], c7 = c[7], c8 = c[8], c9 = c[9], c10 = c[10];
    for (let o = outOffset, i = offset; o < end; o += 2, i++) {
      out[o] = x[i];
      let a = 0 + c0 * (x[i] + x[i + 1]);
      let b = 0 + c1 * (x[i - 1] + x[i + 2]);
      a += c2 * (x[i - 2] + x[i + 3]);
      b += c3 * (x[i - 3] + x[i + 4]);
      a += c4 * (x[i - 4] + x[i + 5]);
      b += c5 * (x[i - 5] + x[i + 6]);
      a += c6 * (x[i - 6] + x[i + 7]);
      b += c7 * (x[i - 7] + x[i + 8]);
      a += c8 * (x[i - 8] + x[i + 9]);
      b += c9 * (x[i - 9] + x[i + 10]);
      a += c10 * (x[i - 10] + x[i + 11]);
      out[o + 1] = a + b;
    }
    return;
  }
  for (let o = outOffset, i = offset; o < end; o += 2, i++) {
    out[o] = x[i];
    let a = 0, b = 0, k = 0;
    for (; k + 1 < pairs; k += 2) {
      a += c[k] * (x[i - k] + x[i + 1 + k]);
      b += c[k + 1] * (x[i - k - 1] + x[i + 2 + k]);
    }
    if (k < pairs) a += c[k] * (x[i - k] + x[i + 1 + k]);
    out[o + 1] = a + b;
  }
}

/** Input samples per block of the one-call path: the block (and its output) stays in the L1/L2 cache. */
const HALFBAND_BLOCK = 4096;
let halfbandScratch: Float64Array | null = null;

/**
 * 16-bit samples to twice their rate in one call: the same samples as the streaming half-band
 * upsampler (zeros before the start and past the end), without its buffering, converted and
 * filtered a cache-sized block at a time. The engine's chunks take this path
 * (functions/media/audio/segment.ts).
 */
export function upsampleHalfbandInt16(pcm: Int16Array): Float32Array {
  const c = halfbandPairs();
  const pairs = c.length;
  const n = pcm.length;
  const x = (halfbandScratch ??= new Float64Array(HALFBAND_BLOCK + 2 * pairs));
  const out = new Float32Array(2 * n);
  for (let start = 0; start < n; start += HALFBAND_BLOCK) {
    const count = Math.min(HALFBAND_BLOCK, n - start);
    // x[j] is input sample start - (pairs - 1) + j; zeros outside the input.
    const first = start - (pairs - 1);
    const span = count + 2 * pairs - 1;
    for (let j = 0; j < span; j++) {
      const idx = first + j;
      x[j] = idx >= 0 && idx < n ? pcm[idx] / 32768 : 0;
    }
    halfbandRun(c, x, pairs - 1, count, out, 2 * start);
  }
  return out;
}

class HalfbandUpsampler {
  private readonly c: Float64Array;
  private readonly pairs: number;
  /** Input not yet fully used; buf[0] is input index bufStart (negative: zero padding). */
  private buf: Float64Array;
  private bufLen: number;
  private bufStart: number;
  /** Next input index m whose outputs 2m and 2m+1 are due. */
  private m = 0;
  private totalIn = 0;
  private finished = false;

  constructor() {
    this.c = halfbandPairs();
    this.pairs = this.c.length;
    this.buf = new Float64Array(4096);
    // The first odd outputs look back `pairs - 1` samples before the start: zeros.
    this.bufLen = this.pairs - 1;
    this.bufStart = -(this.pairs - 1);
  }

  process(input: Float32Array): Float32Array {
    if (this.finished) throw new Error("resampler already flushed");
    this.append(input);
    this.totalIn += input.length;
    return this.run(this.totalIn);
  }

  flush(): Float32Array {
    if (this.finished) return new Float32Array(0);
    this.finished = true;
    this.append(new Float32Array(this.pairs));
    return this.run(this.totalIn);
  }

  private append(x: Float32Array): void {
    if (this.bufLen + x.length > this.buf.length) {
      const next = new Float64Array(Math.max(this.buf.length * 2, this.bufLen + x.length));
      next.set(this.buf.subarray(0, this.bufLen));
      this.buf = next;
    }
    this.buf.set(x, this.bufLen);
    this.bufLen += x.length;
  }

  /** Outputs for every m whose look-ahead m + pairs is buffered (and m < end). */
  private run(end: number): Float32Array {
    const { c, pairs, buf } = this;
    const last = this.bufStart + this.bufLen - 1;
    const until = Math.min(end, last - pairs + 1);
    const count = Math.max(0, until - this.m);
    const out = new Float32Array(2 * count);
    halfbandRun(c, buf, this.m - this.bufStart, count, out);
    this.m += count;
    const keepFrom = this.m - (pairs - 1) - this.bufStart;
    if (keepFrom > 0) {
      buf.copyWithin(0, keepFrom, this.bufLen);
      this.bufLen -= keepFrom;
      this.bufStart += keepFrom;
    }
    return out;
  }
}

export class Resampler {
  readonly inRate: number;
  readonly outRate: number;
  private readonly up: number;
  private readonly down: number;
  private readonly taps: number;
  private readonly coeffs: Float32Array;
  /** Pending input; buf[0] is absolute input index bufStart (negative indices are zero padding). */
  private buf: Float32Array;
  private bufLen: number;
  private bufStart: number;
  private totalIn = 0;
  private produced = 0;
  /** Next output sample sits at input time k + phase/up. */
  private k = 0;
  private phase = 0;
  private finished = false;
  private readonly halfband: HalfbandUpsampler | null = null;

  constructor(inRate: number, outRate: number, opts: ResamplerOptions = {}) {
    if (!(inRate > 0 && outRate > 0) || !Number.isInteger(inRate) || !Number.isInteger(outRate)) {
      throw new RangeError(`bad sample rates ${inRate} -> ${outRate}`);
    }
    this.inRate = inRate;
    this.outRate = outRate;
    if (outRate === 2 * inRate && opts.attenuationDb === undefined && opts.passFraction === undefined) this.halfband = new HalfbandUpsampler();
    const g = gcd(inRate, outRate);
    this.up = outRate / g;
    this.down = inRate / g;
    if (this.up === 1 && this.down === 1) {
      this.taps = 0;
      this.coeffs = new Float32Array(0);
    } else {
      // Images on the way up fall where speech has little energy, so a shorter filter does.
      const upsampling = outRate > inRate;
      const atten = opts.attenuationDb ?? (upsampling ? 70 : 80);
      const low = Math.min(inRate, outRate);
      const pass = (opts.passFraction ?? (upsampling ? 0.4 : 0.42)) * low;
      const stop = 0.5 * low;
      const width = (stop - pass) / inRate;
      let taps = Math.ceil((atten - 7.95) / (14.36 * width));
      taps = Math.ceil(taps / 4) * 4;
      this.taps = taps;
      const fc = (pass + stop) / 2 / inRate;
      this.coeffs = coefficients(this.up, taps, fc, atten);
    }
    const pad = Math.max(0, this.taps / 2 - 1);
    this.buf = new Float32Array(Math.max(4096, pad * 2));
    this.bufLen = pad;
    this.bufStart = -pad;
  }

  /** Number of output samples for n input samples in one go. */
  static outputLength(n: number, inRate: number, outRate: number): number {
    return Math.ceil((n * outRate) / inRate);
  }

  process(input: Float32Array): Float32Array {
    if (this.halfband) return this.halfband.process(input);
    if (this.finished) throw new Error("resampler already flushed");
    if (this.taps === 0) {
      this.totalIn += input.length;
      return input.slice();
    }
    this.append(input);
    this.totalIn += input.length;
    return this.run(false);
  }

  flush(): Float32Array {
    if (this.halfband) return this.halfband.flush();
    if (this.finished) return new Float32Array(0);
    this.finished = true;
    if (this.taps === 0) return new Float32Array(0);
    // Zero padding past the end lets the last outputs see their full window.
    this.append(new Float32Array(this.taps));
    return this.run(true);
  }

  private append(x: Float32Array): void {
    if (this.bufLen + x.length > this.buf.length) {
      const next = new Float32Array(Math.max(this.buf.length * 2, this.bufLen + x.length));
      next.set(this.buf.subarray(0, this.bufLen));
      this.buf = next;
    }
    this.buf.set(x, this.bufLen);
    this.bufLen += x.length;
  }

  private run(final: boolean): Float32Array {
    const { taps, up, down, coeffs } = this;
    const half = taps / 2;
    const target = final ? Resampler.outputLength(this.totalIn, this.inRate, this.outRate) : Infinity;
    const lastKnown = this.bufStart + this.bufLen - 1;
    // Outputs computable now: need input index k + half available.
    const estimate = Math.max(0, Math.ceil(((lastKnown - half + 1 - this.k) * up - this.phase) / down) + 1);
    const out = new Float32Array(Math.min(estimate, final ? Math.max(0, target - this.produced) : estimate));
    let o = 0;
    const buf = this.buf;
    let k = this.k;
    let phase = this.phase;
    if (out.length >= SIMD_MIN_OUTPUTS) {
      const state = { k, phase };
      const n = polyphaseRun(buf.subarray(0, this.bufLen), coeffs, taps, out, state, up, down, this.bufStart, half, lastKnown);
      if (n >= 0) {
        o = n;
        k = state.k;
        phase = state.phase;
      }
    }
    while (o < out.length && this.produced + o < target && k + half <= lastKnown) {
      const base = k - half + 1 - this.bufStart;
      const c = phase * taps;
      // Four partial sums: V8 keeps them in registers (taps is always a multiple of 4).
      let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      for (let j = 0; j < taps; j += 4) {
        a0 += buf[base + j] * coeffs[c + j];
        a1 += buf[base + j + 1] * coeffs[c + j + 1];
        a2 += buf[base + j + 2] * coeffs[c + j + 2];
        a3 += buf[base + j + 3] * coeffs[c + j + 3];
      }
      out[o++] = a0 + a1 + a2 + a3;
      phase += down;
      if (phase >= up) {
        k += Math.floor(phase / up);
        phase %= up;
      }
    }
    this.k = k;
    this.phase = phase;
    this.produced += o;
    // Drop input no longer reachable by future outputs.
    const keepFrom = k - half + 1 - this.bufStart;
    if (keepFrom > 0) {
      this.buf.copyWithin(0, keepFrom, this.bufLen);
      this.bufLen -= keepFrom;
      this.bufStart += keepFrom;
    }
    return o === out.length ? out : out.slice(0, o);
  }
}

/** One-shot convenience over the streaming resampler. */
export function resample(input: Float32Array, inRate: number, outRate: number, opts?: ResamplerOptions): Float32Array {
  const r = new Resampler(inRate, outRate, opts);
  const a = r.process(input);
  const b = r.flush();
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export function int16ToFloat(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i] / 32768;
  return out;
}

/**
 * `y` rounded as Math.round does (halves toward +infinity) and clipped to 16 bits: the same
 * integer for every double. Math.round costs a mispredicted branch per sample on speech (about
 * 8 ns; a quarter of that this way): here the only data-dependent branch is the correction, taken
 * only when `y + 0.5` itself rounded up to the next integer (y just below a half), and `v - 0.5`
 * is exact for the integers that reach it.
 */
export function roundToInt16(y: number): number {
  let v = Math.floor(y + 0.5);
  if (v - 0.5 > y) v -= 1;
  return v > 32767 ? 32767 : v < -32768 ? -32768 : v;
}

/** Rounds and clips to 16 bits. */
export function floatToInt16(x: Float32Array): Int16Array {
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = roundToInt16(x[i] * 32768);
  return out;
}
