/**
 * A pool of eSpeak workers, one per core. Jobs wait in one priority queue (lower first: chunk 0
 * of any request goes before chunk 5 of another) and a worker takes the next job when it is
 * free. Encoder sessions are pinned to one worker because a codec keeps state between chunks.
 */
import { availableParallelism } from "node:os";
import { MessageChannel, type Worker, type MessagePort } from "node:worker_threads";
import { spawnWorker } from "../../workers/pool.js";
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
  seq: number;
  priority: number;
  message: Extract<ToWorker, { id: number }>;
  resolve(r: Reply): void;
  reject(e: Error): void;
  /** A segment's first bytes, before the result (synth jobs that asked for the head). */
  onHead?: (audio: Uint8Array) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  port: MessagePort;
  wake: Int32Array;
  ready: Promise<void>;
  isReady: boolean;
  busy: Job | null;
  /** Encode jobs that must run on this worker. */
  pinned: Job[];
  sessions: Set<number>;
}

export interface PoolOptions {
  /** Number of workers; defaults to the available cores. */
  size?: number;
  /**
   * Restore all of eSpeak's memory before every line instead of the heap in use (runtime.ts);
   * the same output, kept as the bench's same-run baseline.
   */
  fullReset?: boolean;
}

export class EspeakPool {
  readonly size: number;
  private readonly fullReset: boolean;
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private seq = 0;
  private nextId = 1;
  private nextSession = 1;
  private started: Promise<void> | null = null;
  private closed = false;

  constructor(opts: PoolOptions = {}) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
    this.fullReset = opts.fullReset ?? false;
  }

  start(): Promise<void> {
    if (this.closed) return Promise.reject(new Error("engine pool closed"));
    this.started ??= (async () => {
      const build = await compileEspeak();
      for (let i = 0; i < this.size; i++) this.slots.push(this.spawn(build));
      await Promise.all(this.slots.map((s) => s.ready));
    })().catch(async (e: unknown) => {
      // A failed start can be retried by the next call.
      for (const s of this.slots.splice(0)) await s.worker.terminate();
      this.started = null;
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
    const r = await this.submit(message, priority, pin?.slot ?? null, signal, segment ? onHead : undefined);
    if (r.kind !== "synth-done") throw new Error("unexpected worker reply");
    if (pin && (encodeWith as { final: boolean }).final) pin.slot.sessions.delete(pin.session);
    return { pcm: r.pcm, samples: r.samples, alignment: r.alignment, audio: r.audio, audioSamples: r.audioSamples, formatSamples: r.formatSamples };
  }

  /** An encoder living on one worker; writes are applied in order. */
  async openEncoder(format: OutputFormatId, inputRate: number): Promise<EncoderSession> {
    await this.start();
    const slot = this.slots.reduce((a, b) => (this.load(b) < this.load(a) ? b : a));
    const session = this.nextSession++;
    slot.sessions.add(session);
    this.send(slot, { kind: "enc-open", session, format, inputRate });
    return new EncoderSession(this, slot, session);
  }

  /** @internal */
  encodeOn(slot: Slot, session: number, pcm: Int16Array, final: boolean, priority: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (!this.slots.includes(slot)) return Promise.reject(new Error("engine worker was replaced; encoder session lost"));
    return this.submit({ kind: "enc-write", id: this.nextId++, session, pcm, final }, priority, slot, signal).then((r) => {
      if (r.kind !== "enc-done") throw new Error("unexpected worker reply");
      if (final) slot.sessions.delete(session);
      return r.audio;
    });
  }

  /** @internal */
  closeSession(slot: Slot, session: number): void {
    if (slot.sessions.delete(session) && this.slots.includes(slot)) this.send(slot, { kind: "enc-close", session });
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots;
    this.slots = [];
    const err = new Error("engine closed");
    for (const j of this.queue.splice(0)) j.reject(err);
    await Promise.all(
      slots.map(async (s) => {
        s.busy?.reject(err);
        for (const j of s.pinned.splice(0)) j.reject(err);
        this.send(s, { kind: "exit" });
        // The worker exits by itself once eSpeak's main() returns; terminate covers a stuck one.
        const timer = setTimeout(() => void s.worker.terminate(), 2000);
        await new Promise<void>((resolve) => {
          if (s.worker.threadId < 0) resolve();
          else s.worker.once("exit", () => resolve());
        });
        clearTimeout(timer);
        s.port.close();
      }),
    );
  }

  private load(s: Slot): number {
    return (s.busy ? 1 : 0) + s.pinned.length + s.sessions.size;
  }

  private submit(message: Job["message"], priority: number, slot: Slot | null, signal?: AbortSignal, onHead?: (audio: Uint8Array) => void): Promise<Reply> {
    if (signal?.aborted) return Promise.reject(new SynthesisAbortedError());
    if (this.closed) return Promise.reject(new Error("engine closed"));
    return new Promise<Reply>((resolve, reject) => {
      const job: Job = { seq: this.seq++, priority, message, resolve, reject, signal, onHead };
      if (signal) {
        job.onAbort = () => {
          // A queued job is dropped; a running one finishes and its result is ignored.
          const q = slot ? slot.pinned : this.queue;
          const i = q.indexOf(job);
          if (i >= 0) q.splice(i, 1);
          reject(new SynthesisAbortedError());
        };
        signal.addEventListener("abort", job.onAbort, { once: true });
      }
      insertByPriority(slot ? slot.pinned : this.queue, job);
      this.pump();
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (!slot.isReady || slot.busy) continue;
      const pinned = slot.pinned[0];
      const shared = this.queue[0];
      const job = pinned && (!shared || before(pinned, shared)) ? slot.pinned.shift() : this.queue.shift();
      if (!job) continue;
      slot.busy = job;
      this.send(slot, job.message);
    }
    this.holdProcess();
  }

  /** Workers keep the process alive only while there is work, so a forgotten close() never hangs it. */
  private holdProcess(): void {
    const working = this.queue.length > 0 || this.slots.some((s) => s.busy || s.pinned.length > 0 || !s.isReady);
    for (const s of this.slots) {
      if (working) s.worker.ref();
      else s.worker.unref();
    }
  }

  private send(slot: Slot, message: ToWorker, transfer: ArrayBuffer[] = []): void {
    slot.port.postMessage(message, transfer);
    Atomics.add(slot.wake, 0, 1);
    Atomics.notify(slot.wake, 0);
  }

  private spawn(build: EspeakBuild): Slot {
    const { port1, port2 } = new MessageChannel();
    const wakeBuffer = new SharedArrayBuffer(4);
    const init: WorkerInit = { build, fullReset: this.fullReset, port: port2, wake: wakeBuffer };
    const worker = startWorker(init, [port2]);
    let markReady!: () => void;
    let failReady!: (e: Error) => void;
    const slot: Slot = {
      worker,
      port: port1,
      wake: new Int32Array(wakeBuffer),
      ready: new Promise<void>((res, rej) => {
        markReady = res;
        failReady = rej;
      }),
      isReady: false,
      busy: null,
      pinned: [],
      sessions: new Set(),
    };
    worker.on("message", (m: unknown) => {
      if (!isFromWorker(m)) return;
      if (m.kind === "ready") {
        slot.isReady = true;
        markReady();
        this.pump();
        return;
      }
      const job = slot.busy;
      if (m.kind === "synth-head") {
        // Part of a job still running: the worker stays busy with it.
        if (job && job.message.id === m.id && !job.signal?.aborted) job.onHead?.(m.audio);
        return;
      }
      slot.busy = null;
      if (job && job.message.id === m.id) {
        if (job.signal && job.onAbort) job.signal.removeEventListener("abort", job.onAbort);
        if (m.kind === "error") job.reject(new Error(`engine worker: ${m.message}`));
        else job.resolve(m);
      }
      this.pump();
    });
    const fail = (e: Error) => {
      failReady(e);
      if (!this.slots.includes(slot)) return;
      // Replace the dead worker; its jobs and encoder sessions fail, queued jobs wait for the new one.
      this.slots = this.slots.filter((s) => s !== slot);
      slot.busy?.reject(e);
      for (const j of slot.pinned.splice(0)) j.reject(e);
      slot.port.close();
      // Replace only workers that had worked: one that dies while starting would die again.
      if (!this.closed && slot.isReady) {
        const fresh = this.spawn(build);
        this.slots.push(fresh);
        fresh.ready.then(() => this.pump(), () => {});
      }
      if (this.slots.length === 0) {
        // Nothing left to run queued jobs: fail them; the next call starts afresh.
        for (const j of this.queue.splice(0)) j.reject(e);
        this.started = null;
      }
    };
    worker.on("error", (e) => fail(e instanceof Error ? e : new Error(String(e))));
    worker.on("exit", (code) => fail(new Error(`engine worker exited (${code})`)));
    return slot;
  }
}

export class EncoderSession {
  private done = false;

  constructor(
    private readonly pool: EspeakPool,
    private readonly slot: Slot,
    private readonly session: number,
  ) {}

  async write(pcm: Int16Array, final: boolean, priority: number, signal?: AbortSignal): Promise<Uint8Array> {
    this.claim(final);
    return this.pool.encodeOn(this.slot, this.session, pcm, final, priority, signal);
  }

  /** @internal For a synth job that encodes on this session's worker. */
  claim(final: boolean): { slot: Slot; session: number } {
    if (this.done) throw new Error("encoder session finished");
    if (final) this.done = true;
    return { slot: this.slot, session: this.session };
  }

  close(): void {
    this.done = true;
    this.pool.closeSession(this.slot, this.session);
  }
}

function before(a: Job, b: Job): boolean {
  return a.priority < b.priority || (a.priority === b.priority && a.seq < b.seq);
}

function insertByPriority(q: Job[], job: Job): void {
  let i = q.length;
  while (i > 0 && before(job, q[i - 1])) i--;
  q.splice(i, 0, job);
}

/** worker.js next to this file when compiled; worker.ts through tsx from sources. */
function startWorker(init: WorkerInit, transferList: MessagePort[]): Worker {
  return spawnWorker({ ts: new URL("./worker.ts", import.meta.url), js: new URL("./worker.js", import.meta.url) }, import.meta.url, { workerData: init, transferList });
}
