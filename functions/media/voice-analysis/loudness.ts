/**
 * Integrated loudness per ITU-R BS.1770-4 for one channel: K-weighting (a high shelf near 1.7 kHz
 * and a high-pass near 38 Hz, designed for the actual sample rate from the standard's analogue
 * parameters), 400 ms blocks with 75% overlap, the -70 LUFS absolute and -10 LU relative gates.
 */

export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

function highShelf(fs: number): Biquad {
  const f0 = 1681.974450955533;
  const gainDb = 3.999843853973347;
  const q = 0.7071752369554196;
  const k = Math.tan((Math.PI * f0) / fs);
  const vh = 10 ** (gainDb / 20);
  const vb = vh ** 0.4996667741545416;
  const a0 = 1 + k / q + k * k;
  return { b0: (vh + (vb * k) / q + k * k) / a0, b1: (2 * (k * k - vh)) / a0, b2: (vh - (vb * k) / q + k * k) / a0, a1: (2 * (k * k - 1)) / a0, a2: (1 - k / q + k * k) / a0 };
}

function highPass(fs: number): Biquad {
  const f0 = 38.13547087602444;
  const q = 0.5003270373238773;
  const k = Math.tan((Math.PI * f0) / fs);
  const a0 = 1 + k / q + k * k;
  return { b0: 1, b1: -2, b2: 1, a1: (2 * (k * k - 1)) / a0, a2: (1 - k / q + k * k) / a0 };
}

function filter(x: Float32Array, f: Biquad): Float64Array {
  const y = new Float64Array(x.length);
  let x1 = 0, x2 = 0, y1 = 0, y2 = 0;
  for (let i = 0; i < x.length; i++) {
    const v = f.b0 * x[i] + f.b1 * x1 + f.b2 * x2 - f.a1 * y1 - f.a2 * y2;
    x2 = x1;
    x1 = x[i];
    y2 = y1;
    y1 = v;
    y[i] = v;
  }
  return y;
}

/** The K-weighting's two stages at `fs`: the high shelf, then the high-pass. */
export const kWeighting = (fs: number): [Biquad, Biquad] => [highShelf(fs), highPass(fs)];

/**
 * The second stage in place, on the first's output as single floats (what it was filtered from
 * before: a Float32Array copy of it), without that copy.
 */
function filterInPlace(y: Float64Array, f: Biquad): Float64Array {
  let x1 = 0, x2 = 0, y1 = 0, y2 = 0;
  for (let i = 0; i < y.length; i++) {
    const xi = Math.fround(y[i]);
    const v = f.b0 * xi + f.b1 * x1 + f.b2 * x2 - f.a1 * y1 - f.a2 * y2;
    x2 = x1;
    x1 = xi;
    y2 = y1;
    y1 = v;
    y[i] = v;
  }
  return y;
}

/** LUFS, or null when no 400 ms block rises above the absolute gate (silence, or shorter than a block). */
export function integratedLoudness(x: Float32Array, fs: number): number | null {
  const [shelf, pass] = kWeighting(fs);
  const k = filterInPlace(filter(x, shelf), pass);
  const block = Math.round(0.4 * fs);
  const step = Math.round(0.1 * fs);
  const powers: number[] = [];
  for (let s = 0; s + block <= k.length; s += step) {
    let e = 0;
    for (let i = s; i < s + block; i++) e += k[i] * k[i];
    powers.push(e / block);
  }
  const lk = (z: number) => -0.691 + 10 * Math.log10(z);
  const aboveAbsolute = powers.filter((z) => z > 0 && lk(z) > -70);
  if (aboveAbsolute.length === 0) return null;
  const relative = lk(aboveAbsolute.reduce((a, z) => a + z, 0) / aboveAbsolute.length) - 10;
  const gated = aboveAbsolute.filter((z) => lk(z) > relative);
  return lk(gated.reduce((a, z) => a + z, 0) / gated.length);
}
