/**
 * Worker threads for speech to speech and the voice isolator, one per core. Jobs wait in one
 * FIFO queue; a free worker takes the next. A job answers in several messages (the decoded
 * input's facts, then encoded chunks as blocks are ready, then done), which the handle turns
 * into promises and an async stream. Cancelling a queued job drops it; cancelling a running
 * one asks the worker to stop at its next block (it checks between blocks). Workers keep the
 * process alive only while there is work, and close() ends them all.
 */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { spawnWorker } from "../adapters/worker-threads.js";
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

interface Slot {
  worker: Worker;
  ready: boolean;
  busy: Pending | null;
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

export class ConversionPool {
  readonly size: number;
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  private failedStarts = 0;

  constructor(opts: { size?: number } = {}) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
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
    if (this.closed) {
      p.onFailed(new Error("voice converter closed"));
    } else {
      while (this.slots.length < this.size) this.slots.push(this.spawn());
      this.queue.push(p);
      this.pump();
    }
    return { decoded, chunks: queue, done, cancel: () => this.cancel(p) };
  }

  private cancel(p: Pending): void {
    if (p.cancelled) return;
    p.cancelled = true;
    const i = this.queue.indexOf(p);
    if (i >= 0) {
      this.queue.splice(i, 1);
      p.onFailed(new ConversionCancelledError());
      return;
    }
    const slot = this.slots.find((s) => s.busy === p);
    if (slot) slot.worker.postMessage({ id: p.id, cancel: true });
  }

  async close(): Promise<void> {
    this.closed = true;
    const err = new Error("voice converter closed");
    for (const p of this.queue.splice(0)) p.onFailed(err);
    const slots = this.slots;
    this.slots = [];
    await Promise.all(
      slots.map(async (s) => {
        s.busy?.onFailed(err);
        s.busy = null;
        await s.worker.terminate();
      }),
    );
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.busy) continue;
      const p = this.queue.shift();
      if (!p) break;
      slot.busy = p;
      slot.worker.postMessage({ id: p.id, job: p.job }, p.transfer);
    }
    const working = this.queue.length > 0 || this.slots.some((s) => s.busy || !s.ready);
    for (const s of this.slots) {
      if (working) s.worker.ref();
      else s.worker.unref();
    }
  }

  private replace(slot: Slot): void {
    this.slots = this.slots.filter((s) => s !== slot);
    void slot.worker.terminate();
    if (!this.closed && this.failedStarts < 3) this.slots.push(this.spawn());
    if (this.slots.length === 0) for (const p of this.queue.splice(0)) p.onFailed(new Error("voice conversion workers failed to start"));
    this.pump();
  }

  private spawn(): Slot {
    const worker = spawnWorker({ ts: new URL("./conversion-worker.ts", import.meta.url), js: new URL("./conversion-worker.js", import.meta.url) }, import.meta.url);
    const slot: Slot = { worker, ready: false, busy: null };
    worker.on("message", (m: unknown) => {
      if (!isFromWorker(m)) return;
      if (m.kind === "ready") {
        slot.ready = true;
        this.failedStarts = 0;
        this.pump();
        return;
      }
      const p = slot.busy;
      if (!p || p.id !== m.id) return;
      if (m.kind === "decoded") p.onDecoded(m.info);
      else if (m.kind === "chunk") p.onChunk({ audio: m.audio, seconds: m.seconds });
      else {
        slot.busy = null;
        if (m.kind === "done") p.onDone(m.result);
        else p.onFailed(rebuild(m.error));
        this.pump();
      }
    });
    const fail = (e: Error) => {
      if (!this.slots.includes(slot)) return;
      if (!slot.ready) this.failedStarts++;
      const p = slot.busy;
      slot.busy = null;
      p?.onFailed(e);
      this.replace(slot);
    };
    worker.on("error", (e) => fail(e instanceof Error ? e : new Error(String(e))));
    worker.on("exit", (code) => fail(new Error(`voice conversion worker exited (${code})`)));
    return slot;
  }
}
