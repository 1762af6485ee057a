/**
 * Post-processing for what eSpeak has no knob for: a spectral tilt (timbre), a presence EQ with
 * compression (speaker boost) and loudness normalisation. Pure float math in a fixed order:
 * deterministic, and each chunk is processed on its own (chunks start and end in silence).
 */
export interface DspParams {
  /** High-shelf gain above ~2 kHz, dB (negative = darker). */
  tiltDb: number;
  /** High-pass, presence peak and compression. */
  speakerBoost: boolean;
  /** Level of the active (non-silent) part, dBFS RMS. */
  targetRmsDb: number;
}

interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

function normalised(b0: number, b1: number, b2: number, a0: number, a1: number, a2: number): Biquad {
  return { b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0 };
}

// Coefficients from the well-known RBJ audio EQ formulas.
function highShelf(fs: number, f0: number, gainDb: number): Biquad {
  const A = 10 ** (gainDb / 40);
  const w = (2 * Math.PI * f0) / fs;
  const cos = Math.cos(w);
  const alpha = (Math.sin(w) / 2) * Math.SQRT2; // shelf slope S = 1
  const sq = 2 * Math.sqrt(A) * alpha;
  return normalised(
    A * (A + 1 + (A - 1) * cos + sq),
    -2 * A * (A - 1 + (A + 1) * cos),
    A * (A + 1 + (A - 1) * cos - sq),
    A + 1 - (A - 1) * cos + sq,
    2 * (A - 1 - (A + 1) * cos),
    A + 1 - (A - 1) * cos - sq,
  );
}

function peaking(fs: number, f0: number, gainDb: number, q: number): Biquad {
  const A = 10 ** (gainDb / 40);
  const w = (2 * Math.PI * f0) / fs;
  const alpha = Math.sin(w) / (2 * q);
  const cos = Math.cos(w);
  return normalised(1 + alpha * A, -2 * cos, 1 - alpha * A, 1 + alpha / A, -2 * cos, 1 - alpha / A);
}

function highPass(fs: number, f0: number, q: number): Biquad {
  const w = (2 * Math.PI * f0) / fs;
  const alpha = Math.sin(w) / (2 * q);
  const cos = Math.cos(w);
  return normalised((1 + cos) / 2, -(1 + cos), (1 + cos) / 2, 1 + alpha, -2 * cos, 1 - alpha);
}

function filter(x: Float64Array, f: Biquad): void {
  let x1 = 0, x2 = 0, y1 = 0, y2 = 0;
  for (let i = 0; i < x.length; i++) {
    const x0 = x[i];
    const y0 = f.b0 * x0 + f.b1 * x1 + f.b2 * x2 - f.a1 * y1 - f.a2 * y2;
    x2 = x1;
    x1 = x0;
    y2 = y1;
    y1 = y0;
    x[i] = y0;
  }
}

/** Feed-forward compressor on a peak envelope: 3:1 above -24 dBFS, 5 ms attack, 60 ms release. */
function compress(x: Float64Array, fs: number): void {
  const threshold = 10 ** (-24 / 20);
  const attack = Math.exp(-1 / (0.005 * fs));
  const release = Math.exp(-1 / (0.06 * fs));
  let env = 0;
  for (let i = 0; i < x.length; i++) {
    const level = Math.abs(x[i]);
    env = level > env ? attack * env + (1 - attack) * level : release * env + (1 - release) * level;
    // Output level threshold * (env / threshold)^(1/3): cube root is the 3:1 ratio.
    if (env > threshold) x[i] *= (threshold * Math.cbrt(env / threshold)) / env;
  }
}

/** RMS of the frames within 35 dB of the loudest one: speech level, ignoring pauses. */
export function activeRms(x: ArrayLike<number>, fs: number): number {
  const frame = Math.max(1, Math.round(fs * 0.01));
  const powers: number[] = [];
  for (let i = 0; i + frame <= x.length; i += frame) {
    let s = 0;
    for (let j = i; j < i + frame; j++) s += x[j] * x[j];
    powers.push(s / frame);
  }
  const peak = Math.max(0, ...powers);
  const gate = Math.max(peak * 10 ** (-35 / 10), 1e-9);
  let sum = 0, n = 0;
  for (const p of powers) {
    if (p >= gate) {
      sum += p;
      n++;
    }
  }
  return n ? Math.sqrt(sum / n) : 0;
}

export function processVoice(pcm: Int16Array, p: DspParams, fs: number): Int16Array {
  const x = new Float64Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) x[i] = pcm[i] / 32768;
  if (Math.abs(p.tiltDb) >= 0.05) filter(x, highShelf(fs, 2000, p.tiltDb));
  if (p.speakerBoost) {
    filter(x, highPass(fs, 70, Math.SQRT1_2));
    filter(x, peaking(fs, 3000, 4, 1));
    compress(x, fs);
  }
  const level = activeRms(x, fs);
  let peak = 0;
  for (let i = 0; i < x.length; i++) peak = Math.max(peak, Math.abs(x[i]));
  // Normalise speech to the target level, but never push a peak past -0.5 dBFS.
  const gain = level > 0 ? Math.min(10 ** (p.targetRmsDb / 20) / level, 0.944 / Math.max(peak, 1e-9)) : 1;
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = Math.round(x[i] * gain * 32768);
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}
