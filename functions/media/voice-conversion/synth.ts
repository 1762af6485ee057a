/**
 * The vocoder's synthesis, WORLD-style: the harmonic part is one minimum-phase impulse response
 * per glottal pulse, placed at the mapped F0 with sub-sample precision and scaled by the pulse
 * period (so its power spectral density is the envelope's); the noise part is white noise
 * shaped frame by frame (every 5 ms) by the envelope's aperiodic share. Responses are computed
 * once per frame from the cepstrum and interpolated between frames for each pulse.
 *
 * Causal: once every pulse and noise segment that starts before sample s is placed, the output
 * before s is final. That is what lets the conversion stream block by block.
 */
import { prng } from "../engine/prng.js";
import { RealFFT } from "./fft.js";
import { BINS, FFT_SIZE, apPerBin } from "./spectral.js";
import { FRAME_SECONDS } from "./f0.js";

/** One analysed (and mapped) frame: what the synthesiser reads. */
export interface SynthFrame {
  f0: number;
  /** Natural-log envelope power per bin. */
  logEnv: Float32Array;
  /** Aperiodicity per band. */
  ap: Float32Array;
}

export interface FrameSource {
  /** Frames known so far (the synthesiser never reads past them). */
  readonly length: number;
  at(i: number): SynthFrame;
}

interface Responses {
  /** Harmonic part's frequency response (null for unvoiced frames). */
  pr: Float64Array | null;
  pi: Float64Array | null;
  /** Noise part's frequency response. */
  nr: Float64Array;
  ni: Float64Array;
}

/**
 * Minimum-phase frequency responses (FFT_SIZE points) from a log amplitude, through the real
 * cepstrum: the vocoder's pulse and noise responses, and the residual synthesis's output filter
 * (residual.ts, `outputFilter: "minphase"`).
 */
export class MinimumPhase {
  private readonly fft = new RealFFT(FFT_SIZE);
  private readonly time = new Float64Array(FFT_SIZE);
  private readonly zeros = new Float64Array(BINS);

  /** Minimum-phase response for log amplitude `logAmp` (BINS values), into (re, im) (BINS values each). */
  response(logAmp: ArrayLike<number>, re: Float64Array, im: Float64Array): void {
    const { fft, time, zeros } = this;
    fft.inverse(logAmp, zeros, time);
    const half = FFT_SIZE / 2;
    for (let n = 1; n < half; n++) time[n] *= 2;
    for (let n = half + 1; n < FFT_SIZE; n++) time[n] = 0;
    fft.forward(time, re, im);
    for (let k = 0; k < BINS; k++) {
      const mag = Math.exp(re[k]);
      const ph = im[k];
      re[k] = mag * Math.cos(ph);
      im[k] = mag * Math.sin(ph);
    }
  }
}

export class PulseSynth {
  private readonly fft = new RealFFT(FFT_SIZE);
  private readonly time = new Float64Array(FFT_SIZE);
  private readonly specRe = new Float64Array(BINS);
  private readonly specIm = new Float64Array(BINS);
  private readonly minPhase = new MinimumPhase();
  private readonly apBins = new Float64Array(BINS);
  private readonly noise = new Float64Array(FFT_SIZE);
  private readonly rand: () => number;
  private spare: number | null = null;
  private readonly responses = new Map<number, Responses>();
  /** Output accumulator: out[i] is absolute sample `start + i`. */
  private out = new Float64Array(1 << 15);
  private start = 0;
  private nextPulse = 0;
  private nextNoiseFrame = 0;
  private readonly hop: number;

  constructor(
    private readonly frames: FrameSource,
    private readonly fs: number,
    seed: number,
  ) {
    this.rand = prng(seed);
    this.hop = FRAME_SECONDS * fs;
  }

  private gauss(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    let u = 0;
    while (u <= 1e-12) u = this.rand();
    const v = this.rand();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** F0 at sample position p: interpolated between voiced frames, 0 when unvoiced. */
  private f0At(p: number): number {
    const pos = p / this.hop;
    const last = this.frames.length - 1;
    const i = Math.min(last, Math.floor(pos));
    const j = Math.min(last, i + 1);
    const a = this.frames.at(i).f0;
    const b = this.frames.at(j).f0;
    const frac = Math.min(1, pos - i);
    if (a > 0 && b > 0) return a * (1 - frac) + b * frac;
    const nearest = frac < 0.5 ? a : b;
    return nearest > 0 ? nearest : 0;
  }

  /**
   * Places every event that starts before sample `until` and returns the output from the end
   * of the previous call up to `until`. Frames must be known up to `until / hop + 1`.
   */
  render(until: number): Float32Array {
    const lastFrame = this.frames.length - 1;
    for (;;) {
      const noiseAt = Math.round(this.nextNoiseFrame * this.hop);
      const pulseFirst = this.nextPulse <= noiseAt;
      const at = pulseFirst ? this.nextPulse : noiseAt;
      if (at >= until) break;
      if (pulseFirst) {
        // Pulses advance through voiced stretches; unvoiced stretches are skipped a frame at a time.
        const f0 = this.f0At(this.nextPulse);
        if (f0 > 0) {
          const period = this.fs / f0;
          this.pulse(this.nextPulse, period);
          this.nextPulse += period;
        } else {
          this.nextPulse = (Math.floor(this.nextPulse / this.hop) + 1) * this.hop;
        }
      } else {
        if (this.nextNoiseFrame > lastFrame) break;
        this.noiseSegment(this.nextNoiseFrame);
        this.nextNoiseFrame++;
      }
    }
    const n = Math.max(0, until - this.start);
    this.ensure(n + FFT_SIZE);
    const result = new Float32Array(n);
    for (let i = 0; i < n; i++) result[i] = this.out[i];
    this.out.copyWithin(0, n);
    this.out.fill(0, this.out.length - n);
    this.start = until;
    // Responses of frames the cursor has passed are no longer needed.
    const keepFrom = Math.floor(Math.min(this.nextPulse, this.nextNoiseFrame * this.hop) / this.hop) - 1;
    for (const key of this.responses.keys()) if (key < keepFrom) this.responses.delete(key);
    return result;
  }

  private ensure(n: number): void {
    if (n <= this.out.length) return;
    const next = new Float64Array(Math.max(this.out.length * 2, n));
    next.set(this.out);
    this.out = next;
  }

  private responsesOf(i: number): Responses {
    const cached = this.responses.get(i);
    if (cached) return cached;
    const frame = this.frames.at(Math.min(this.frames.length - 1, i));
    const voiced = frame.f0 > 0;
    const ap = this.apBins;
    if (voiced) apPerBin(frame.ap, ap, this.fs);
    const logAmp = new Float64Array(BINS);
    const r: Responses = { pr: null, pi: null, nr: new Float64Array(BINS), ni: new Float64Array(BINS) };
    if (voiced) {
      for (let k = 0; k < BINS; k++) logAmp[k] = 0.5 * (frame.logEnv[k] + Math.log(1 - Math.min(0.999999, ap[k])));
      r.pr = new Float64Array(BINS);
      r.pi = new Float64Array(BINS);
      this.minPhase.response(logAmp, r.pr, r.pi);
    }
    for (let k = 0; k < BINS; k++) logAmp[k] = 0.5 * (frame.logEnv[k] + (voiced ? Math.log(Math.max(1e-6, ap[k])) : 0));
    this.minPhase.response(logAmp, r.nr, r.ni);
    this.responses.set(i, r);
    return r;
  }

  private pulse(pos: number, period: number): void {
    const { specRe, specIm, time } = this;
    const t = pos / this.hop;
    const i = Math.floor(t);
    const frac = Math.min(1, t - i);
    const a = this.responsesOf(i);
    const b = this.responsesOf(i + 1);
    const offset = pos - Math.floor(pos);
    const gain = Math.sqrt(period);
    for (let k = 0; k < BINS; k++) {
      let hr = 0;
      let hi = 0;
      let w = 0;
      if (a.pr && a.pi) {
        hr += (1 - frac) * a.pr[k];
        hi += (1 - frac) * a.pi[k];
        w += 1 - frac;
      }
      if (b.pr && b.pi) {
        hr += frac * b.pr[k];
        hi += frac * b.pi[k];
        w += frac;
      }
      if (w > 0 && w < 1) {
        hr /= w;
        hi /= w;
      }
      // Delay by the fractional part of the position.
      const ph = (-2 * Math.PI * k * offset) / FFT_SIZE;
      const c = Math.cos(ph);
      const s = Math.sin(ph);
      specRe[k] = gain * (hr * c - hi * s);
      specIm[k] = gain * (hr * s + hi * c);
    }
    specIm[0] = 0;
    specIm[BINS - 1] = 0;
    this.fft.inverse(specRe, specIm, time);
    this.add(Math.floor(pos), time);
  }

  private noiseSegment(i: number): void {
    const { specRe, specIm, time, noise } = this;
    const from = Math.round(i * this.hop);
    const to = Math.round((i + 1) * this.hop);
    noise.fill(0);
    for (let n = 0; n < to - from; n++) noise[n] = this.gauss();
    const r = this.responsesOf(i);
    this.fft.forward(noise, specRe, specIm);
    for (let k = 0; k < BINS; k++) {
      const xr = specRe[k];
      const xi = specIm[k];
      specRe[k] = xr * r.nr[k] - xi * r.ni[k];
      specIm[k] = xr * r.ni[k] + xi * r.nr[k];
    }
    this.fft.inverse(specRe, specIm, time);
    this.add(from, time);
  }

  private add(at: number, x: Float64Array): void {
    const o = at - this.start;
    this.ensure(o + FFT_SIZE);
    const out = this.out;
    for (let n = 0; n < FFT_SIZE; n++) out[o + n] += x[n];
  }
}
