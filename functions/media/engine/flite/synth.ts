/**
 * One chunk through flite: plan (voices.ts), run (wasi.ts), flite's 16 kHz samples resampled to
 * the engine's 22,050 Hz (the rate every engine of the product hands out, so downstream DSP,
 * encoders and dialogue sequences see one rate), and the alignment from flite's segments.
 */
import { Resampler, floatToInt16, int16ToFloat } from "../../audio/resample.js";
import type { DspParams } from "../espeak/dsp.js";
import { alignFlite, parseSegments, type ChunkAlignment } from "./alignment.js";
import type { FliteJob } from "./protocol.js";
import { planFlite } from "./voices.js";
import { FLITE_SAMPLE_RATE, wavSamples, type FliteRuntime } from "./wasi.js";

export const FLITE_OUTPUT_RATE = 22050;

export interface ChunkOutput {
  /** Before the DSP stage. */
  pcm: Int16Array;
  alignment: ChunkAlignment;
  dsp: DspParams;
}

export function synthesizeChunk(runtime: FliteRuntime, job: FliteJob): ChunkOutput {
  const plan = planFlite(job.text, job.voice, job.settings);
  const run = runtime.run(plan.args);
  if (run.exitCode !== 0 || !run.wav) throw new Error(`flite failed (exit ${run.exitCode}): ${run.stderr.trim().slice(0, 200)}`);
  const { pcm: raw, sampleRate } = wavSamples(run.wav);
  if (sampleRate !== FLITE_SAMPLE_RATE) throw new Error(`flite voice ${plan.voice.name} wrote ${sampleRate} Hz, expected ${FLITE_SAMPLE_RATE}`);
  const r = new Resampler(FLITE_SAMPLE_RATE, FLITE_OUTPUT_RATE);
  const a = r.process(int16ToFloat(raw));
  const b = r.flush();
  const x = new Float32Array(a.length + b.length);
  x.set(a);
  x.set(b, a.length);
  const pcm = floatToInt16(x);
  const alignment = alignFlite(job.text, parseSegments(run.stdout), pcm.length / FLITE_OUTPUT_RATE);
  return { pcm, alignment, dsp: plan.dsp };
}
