/** Messages between the flite engine (main thread) and its workers. */
import type { OutputFormatId } from "../../audio/formats.js";
import type { PhonemeSpan, VoiceProfile, VoiceSettings } from "../port.js";
import type { ChunkAlignment } from "./alignment.js";

export interface WorkerInit {
  module: WebAssembly.Module;
  /** The thread's scheduling priority, when lower than the process's (FliteEngineOptions.nice). */
  nice?: number;
}

/** One chunk of text to speak (a sentence, or a clause of a long one). */
export interface FliteJob {
  text: string;
  voice: VoiceProfile;
  settings: VoiceSettings;
  /** The request's seed and the chunk's index in it: the seeded prosody variation (voices.ts). */
  seed: number;
  index: number;
  /** Spans to speak from phonemes, offsets within `text`. */
  phonemeSpans?: PhonemeSpan[];
}

export type ToWorker =
  /** `segment`: encode the chunk on its own in that format (then the PCM is not sent back). */
  | { kind: "synth"; id: number; job: FliteJob; segment?: OutputFormatId; head?: boolean }
  | { kind: "enc-open"; session: number; format: OutputFormatId; inputRate: number }
  | { kind: "enc-write"; id: number; session: number; pcm: Int16Array; final: boolean }
  | { kind: "enc-close"; session: number };

export type FromWorker =
  | { kind: "ready" }
  | { kind: "synth-done"; id: number; pcm: Int16Array; samples: number; alignment: ChunkAlignment; audio?: Uint8Array; audioSamples?: number; formatSamples?: number }
  | { kind: "synth-head"; id: number; audio: Uint8Array }
  | { kind: "enc-done"; id: number; audio: Uint8Array }
  | { kind: "error"; id: number; message: string };
