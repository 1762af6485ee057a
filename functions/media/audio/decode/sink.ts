/**
 * Where decoders put their output: channels averaged to mono as they arrive, optionally resampled
 * on the fly, and counted against the duration bound so a small file that expands into hours of
 * audio is stopped at the bound instead of filling memory.
 */
import { Resampler } from "../resample.js";
import { AudioDecodeError, AudioLimitError } from "./errors.js";

/** Headers can be off by a frame or two (encoder delay, padding): tolerated beyond the bound. */
const SLACK_SECONDS = 0.5;

export class MonoSink {
  private parts: Float32Array[] = [];
  private length = 0;
  private inputFrames = 0;
  private rate = 0;
  private resampler: Resampler | null = null;

  /**
   * `consume`: each piece of mono output is handed over as it is made and not kept (measuring a
   * long file in bounded memory); `finishCount` then gives the length.
   */
  constructor(
    private readonly maxSeconds: number,
    private readonly targetRate?: number,
    private readonly consume?: (mono: Float32Array) => void,
  ) {}

  get sampleRate(): number {
    return this.targetRate ?? this.rate;
  }

  /** Source frames taken so far (at the source rate). */
  get frames(): number {
    return this.inputFrames;
  }

  push(channels: readonly Float32Array[], sampleRate: number, frames = channels[0]?.length ?? 0): void {
    if (frames === 0 || channels.length === 0) return;
    if (!(sampleRate >= 1000 && sampleRate <= 768_000)) throw new AudioDecodeError(`decoder reported a sample rate of ${sampleRate} Hz`);
    if (this.rate === 0) {
      this.rate = sampleRate;
      if (this.targetRate && this.targetRate !== sampleRate) this.resampler = new Resampler(sampleRate, this.targetRate);
    } else if (sampleRate !== this.rate) {
      throw new AudioDecodeError(`sample rate changes mid-stream (${this.rate} -> ${sampleRate})`);
    }
    this.inputFrames += frames;
    const seconds = this.inputFrames / this.rate;
    if (seconds > this.maxSeconds + SLACK_SECONDS) throw new AudioLimitError("duration", this.maxSeconds, seconds);
    const mono = downmix(channels, frames);
    this.store(this.resampler ? this.resampler.process(mono) : mono);
  }

  /** All samples; `sourceFrames` trims to a length the container states (Opus end trimming). */
  finish(sourceFrames?: number): { samples: Float32Array; sampleRate: number } {
    if (this.resampler) this.store(this.resampler.flush());
    if (this.rate === 0 || this.length === 0) throw new AudioDecodeError("no audio decoded");
    const out = new Float32Array(this.length);
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.length;
    }
    this.parts = [];
    let samples = out;
    if (sourceFrames !== undefined && sourceFrames >= 0 && sourceFrames < this.inputFrames) {
      const keep = Math.round((sourceFrames * this.sampleRate) / this.rate);
      samples = out.subarray(0, Math.max(1, Math.min(out.length, keep)));
    }
    return { samples, sampleRate: this.sampleRate };
  }

  /** With `consume`: the output's length in samples (trimmed as `finish` would) and its rate. */
  finishCount(sourceFrames?: number): { length: number; sampleRate: number } {
    if (this.resampler) this.store(this.resampler.flush());
    if (this.rate === 0 || this.length === 0) throw new AudioDecodeError("no audio decoded");
    let length = this.length;
    if (sourceFrames !== undefined && sourceFrames >= 0 && sourceFrames < this.inputFrames) {
      length = Math.max(1, Math.min(length, Math.round((sourceFrames * this.sampleRate) / this.rate)));
    }
    return { length, sampleRate: this.sampleRate };
  }

  private store(x: Float32Array): void {
    if (x.length === 0) return;
    this.length += x.length;
    if (this.consume) this.consume(x);
    else this.parts.push(x);
  }
}

function downmix(channels: readonly Float32Array[], frames: number): Float32Array {
  if (channels.length === 1) return channels[0].length === frames ? channels[0].slice() : channels[0].slice(0, frames);
  const out = new Float32Array(frames);
  const scale = 1 / channels.length;
  for (const c of channels) for (let i = 0; i < frames; i++) out[i] += c[i];
  for (let i = 0; i < frames; i++) out[i] *= scale;
  return out;
}
