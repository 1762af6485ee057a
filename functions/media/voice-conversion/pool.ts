/**
 * Worker threads for speech to speech and the voice isolator, one per core. Jobs wait in one
 * FIFO queue; a free worker takes the next. A job answers in several messages (the decoded
 * input's facts, then encoded chunks as blocks are ready, then done), which the handle turns
 * into promises and an async stream. Cancelling a queued job drops it; cancelling a running
 * one asks the worker to stop at its next block (it checks between blocks). Workers keep the
 * process alive only while there is work, and close() ends them all.
 */
import { availableParallelism } from "node:os";
import { spawnWorker, WorkerPool } from "../workers/pool.js";
import { AudioDecodeError, AudioLimitError } from "../audio/decode/errors.js";
import type { VoiceStats } from "./mapping.js";
import { isFromWorker, type DecodedInfo, type Job, type WorkerError } from "./protocol.js";

export class ConversionCancelledError extends Error {
  constructor() {
    super("conversion cancelled");
    this.name = "AbortError";
  }
}

export interface EncodedPart {
  audio: Uint8Array;
  /** Seconds of the input the audio so far covers. */
  seconds: number;
  /** Samples at the format's rate of the PCM this chunk encodes (a whole MP3's Info frame needs their sum). */
  samples?: number;
}

/** A running (or queued) job: what it decoded, its encoded audio as it comes, and its end. */
export interface JobHandle {
  decoded: Promise<DecodedInfo>;
  /** Encoded chunks in order; read once. Ends when the job is done, throws if it failed. */
  chunks: AsyncIterable<EncodedPart>;
  done: Promise<VoiceStats | undefined>;
  cancel(): void;
}

interface Pending {
  id: number;
  job: Job;
  transfer: ArrayBuffer[];
  onDecoded(info: DecodedInfo): void;
  onChunk(part: EncodedPart): void;
  onDone(result?: VoiceStats): void;
  onFailed(e: Error): void;
  cancelled: boolean;
}

function rebuild(e: WorkerError): Error {
  if (e.name === "AudioDecodeError") return new AudioDecodeError(e.reason);
  if (e.name === "AudioLimitError") return new AudioLimitError(e.limit, e.max, e.actual);
  if (e.message === "cancelled") return new ConversionCancelledError();
  return new Error(`voice conversion worker: ${e.message}`);
}

/** An async queue of chunks with one reader. */
class ChunkQueue implements AsyncIterable<EncodedPart> {
  private items: EncodedPart[] = [];
  private ended = false;
  private error: Error | null = null;
  private wake: (() => void) | null = null;

  push(c: EncodedPart) {
    this.items.push(c);
    this.wake?.();
  }
  end(error: Error | null = null) {
    this.ended = true;
    this.error = error;
    this.wake?.();
  }
  async *[Symbol.asyncIterator](): AsyncIterator<EncodedPart> {
    for (;;) {
      if (this.items.length) {
        yield this.items.shift()!;
        continue;
      }
      if (this.ended) {
        if (this.error) throw this.error;
        return;
      }
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
  }
}

/** Speech to speech's jobs on the shared WorkerPool (functions/media/workers/pool.ts): several answers each. */
export class ConversionPool {
  readonly size: number;
  private readonly pool: WorkerPool<Pending>;
  private nextId = 1;

  constructor(opts: { size?: number } = {}) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
    this.pool = new WorkerPool<Pending>({
      size: this.size,
      name: "voice conversion",
      closedMessage: "voice converter closed",
      start: () => spawnWorker({ ts: new URL("./conversion-worker.ts", import.meta.url), js: new URL("./conversion-worker.js", import.meta.url) }, import.meta.url),
      onMessage: (p, m) => {
        if (!isFromWorker(m)) return false;
        if (m.kind === "decoded") p.onDecoded(m.info);
        else if (m.kind === "chunk") p.onChunk({ audio: m.audio, seconds: m.seconds, samples: m.samples });
        else {
          if (m.kind === "done") p.onDone(m.result);
          else p.onFailed(rebuild(m.error));
          return true;
        }
        return false;
      },
      fail: (p, e) => p.onFailed(e),
    });
  }

  start(job: Job, transfer: ArrayBuffer[] = []): JobHandle {
    const queue = new ChunkQueue();
    let resolveDecoded!: (i: DecodedInfo) => void;
    let rejectDecoded!: (e: Error) => void;
    let resolveDone!: (r?: VoiceStats) => void;
    let rejectDone!: (e: Error) => void;
    const decoded = new Promise<DecodedInfo>((res, rej) => ((resolveDecoded = res), (rejectDecoded = rej)));
    const done = new Promise<VoiceStats | undefined>((res, rej) => ((resolveDone = res), (rejectDone = rej)));
    // Callers may never look at one of these: do not let an unobserved rejection crash the process.
    decoded.catch(() => undefined);
    done.catch(() => undefined);
    const p: Pending = {
      id: this.nextId++,
      job,
      transfer,
      cancelled: false,
      onDecoded: resolveDecoded,
      onChunk: (a) => queue.push(a),
      onDone: (r) => {
        rejectDecoded(new Error("the job ended without decoding"));
        queue.end();
        resolveDone(r);
      },
      onFailed: (e) => {
        rejectDecoded(e);
        queue.end(e);
        rejectDone(e);
      },
    };
    if (this.pool.isClosed) p.onFailed(new Error("voice converter closed"));
    else this.pool.submit(p);
    return { decoded, chunks: queue, done, cancel: () => this.cancel(p) };
  }

  /** A queued job is dropped; a running one is asked to stop at its next block (the worker checks between blocks). */
  private cancel(p: Pending): void {
    if (p.cancelled) return;
    p.cancelled = true;
    if (this.pool.dequeue(p)) {
      p.onFailed(new ConversionCancelledError());
      return;
    }
    this.pool.workerOf(p)?.postMessage({ id: p.id, cancel: true });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
