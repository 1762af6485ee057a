/** The rate the voice analysis works at: speech lives below 8 kHz, and 16 kHz keeps the work small. */
import { resample } from "../resample.js";

export const ANALYSIS_SAMPLE_RATE = 16000;

/** Mono samples at 16 kHz (the polyphase Resampler of ../resample.ts; a copy when already there). */
export function toAnalysisRate(samples: Float32Array, sampleRate: number): Float32Array {
  return sampleRate === ANALYSIS_SAMPLE_RATE ? samples.slice() : resample(samples, sampleRate, ANALYSIS_SAMPLE_RATE);
}
