/**
 * A pool of eSpeak workers, one per core, on the shared WorkerPool (functions/media/workers/pool.ts).
 * Jobs wait in its priority queue (lower first: chunk 0 of any request goes before chunk 5 of
 * another) and a worker takes the next job when it is free. Encoder sessions are pinned to one
 * worker because a codec keeps state between chunks. The transport is the engine's own: a worker
 * blocks inside eSpeak's main() and reads its MessageChannel synchronously, woken through an
 * Atomics counter bumped after every message.
 */
import { availableParallelism } from "node:os";
import { MessageChannel, type Worker } from "node:worker_threads";
import { spawnWorker, WorkerPool, type PoolWorker, type StartedWorker } from "../../workers/pool.js";
import type { OutputFormatId } from "../../audio/formats.js";
import { SynthesisAbortedError } from "../port.js";
import type { ChunkAlignment } from "./alignment.js";
import type { ChunkJob } from "./plan.js";
import { isFromWorker, type FromWorker, type ToWorker, type WorkerInit } from "./protocol.js";
import { compileEspeak, type EspeakBuild } from "./wasm.js";

export interface SynthResult {
  /** Empty when the chunk was encoded as a segment. */
  pcm: Int16Array;
  /** The chunk's length in samples at the engine's rate. */
  samples: number;
  alignment: ChunkAlignment;
  /** Encoded bytes when the job was given an encoder session or a segment format. */
  audio?: Uint8Array;
  /** For a segment: samples at the format's rate that `audio` decodes to. */
  audioSamples?: number;
  /** For a segment: samples of its PCM at the format's rate (what the PCM output has). */
  formatSamples?: number;
}

type Reply = Extract<FromWorker, { kind: "synth-done" | "enc-done" }>;

interface Job {
  id: number;
  job: Extract<ToWorker, { id: number }>;
  transfer: readonly [];
  priority: number;
  resolve(r: Reply): void;
  reject(e: Error): void;
  /** A segment's first bytes, before the result (synth jobs that asked for the head). */
  onHead?: (audio: Uint8Array) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export interface PoolOptions {
  /** Number of workers; defaults to the available cores. */
  size?: number;
  /**
   * Restore all of eSpeak's memory before every line instead of the heap in use (runtime.ts);
   * the same output, kept as the bench's same-run baseline.
   */
  fullReset?: boolean;
  /**
   * The workers' scheduling priority when lower than the process's (a nice value): the pool of
   * background synthesis, which must not take the cores from a user's request even mid-job.
   */
  nice?: number;
}

export class EspeakPool {
  readonly size: number;
  private readonly fullReset: boolean;
  private readonly nice: number | undefined;
  private pool: WorkerPool<Job> | null = null;
  /** Open encoder sessions on each worker (they count in its load). */
  private readonly sessions = new WeakMap<PoolWorker, Set<number>>();
  private nextId = 1;
  private nextSession = 1;
  private started: Promise<void> | null = null;
  private closed = false;

  constructor(opts: PoolOptions = {}) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
    this.fullReset = opts.fullReset ?? false;
    this.nice = opts.nice;
  }

  start(): Promise<void> {
    if (this.closed) return Promise.reject(new Error("engine pool closed"));
    this.started ??= (async () => {
      const build = await compileEspeak();
      if (this.closed) throw new Error("engine pool closed");
      this.pool = this.newPool(build);
      await this.pool.warm();
    })().catch(async (e: unknown) => {
      // A failed start can be retried by the next call.
      const pool = this.pool;
      this.pool = null;
      this.started = null;
      await pool?.close();
      throw e;
    });
    return this.started;
  }

  /**
   * Synthesises one chunk on any worker; with `encodeWith`, on the session's worker, feeding the
   * result to its encoder right away (saves a round trip for the first chunk of a stream). With
   * a segment format and `onHead`, the segment's first bytes come to `onHead` before the result
   * (whose `audio` is then the bytes after them).
   */
  async synth(
    job: ChunkJob,
    priority: number,
    signal?: AbortSignal,
    encodeWith?: { session: EncoderSession; final: boolean } | { segment: OutputFormatId },
    onHead?: (audio: Uint8Array) => void,
  ): Promise<SynthResult> {
    await this.start();
    const pin = encodeWith && "session" in encodeWith ? encodeWith.session.claim(encodeWith.final) : null;
    const segment = encodeWith && "segment" in encodeWith ? { segment: encodeWith.segment, ...(onHead ? { head: true } : {}) } : undefined;
    const encode = pin ? { session: pin.session, final: (encodeWith as { final: boolean }).final } : segment;
    const message: ToWorker = { kind: "synth", id: this.nextId++, job, encode };
    const r = await this.submit(message, priority, pin?.slot, signal, segment ? onHead : undefined);
    if (r.kind !== "synth-done") throw new Error("unexpected worker reply");
    if (pin && (encodeWith as { final: boolean }).final) this.sessions.get(pin.slot)?.delete(pin.session);
    return { pcm: r.pcm, samples: r.samples, alignment: r.alignment, audio: r.audio, audioSamples: r.audioSamples, formatSamples: r.formatSamples };
  }

  /** An encoder living on one worker; writes are applied in order. */
  async openEncoder(format: OutputFormatId, inputRate: number): Promise<EncoderSession> {
    await this.start();
    const pool = this.pool!;
    const slot = pool.leastLoaded((w) => this.sessions.get(w)?.size ?? 0);
    const session = this.nextSession++;
    const open = this.sessions.get(slot) ?? new Set<number>();
    this.sessions.set(slot, open);
    open.add(session);
    pool.post(slot, { kind: "enc-open", session, format, inputRate } satisfies ToWorker);
    return new EncoderSession(this, slot, session);
  }

  /** @internal */
  encodeOn(slot: PoolWorker, session: number, pcm: Int16Array, final: boolean, priority: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (!this.pool?.isLive(slot)) return Promise.reject(new Error("engine worker was replaced; encoder session lost"));
    return this.submit({ kind: "enc-write", id: this.nextId++, session, pcm, final }, priority, slot, signal).then((r) => {
      if (r.kind !== "enc-done") throw new Error("unexpected worker reply");
      if (final) this.sessions.get(slot)?.delete(session);
      return r.audio;
    });
  }

  /** @internal */
  closeSession(slot: PoolWorker, session: number): void {
    if (this.sessions.get(slot)?.delete(session)) this.pool?.post(slot, { kind: "enc-close", session } satisfies ToWorker);
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
  }

  private submit(message: Job["job"], priority: number, slot: PoolWorker | undefined, signal?: AbortSignal, onHead?: (audio: Uint8Array) => void): Promise<Reply> {
    if (signal?.aborted) return Promise.reject(new SynthesisAbortedError());
    const pool = this.pool;
    if (this.closed || !pool) return Promise.reject(new Error("engine closed"));
    return new Promise<Reply>((resolve, reject) => {
      const job: Job = { id: message.id, job: message, transfer: [], priority, resolve, reject, signal, onHead };
      if (signal) {
        job.onAbort = () => {
          // A queued job is dropped; a running one finishes and its result is ignored.
          pool.dequeue(job);
          reject(new SynthesisAbortedError());
        };
        signal.addEventListener("abort", job.onAbort, { once: true });
      }
      pool.submit(job, slot);
    });
  }

  private newPool(build: EspeakBuild): WorkerPool<Job> {
    const done = (job: Job) => {
      if (job.signal && job.onAbort) job.signal.removeEventListener("abort", job.onAbort);
    };
    return new WorkerPool<Job>({
      size: this.size,
      name: "engine",
      closedMessage: "engine closed",
      // Replace only workers that had worked: one that dies while starting would die again.
      maxFailedStarts: 0,
      start: () => startWorker(build, this.fullReset, this.nice),
      message: (job) => job.job,
      // The worker exits by itself once eSpeak's main() returns; terminate covers a stuck one.
      stop: async (worker, send) => {
        send({ kind: "exit" } satisfies ToWorker);
        const timer = setTimeout(() => void worker.terminate(), 2000);
        await new Promise<void>((resolve) => {
          if (worker.threadId < 0) resolve();
          else worker.once("exit", () => resolve());
        });
        clearTimeout(timer);
      },
      onMessage: (job, m) => {
        if (!isFromWorker(m)) return false;
        if (m.kind === "synth-head") {
          // Part of a job still running: the worker stays busy with it.
          if (!job.signal?.aborted) job.onHead?.(m.audio);
          return false;
        }
        done(job);
        if (m.kind === "error") job.reject(new Error(`engine worker: ${m.message}`));
        else job.resolve(m);
        return true;
      },
      fail: (job, e) => {
        done(job);
        job.reject(e);
      },
    });
  }
}

export class EncoderSession {
  private done = false;

  constructor(
    private readonly pool: EspeakPool,
    private readonly slot: PoolWorker,
    private readonly session: number,
  ) {}

  async write(pcm: Int16Array, final: boolean, priority: number, signal?: AbortSignal): Promise<Uint8Array> {
    this.claim(final);
    return this.pool.encodeOn(this.slot, this.session, pcm, final, priority, signal);
  }

  /** @internal For a synth job that encodes on this session's worker. */
  claim(final: boolean): { slot: PoolWorker; session: number } {
    if (this.done) throw new Error("encoder session finished");
    if (final) this.done = true;
    return { slot: this.slot, session: this.session };
  }

  close(): void {
    this.done = true;
    this.pool.closeSession(this.slot, this.session);
  }
}

/**
 * A worker (worker.js next to this file when compiled; worker.ts through tsx from sources) with
 * its channel and wake counter: jobs go through the channel, then the counter is bumped.
 */
function startWorker(build: EspeakBuild, fullReset: boolean, nice: number | undefined): StartedWorker {
  const { port1, port2 } = new MessageChannel();
  const wakeBuffer = new SharedArrayBuffer(4);
  const wake = new Int32Array(wakeBuffer);
  const init: WorkerInit = { build, fullReset, port: port2, wake: wakeBuffer, nice };
  const worker: Worker = spawnWorker({ ts: new URL("./worker.ts", import.meta.url), js: new URL("./worker.js", import.meta.url) }, import.meta.url, {
    workerData: init,
    transferList: [port2],
  });
  return {
    worker,
    send: (message, transfer) => {
      port1.postMessage(message, transfer);
      Atomics.add(wake, 0, 1);
      Atomics.notify(wake, 0);
    },
    dispose: () => port1.close(),
  };
}
