/**
 * FFTs for the vocoder, which runs thousands per second of audio: a radix-2 complex transform
 * with per-stage twiddle tables and a precomputed bit-reversal, and a real transform of size n
 * through a complex one of size n/2 (half the work). Plain float math in a fixed order, so
 * results are identical on every run.
 */
export class ComplexFFT {
  readonly n: number;
  private readonly swapA: Uint32Array;
  private readonly swapB: Uint32Array;
  /** Twiddles of every stage, concatenated: stage with half-size h starts at offset h - 1. */
  private readonly twr: Float64Array;
  private readonly twi: Float64Array;

  constructor(n: number) {
    if (n < 4 || (n & (n - 1)) !== 0) throw new RangeError(`FFT size ${n} is not a power of two >= 4`);
    this.n = n;
    const bits = Math.log2(n);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < n; i++) {
      let r = 0;
      for (let k = 0; k < bits; k++) r |= ((i >> k) & 1) << (bits - 1 - k);
      if (i < r) {
        a.push(i);
        b.push(r);
      }
    }
    this.swapA = Uint32Array.from(a);
    this.swapB = Uint32Array.from(b);
    this.twr = new Float64Array(n);
    this.twi = new Float64Array(n);
    for (let h = 1; h < n; h <<= 1) {
      for (let k = 0; k < h; k++) {
        this.twr[h - 1 + k] = Math.cos((Math.PI * k) / h);
        this.twi[h - 1 + k] = -Math.sin((Math.PI * k) / h);
      }
    }
  }

  /** In-place forward transform. */
  forward(re: Float64Array, im: Float64Array): void {
    const { n, swapA, swapB, twr, twi } = this;
    for (let s = 0; s < swapA.length; s++) {
      const i = swapA[s];
      const j = swapB[s];
      let t = re[i];
      re[i] = re[j];
      re[j] = t;
      t = im[i];
      im[i] = im[j];
      im[j] = t;
    }
    // Stage of size 2: trivial twiddles.
    for (let i = 0; i < n; i += 2) {
      const ar = re[i], ai = im[i], br = re[i + 1], bi = im[i + 1];
      re[i] = ar + br;
      im[i] = ai + bi;
      re[i + 1] = ar - br;
      im[i + 1] = ai - bi;
    }
    // Stage of size 4: twiddles 1 and -j.
    for (let i = 0; i < n; i += 4) {
      const ar = re[i], ai = im[i], br = re[i + 2], bi = im[i + 2];
      re[i] = ar + br;
      im[i] = ai + bi;
      re[i + 2] = ar - br;
      im[i + 2] = ai - bi;
      const cr = re[i + 1], ci = im[i + 1], dr = im[i + 3], di = -re[i + 3];
      re[i + 1] = cr + dr;
      im[i + 1] = ci + di;
      re[i + 3] = cr - dr;
      im[i + 3] = ci - di;
    }
    for (let h = 4; h < n; h <<= 1) {
      const size = h << 1;
      const off = h - 1;
      for (let start = 0; start < n; start += size) {
        for (let k = 0; k < h; k++) {
          const wr = twr[off + k];
          const wi = twi[off + k];
          const a = start + k;
          const b = a + h;
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

  /** In-place inverse transform, scaled by 1/n. */
  inverse(re: Float64Array, im: Float64Array): void {
    const n = this.n;
    for (let i = 0; i < n; i++) im[i] = -im[i];
    this.forward(re, im);
    const s = 1 / n;
    for (let i = 0; i < n; i++) {
      re[i] *= s;
      im[i] = -im[i] * s;
    }
  }
}

/** Transforms of real signals of length n: spectra are bins 0..n/2. */
export class RealFFT {
  readonly n: number;
  readonly bins: number;
  private readonly half: ComplexFFT;
  private readonly zr: Float64Array;
  private readonly zi: Float64Array;
  private readonly cr: Float64Array;
  private readonly ci: Float64Array;

  constructor(n: number) {
    this.n = n;
    this.bins = n / 2 + 1;
    const m = n / 2;
    this.half = new ComplexFFT(m);
    this.zr = new Float64Array(m);
    this.zi = new Float64Array(m);
    this.cr = new Float64Array(m + 1);
    this.ci = new Float64Array(m + 1);
    for (let k = 0; k <= m; k++) {
      this.cr[k] = Math.cos((2 * Math.PI * k) / n);
      this.ci[k] = -Math.sin((2 * Math.PI * k) / n);
    }
  }

  /** x (length n, read only) -> re, im (length >= n/2 + 1). */
  forward(x: ArrayLike<number>, re: Float64Array, im: Float64Array): void {
    const { zr, zi, cr, ci } = this;
    const m = this.n / 2;
    for (let i = 0; i < m; i++) {
      zr[i] = x[2 * i];
      zi[i] = x[2 * i + 1];
    }
    this.half.forward(zr, zi);
    for (let k = 0; k <= m; k++) {
      const a = k % m;
      const b = (m - k) % m;
      // Even part E = (Z[k] + conj Z[m-k]) / 2, odd part O = (Z[k] - conj Z[m-k]) / 2j.
      const er = (zr[a] + zr[b]) / 2;
      const ei = (zi[a] - zi[b]) / 2;
      const or = (zi[a] + zi[b]) / 2;
      const oi = -(zr[a] - zr[b]) / 2;
      re[k] = er + or * cr[k] - oi * ci[k];
      im[k] = ei + or * ci[k] + oi * cr[k];
    }
  }

  /** re, im (bins 0..n/2, Hermitian meaning) -> x (length n), scaled by 1/n. */
  inverse(re: ArrayLike<number>, im: ArrayLike<number>, x: Float64Array): void {
    const { zr, zi, cr, ci } = this;
    const m = this.n / 2;
    for (let k = 0; k < m; k++) {
      const j = m - k;
      // E = (X[k] + conj X[m-k]) / 2, O = (X[k] - conj X[m-k]) * conj(w^k) / 2; Z = E + jO.
      const er = (re[k] + re[j]) / 2;
      const ei = (im[k] - im[j]) / 2;
      const dr = (re[k] - re[j]) / 2;
      const di = (im[k] + im[j]) / 2;
      const or = dr * cr[k] + di * ci[k];
      const oi = di * cr[k] - dr * ci[k];
      zr[k] = er - oi;
      zi[k] = ei + or;
    }
    this.half.inverse(zr, zi);
    for (let i = 0; i < m; i++) {
      x[2 * i] = zr[i];
      x[2 * i + 1] = zi[i];
    }
  }
}
