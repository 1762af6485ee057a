/** Measurements used by the engine tests (pitch, spectrum, level); not used at run time. */

/** Frames whose RMS is within 30 dB of the loudest frame. */
function activeFrames(x: Int16Array, n: number, hop: number): number[] {
  const rms: number[] = [];
  for (let s = 0; s + n <= x.length; s += hop) {
    let e = 0;
    for (let i = 0; i < n; i++) e += x[s + i] * x[s + i];
    rms.push(Math.sqrt(e / n));
  }
  const peak = Math.max(...rms);
  return rms.flatMap((r, i) => (r >= peak * 0.0316 ? [i * hop] : []));
}

/** YIN pitch (cumulative mean normalised difference) per voiced frame, 60..500 Hz. */
export function pitchTrack(x: Int16Array, fs = 22050): number[] {
  const n = 1024;
  const maxLag = Math.ceil(fs / 60);
  const minLag = Math.floor(fs / 500);
  const out: number[] = [];
  const d = new Float64Array(maxLag + 1);
  for (const s of activeFrames(x, n + maxLag, 256)) {
    for (let l = 1; l <= maxLag; l++) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const diff = x[s + i] - x[s + i + l];
        sum += diff * diff;
      }
      d[l] = sum;
    }
    // First dip under 0.2, else the deepest dip if it is still clearly periodic (< 0.4).
    let running = 0;
    let lag = 0;
    let bestLag = 0;
    let best = Infinity;
    for (let l = 1; l <= maxLag; l++) {
      running += d[l];
      const cmnd = (d[l] * l) / running;
      if (l < minLag) continue;
      if (cmnd < best) {
        best = cmnd;
        bestLag = l;
      }
      if (cmnd < 0.2) {
        while (l + 1 <= maxLag && d[l + 1] < d[l]) l++;
        lag = l;
        break;
      }
    }
    if (!lag && best < 0.4) lag = bestLag;
    if (lag) out.push(fs / lag);
  }
  return out;
}

export function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1] ?? 0;
}

/** Spread of the pitch between its 10th and 90th percentiles, in semitones: how much the intonation moves. */
export function pitchSpread(x: Int16Array, fs = 22050): number {
  const st = pitchTrack(x, fs)
    .map((f) => 12 * Math.log2(f))
    .sort((a, b) => a - b);
  const at = (p: number) => st[Math.floor(p * (st.length - 1))];
  return at(0.9) - at(0.1);
}

function fftMagnitudes(frame: Float64Array): Float64Array {
  const n = frame.length;
  const re = Float64Array.from(frame);
  const im = new Float64Array(n);
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) [re[i], re[j]] = [re[j], re[i]];
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(ang * k), wi = Math.sin(ang * k);
        const a = i + k, b = i + k + len / 2;
        const xr = re[b] * wr - im[b] * wi, xi = re[b] * wi + im[b] * wr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
      }
    }
  }
  const mag = new Float64Array(n / 2);
  for (let k = 0; k < n / 2; k++) mag[k] = Math.hypot(re[k], im[k]);
  return mag;
}

/** Power-weighted mean frequency over active frames, Hz. */
export function spectralCentroid(x: Int16Array, fs = 22050): number {
  const n = 1024;
  let num = 0;
  let den = 0;
  for (const s of activeFrames(x, n, 512)) {
    const frame = new Float64Array(n);
    for (let i = 0; i < n; i++) frame[i] = x[s + i] * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n));
    const mag = fftMagnitudes(frame);
    for (let k = 0; k < mag.length; k++) {
      const p = mag[k] * mag[k];
      num += p * ((k * fs) / n);
      den += p;
    }
  }
  return num / den;
}

/** Peak over RMS of the active part, dB: compression lowers it. */
export function crestFactorDb(x: Int16Array): number {
  let peak = 0;
  for (const v of x) peak = Math.max(peak, Math.abs(v));
  let e = 0;
  let n = 0;
  for (const s of activeFrames(x, 220, 220)) {
    for (let i = s; i < s + 220; i++) e += x[i] * x[i];
    n += 220;
  }
  return 20 * Math.log10(peak / Math.sqrt(e / n));
}

export function concatPcm(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
