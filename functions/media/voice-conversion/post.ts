/**
 * After synthesis, block by block with state carried across blocks: the level gain of the plan,
 * then (use_speaker_boost) the engine's speaker boost — a 70 Hz high-pass, a +4 dB presence
 * peak at 3 kHz and a 3:1 compressor above -24 dBFS with make-up gain — and last a soft limiter
 * that keeps peaks under full scale without clicks.
 */
interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
  x1: number;
  x2: number;
  y1: number;
  y2: number;
}

function biquad(b0: number, b1: number, b2: number, a0: number, a1: number, a2: number): Biquad {
  return { b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0, x1: 0, x2: 0, y1: 0, y2: 0 };
}

// RBJ audio-EQ cookbook designs.
function highPass(fs: number, f0: number, q: number): Biquad {
  const w = (2 * Math.PI * f0) / fs;
  const alpha = Math.sin(w) / (2 * q);
  const cos = Math.cos(w);
  return biquad((1 + cos) / 2, -(1 + cos), (1 + cos) / 2, 1 + alpha, -2 * cos, 1 - alpha);
}

function peaking(fs: number, f0: number, gainDb: number, q: number): Biquad {
  const A = 10 ** (gainDb / 40);
  const w = (2 * Math.PI * f0) / fs;
  const alpha = Math.sin(w) / (2 * q);
  const cos = Math.cos(w);
  return biquad(1 + alpha * A, -2 * cos, 1 - alpha * A, 1 + alpha / A, -2 * cos, 1 - alpha / A);
}

function run(f: Biquad, x: Float64Array): void {
  let { x1, x2, y1, y2 } = f;
  for (let i = 0; i < x.length; i++) {
    const x0 = x[i];
    const y0 = f.b0 * x0 + f.b1 * x1 + f.b2 * x2 - f.a1 * y1 - f.a2 * y2;
    x2 = x1;
    x1 = x0;
    y2 = y1;
    y1 = y0;
    x[i] = y0;
  }
  Object.assign(f, { x1, x2, y1, y2 });
}

/** Compression lowers the speech level by about this much; the make-up gain puts it back. */
const MAKEUP_DB = 3.5;
const LIMIT_KNEE = 0.85;

export class PostChain {
  private readonly filters: Biquad[];
  private env = 0;
  private readonly attack: number;
  private readonly release: number;
  private readonly threshold = 10 ** (-24 / 20);
  private readonly makeup: number;

  constructor(
    private readonly fs: number,
    private readonly gain: number,
    private readonly speakerBoost: boolean,
  ) {
    this.filters = speakerBoost ? [highPass(fs, 70, Math.SQRT1_2), peaking(fs, 3000, 4, 1)] : [];
    this.attack = Math.exp(-1 / (0.005 * fs));
    this.release = Math.exp(-1 / (0.06 * fs));
    this.makeup = speakerBoost ? 10 ** (MAKEUP_DB / 20) : 1;
  }

  process(block: Float32Array): Float32Array {
    const x = new Float64Array(block.length);
    for (let i = 0; i < x.length; i++) x[i] = block[i] * this.gain;
    for (const f of this.filters) run(f, x);
    if (this.speakerBoost) {
      const { attack, release, threshold, makeup } = this;
      let env = this.env;
      for (let i = 0; i < x.length; i++) {
        const level = Math.abs(x[i]);
        env = level > env ? attack * env + (1 - attack) * level : release * env + (1 - release) * level;
        const g = env > threshold ? (threshold * Math.cbrt(env / threshold)) / env : 1;
        x[i] *= g * makeup;
      }
      this.env = env;
    }
    const out = new Float32Array(x.length);
    for (let i = 0; i < x.length; i++) out[i] = softLimit(x[i]);
    return out;
  }
}

/** Identity below the knee, then a tanh curve that approaches (never reaches) full scale. */
export function softLimit(v: number): number {
  const a = Math.abs(v);
  if (a <= LIMIT_KNEE) return v;
  const room = 0.999 - LIMIT_KNEE;
  const y = LIMIT_KNEE + room * Math.tanh((a - LIMIT_KNEE) / room);
  return v < 0 ? -y : y;
}
