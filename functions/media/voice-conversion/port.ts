/**
 * The voice-converter port: speech to speech and voice isolation over uploaded audio. The
 * embedded implementation (./converter.ts) is classical signal processing on worker threads (a
 * WORLD-style vocoder, RNNoise with a Wiener post-filter); a neural converter could implement
 * the same shape.
 *
 * Why each method exists:
 * - `convert(request)`: decoding, analysis, resynthesis and encoding all cost CPU, so all run in
 *   a worker. The handle reports the decoded duration first (credits are charged on it before
 *   any audio is handed out), then encoded chunks as blocks are ready (streaming), then the end.
 * - `isolate(request)`: the same shape for the voice isolator.
 * - `measure(samples)`: a target voice's pitch and timbre, from audio of it (the engine reading
 *   a reference passage); the result is cached by the caller.
 * - `close()`: tests and shutdown end the workers.
 */
import type { OutputFormatId } from "../audio/formats.js";
import type { ConversionSettings, VoiceStats } from "./mapping.js";
import type { JobHandle } from "./pool.js";
import type { InputFormat } from "./protocol.js";

export type { EncodedPart, JobHandle } from "./pool.js";
export type { DecodedInfo, InputFormat } from "./protocol.js";
export type { ConversionSettings, VoiceStats } from "./mapping.js";

export interface AudioInput {
  bytes: Uint8Array;
  fileFormat: InputFormat;
  /** Refused before decoding when larger or (by the headers) longer; and while decoding. */
  maxBytes: number;
  maxSeconds: number;
}

export interface ConvertRequest extends AudioInput {
  target: VoiceStats;
  settings: ConversionSettings;
  seed: number;
  removeBackgroundNoise: boolean;
  format: OutputFormatId;
  /** Seconds of audio in the first chunk (smaller: earlier first byte). */
  firstBlockSeconds?: number;
}

export interface IsolateRequest extends AudioInput {
  format: OutputFormatId;
  firstBlockSeconds?: number;
}

export interface VoiceConverter {
  convert(req: ConvertRequest): JobHandle;
  isolate(req: IsolateRequest): JobHandle;
  measure(samples: Float32Array, sampleRate: number): Promise<VoiceStats>;
  close(): Promise<void>;
}
