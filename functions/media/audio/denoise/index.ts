import { resample } from "../resample.js";
import { loadRnnoise, RNNOISE_FRAME, RNNOISE_RATE } from "./rnnoise.js";

/**
 * Background-noise removal for voice samples and the voice isolator: RNNoise over the audio at
 * 48 kHz, frame by frame, then back to the caller's rate. Deterministic (same samples in, same
 * samples out). CPU work: callers run it in a worker (the voice-analysis pool's "denoise" job).
 *
 * RNNoise's output lags its input by two frames (20 ms: a frame and its analysis window); that delay is removed, so the result lines
 * up with the input sample for sample and has the same length.
 */
export interface DenoiseOptions {
  /** How much of the original is mixed back in, 0..1 (0 = fully denoised). */
  keepOriginal?: number;
}

/** Samples in -1..1 at any rate; the same length and rate come back. */
export async function denoise(samples: Float32Array, sampleRate: number, opts: DenoiseOptions = {}): Promise<Float32Array> {
  if (!samples.length) return new Float32Array(0);
  const rn = await loadRnnoise();
  const at48 = sampleRate === RNNOISE_RATE ? samples : resample(samples, sampleRate, RNNOISE_RATE);
  const frames = Math.ceil(at48.length / RNNOISE_FRAME) + LAG_FRAMES; // more to flush the lag
  const out = new Float32Array(frames * RNNOISE_FRAME);
  const frame = new Float32Array(RNNOISE_FRAME);
  const state = rn.createDenoiseState();
  try {
    for (let f = 0; f < frames; f++) {
      frame.fill(0);
      const start = f * RNNOISE_FRAME;
      // RNNoise expects 16-bit sample values.
      for (let i = 0; i < RNNOISE_FRAME && start + i < at48.length; i++) frame[i] = at48[start + i] * 32768;
      state.processFrame(frame);
      for (let i = 0; i < RNNOISE_FRAME; i++) out[start + i] = frame[i] / 32768;
    }
  } finally {
    state.destroy();
  }
  const aligned = out.subarray(LAG_FRAMES * RNNOISE_FRAME, LAG_FRAMES * RNNOISE_FRAME + at48.length);
  const back = sampleRate === RNNOISE_RATE ? aligned.slice() : resample(aligned, RNNOISE_RATE, sampleRate);
  const result = back.length === samples.length ? back : fit(back, samples.length);
  const keep = Math.min(1, Math.max(0, opts.keepOriginal ?? 0));
  if (keep > 0) for (let i = 0; i < result.length; i++) result[i] = result[i] * (1 - keep) + samples[i] * keep;
  return result;
}

/** Measured: the output best matches the input shifted by two frames. */
const LAG_FRAMES = 2;

function fit(x: Float32Array, n: number): Float32Array {
  const y = new Float32Array(n);
  y.set(x.subarray(0, Math.min(n, x.length)));
  return y;
}
