/** Messages between the Piper engine (main thread) and its workers. */
import type { OutputFormatId } from "../../audio/formats.js";
import type { PhonemeSpan } from "../port.js";
import type { ChunkAlignment } from "../flite/alignment.js";
import type { EspeakBuild } from "../espeak/wasm.js";

export interface PiperWorkerInit {
  /** eSpeak NG, compiled once on the main thread: each worker's phonemizer instantiates it. */
  espeak: EspeakBuild;
}

/** One chunk of text (a sentence, or a clause of a long one) for one voice. */
export interface PiperJob {
  text: string;
  /** The voice's .onnx file (its .onnx.json beside it). */
  modelPath: string;
  /** Speaker id of a multi-speaker model, else null. */
  sid: number | null;
  /** noise_scale, length_scale, noise_w. */
  scales: [number, number, number];
  /** Output gain in dB (voice_settings.volume), applied before encoding. */
  gainDb?: number;
  phonemeSpans?: PhonemeSpan[];
}

export type ToWorker =
  | { kind: "synth"; id: number; job: PiperJob; segment?: OutputFormatId }
  | { kind: "enc-open"; session: number; format: OutputFormatId; inputRate: number }
  | { kind: "enc-write"; id: number; session: number; pcm: Int16Array; final: boolean }
  | { kind: "enc-close"; session: number };

export type FromWorker =
  | { kind: "ready" }
  | { kind: "synth-done"; id: number; pcm: Int16Array; samples: number; alignment: ChunkAlignment; audio?: Uint8Array; audioSamples?: number; formatSamples?: number; missing: string[] }
  | { kind: "enc-done"; id: number; audio: Uint8Array }
  | { kind: "error"; id: number; message: string };
