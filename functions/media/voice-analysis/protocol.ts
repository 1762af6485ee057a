/** Messages between the analyzer (request loop) and its workers. */
import type { AudioProbe, DecodedAudioFile, MeasuredAudio } from "../audio/decode/index.js";
import type { PiecedAudio } from "../audio/pieces.js";
import type { AnalysisBudget, DecodedUpload, FileAnalysis, JoinedAudio, SpeechSegment, VoiceAnalysis } from "./port.js";

export interface Limits {
  maxBytes?: number;
  maxSeconds?: number;
}

export type Job =
  | { kind: "analyze"; bytes: Uint8Array; limits: Limits }
  | { kind: "probe"; bytes: Uint8Array }
  | { kind: "decode"; bytes: Uint8Array; limits: Limits; sampleRate?: number }
  | { kind: "decode-upload"; bytes: Uint8Array; limits: Limits; sampleRate?: number }
  | { kind: "measure"; bytes: Uint8Array; limits: Limits; sampleRate?: number; points: number }
  | { kind: "analyze-samples"; samples: Float32Array | Int16Array; sampleRate: number; budget?: AnalysisBudget }
  | { kind: "detect"; samples: Float32Array; sampleRate: number }
  | { kind: "embed"; samples: Float32Array; sampleRate: number; segments: SpeechSegment[] }
  | { kind: "denoise"; samples: Float32Array; sampleRate: number; keepOriginal: number }
  | { kind: "sentence-costs"; recording: Float32Array | Int16Array; recordingRate: number; candidates: (Float32Array | Int16Array)[]; candidateRate: number }
  | { kind: "wav"; bytes: Uint8Array; limits: Limits }
  | { kind: "join"; sources: PiecedAudio[]; sampleRate: number; wav: boolean[]; analyse: { capSeconds: number; gapSeconds: number } | null };

export interface JobResults {
  analyze: FileAnalysis;
  probe: AudioProbe;
  decode: DecodedAudioFile;
  "decode-upload": DecodedUpload;
  measure: MeasuredAudio;
  "analyze-samples": VoiceAnalysis;
  detect: SpeechSegment[];
  embed: number[][];
  denoise: Float32Array;
  "sentence-costs": number[];
  wav: Uint8Array;
  join: JoinedAudio;
}

export type ToWorker = { id: number; job: Job };

/** Errors cross the thread as data and are rebuilt as the same classes on the other side. */
export type WorkerError =
  | { name: "AudioDecodeError"; reason: string }
  | { name: "AudioLimitError"; limit: "bytes" | "duration"; max: number; actual: number }
  | { name: "Error"; message: string };

export type FromWorker = { kind: "ready" } | { kind: "done"; id: number; result: unknown } | { kind: "failed"; id: number; error: WorkerError };

const KINDS = new Set(["ready", "done", "failed"]);

/** Worker messages are structured clones from our own code; this guards the discriminant. */
export function isFromWorker(m: unknown): m is FromWorker {
  return typeof m === "object" && m !== null && KINDS.has((m as { kind?: unknown }).kind as string);
}
