/**
 * Signal-processing building blocks of the analysis: a radix-2 FFT, the mel filterbank, the DCT
 * that turns log-mel energies into cepstra, and a few order statistics. Plain float math in a
 * fixed order, so results are identical on every run. The power spectrum runs in WebAssembly SIMD
 * where it can (fft-kernels.wat), with the same bits.
 */
import { lazyKernel, reserve, type KernelModule } from "../audio/wasm/kernels.js";
import { FFT_KERNELS_WASM } from "./fft-kernels.wasm.js";

interface FftKernels extends KernelModule {
  power(re: number, im: number, n: number, tw: number, out: number): void;
}
const fftKernels = lazyKernel<FftKernels>(FFT_KERNELS_WASM);
/** The FFT size whose stage twiddles are in the kernels' memory. */
let twiddlesFor = 0;

interface FftPlan {
  n: number;
  cos: Float64Array;
  sin: Float64Array;
  rev: Uint32Array;
}

const plans = new Map<number, FftPlan>();

function plan(n: number): FftPlan {
  let p = plans.get(n);
  if (p) return p;
  if (n < 2 || (n & (n - 1)) !== 0) throw new RangeError(`FFT size ${n} is not a power of two`);
  const cos = new Float64Array(n / 2);
  const sin = new Float64Array(n / 2);
  for (let k = 0; k < n / 2; k++) {
    cos[k] = Math.cos((2 * Math.PI * k) / n);
    sin[k] = -Math.sin((2 * Math.PI * k) / n);
  }
  const rev = new Uint32Array(n);
  const bits = Math.log2(n);
  for (let i = 0; i < n; i++) {
    let r = 0;
    for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    rev[i] = r;
  }
  p = { n, cos, sin, rev };
  plans.set(n, p);
  return p;
}

/** In-place complex FFT of (re, im), length a power of two. */
export function fft(re: Float64Array, im: Float64Array): void {
  const { n, cos, sin, rev } = plan(re.length);
  for (let i = 0; i < n; i++) {
    const j = rev[i];
    if (i < j) {
      let t = re[i];
      re[i] = re[j];
      re[j] = t;
      t = im[i];
      im[i] = im[j];
      im[j] = t;
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const half = size >> 1;
    const step = n / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < half; k++) {
        const wr = cos[k * step];
        const wi = sin[k * step];
        const a = start + k;
        const b = a + half;
        const xr = re[b] * wr - im[b] * wi;
        const xi = re[b] * wi + im[b] * wr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
      }
    }
  }
}

/** |X[k]|^2 for k = 0..n/2 of a real frame (zero-padded to n). `re` and `im` are scratch. */
export function powerSpectrum(frame: ArrayLike<number>, n: number, re = new Float64Array(n), im = new Float64Array(n), out = new Float64Array(n / 2 + 1)): Float64Array {
  if (n >= 4 && powerSpectrumSimd(frame, n, out)) return out;
  re.fill(0);
  im.fill(0);
  for (let i = 0; i < frame.length && i < n; i++) re[i] = frame[i];
  fft(re, im);
  for (let k = 0; k <= n / 2; k++) out[k] = re[k] * re[k] + im[k] * im[k];
  return out;
}

/** powerSpectrum by the kernel: the frame goes in bit-reversed, as the JavaScript FFT's swaps leave it. */
function powerSpectrumSimd(frame: ArrayLike<number>, n: number, out: Float64Array): boolean {
  const k = fftKernels();
  if (!k) return false;
  const { cos, sin, rev } = plan(n);
  const twAt = 0;
  const reAt = 16 * n;
  const imAt = 24 * n;
  const outAt = 32 * n;
  const mem = reserve(k, outAt + 8 * (n / 2 + 2));
  if (twiddlesFor !== n) {
    const tw = new Float64Array(mem, twAt, 2 * n);
    for (let h = 1; h < n; h <<= 1) {
      const step = n / (2 * h);
      for (let j = 0; j < h; j++) {
        tw[2 * (h + j)] = cos[j * step];
        tw[2 * (h + j) + 1] = sin[j * step];
      }
    }
    twiddlesFor = n;
  }
  const re = new Float64Array(mem, reAt, n);
  re.fill(0);
  const m = Math.min(frame.length, n);
  for (let i = 0; i < m; i++) re[rev[i]] = frame[i];
  new Float64Array(mem, imAt, n).fill(0);
  k.power(reAt, imAt, n, twAt, outAt);
  out.set(new Float64Array(mem, outAt, n / 2 + 1));
  return true;
}

export function hamming(n: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (n - 1));
  return w;
}

const hz2mel = (f: number) => 2595 * Math.log10(1 + f / 700);
const mel2hz = (m: number) => 700 * (10 ** (m / 2595) - 1);

/** Triangular mel filters over the bins of an n-point FFT: for each filter, its first bin and weights. */
export interface MelFilterbank {
  starts: Int32Array;
  weights: Float64Array[];
}

export function melFilterbank(bands: number, n: number, sampleRate: number, lowHz: number, highHz: number): MelFilterbank {
  const lo = hz2mel(lowHz);
  const hi = hz2mel(highHz);
  const edges = Array.from({ length: bands + 2 }, (_, i) => mel2hz(lo + ((hi - lo) * i) / (bands + 1)));
  const binHz = sampleRate / n;
  const starts = new Int32Array(bands);
  const weights: Float64Array[] = [];
  for (let m = 0; m < bands; m++) {
    const [l, c, r] = [edges[m], edges[m + 1], edges[m + 2]];
    const first = Math.ceil(l / binHz);
    const last = Math.floor(r / binHz);
    const w = new Float64Array(Math.max(0, last - first + 1));
    for (let k = first; k <= last; k++) {
      const f = k * binHz;
      w[k - first] = f <= c ? (f - l) / (c - l) : (r - f) / (r - c);
    }
    starts[m] = first;
    weights.push(w);
  }
  return { starts, weights };
}

export function applyFilterbank(fb: MelFilterbank, power: Float64Array, out: Float64Array): void {
  for (let m = 0; m < fb.weights.length; m++) {
    const w = fb.weights[m];
    const s = fb.starts[m];
    let e = 0;
    for (let k = 0; k < w.length; k++) e += w[k] * power[s + k];
    out[m] = e;
  }
}

/** Orthonormal DCT-II matrix rows 0..count-1 over `size` inputs. */
export function dctMatrix(count: number, size: number): Float64Array[] {
  const rows: Float64Array[] = [];
  for (let k = 0; k < count; k++) {
    const row = new Float64Array(size);
    const scale = k === 0 ? Math.sqrt(1 / size) : Math.sqrt(2 / size);
    for (let i = 0; i < size; i++) row[i] = scale * Math.cos((Math.PI * k * (i + 0.5)) / size);
    rows.push(row);
  }
  return rows;
}

/** Value at quantile q (0..1) of a copy of the values, linear between order statistics. */
export function quantile(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) return NaN;
  const s = Float64Array.from(values).sort();
  const at = q * (s.length - 1);
  const i = Math.floor(at);
  return i + 1 < s.length ? s[i] + (s[i + 1] - s[i]) * (at - i) : s[i];
}

export function mean(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return values.length ? s / values.length : 0;
}

export function std(values: ArrayLike<number>, m = mean(values)): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += (values[i] - m) ** 2;
  return values.length > 1 ? Math.sqrt(s / values.length) : 0;
}

export const dbOf = (power: number) => 10 * Math.log10(Math.max(power, 1e-12));
