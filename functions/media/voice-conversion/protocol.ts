/** Messages between the voice converter (request loop) and its workers. */
import type { AudioCodec, AudioContainer } from "../audio/decode/types.js";
import type { OutputFormatId } from "../audio/formats.js";
import type { ConversionSettings, VoiceStats } from "./mapping.js";

/** How the uploaded bytes are to be read: a container we sniff, or raw 16-bit 16 kHz mono PCM. */
export type InputFormat = "other" | "pcm_s16le_16";

export interface InputSpec {
  bytes: Uint8Array;
  fileFormat: InputFormat;
  maxBytes: number;
  maxSeconds: number;
}

export type Job =
  | {
      kind: "convert";
      input: InputSpec;
      target: VoiceStats;
      settings: ConversionSettings;
      seed: number;
      removeBackgroundNoise: boolean;
      format: OutputFormatId;
      firstBlockSeconds: number;
    }
  | { kind: "isolate"; input: InputSpec; format: OutputFormatId; firstBlockSeconds: number }
  | { kind: "measure"; samples: Float32Array; sampleRate: number };

export interface DecodedInfo {
  durationSecs: number;
  sampleRate: number;
  channels: number;
  container: AudioContainer | "pcm";
  codec: AudioCodec;
}

export type ToWorker = { id: number; job: Job } | { id: number; cancel: true };

export type WorkerError =
  | { name: "AudioDecodeError"; reason: string }
  | { name: "AudioLimitError"; limit: "bytes" | "duration"; max: number; actual: number }
  | { name: "Error"; message: string };

export type FromWorker =
  | { kind: "ready" }
  | { kind: "decoded"; id: number; info: DecodedInfo }
  /** `seconds`: how much of the input the audio so far covers; `samples`: at the format's rate, of the PCM this chunk encodes. */
  | { kind: "chunk"; id: number; audio: Uint8Array; seconds: number; samples?: number }
  | { kind: "done"; id: number; result?: VoiceStats }
  | { kind: "failed"; id: number; error: WorkerError };

const KINDS = new Set(["ready", "decoded", "chunk", "done", "failed"]);

export function isFromWorker(m: unknown): m is FromWorker {
  return typeof m === "object" && m !== null && KINDS.has((m as { kind?: unknown }).kind as string);
}
