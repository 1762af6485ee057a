/** Messages between the engine (main thread) and its eSpeak workers. */
import type { OutputFormatId } from "../../audio/formats.js";
import type { ChunkAlignment } from "./alignment.js";
import type { ChunkJob } from "./plan.js";
import type { EspeakBuild } from "./wasm.js";

export interface WorkerInit {
  build: EspeakBuild;
  /** Restore all of eSpeak's memory before every line (PoolOptions.fullReset). */
  fullReset: boolean;
  /** Jobs arrive here; the worker reads it synchronously while eSpeak waits for input. */
  port: import("node:worker_threads").MessagePort;
  /** Int32 counter bumped (and notified) after every message, so the worker can sleep on it. */
  wake: SharedArrayBuffer;
  /** The thread's scheduling priority, when lower than the process's (PoolOptions.nice). */
  nice?: number;
}

export type ToWorker =
  /**
   * `encode`: feed the result to an encoder session on this worker straight away, or encode it
   * on its own as one segment of a stream (then the PCM is not sent back).
   */
  | { kind: "synth"; id: number; job: ChunkJob; encode?: { session: number; final: boolean } | { segment: OutputFormatId; head?: boolean } }
  | { kind: "enc-open"; session: number; format: OutputFormatId; inputRate: number }
  | { kind: "enc-write"; id: number; session: number; pcm: Int16Array; final: boolean }
  | { kind: "enc-close"; session: number }
  | { kind: "exit" };

export type FromWorker =
  | { kind: "ready" }
  /**
   * `samples`: the chunk's length at the engine's rate; for a segment, `audioSamples`: what its
   * audio decodes to at the format's rate, `formatSamples`: its PCM's length at that rate.
   */
  | { kind: "synth-done"; id: number; pcm: Int16Array; samples: number; alignment: ChunkAlignment; audio?: Uint8Array; audioSamples?: number; formatSamples?: number }
  | { kind: "enc-done"; id: number; audio: Uint8Array }
  /** A segment's first bytes, sent before its synth-done when the job asked for its head (`encode.head`). */
  | { kind: "synth-head"; id: number; audio: Uint8Array }
  | { kind: "error"; id: number; message: string };

const FROM_WORKER_KINDS = new Set(["ready", "synth-done", "synth-head", "enc-done", "error"]);

/** Worker messages are structured clones from our own code; this guards the discriminant. */
export function isFromWorker(m: unknown): m is FromWorker {
  return typeof m === "object" && m !== null && FROM_WORKER_KINDS.has((m as { kind?: unknown }).kind as string);
}
