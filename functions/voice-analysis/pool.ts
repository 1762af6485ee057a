/**
 * Worker threads for decoding and analysis, one per core (the house pattern of the engine's
 * pool, without its synchronous wake-ups: these workers wait on their message port). Jobs wait
 * in one FIFO queue; a free worker takes the next. Aborting a queued job drops it; aborting a
 * running one ends its worker (a fresh one replaces it), so the CPU is really released. Workers
 * keep the process alive only while there is work, and close() ends them all.
 */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { spawnWorker } from "../adapters/worker-threads.js";
import { AudioDecodeError, AudioLimitError } from "../audio/decode/errors.js";
import { AnalysisAbortedError } from "./port.js";
import { isFromWorker, type Job, type JobResults, type WorkerError } from "./protocol.js";

interface Pending {
  id: number;
  job: Job;
  transfer: ArrayBuffer[];
  resolve(v: unknown): void;
  reject(e: Error): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy: Pending | null;
}

export interface AnalysisPoolOptions {
  /** Number of workers; defaults to the available cores. */
  size?: number;
}

export class AnalysisPool {
  readonly size: number;
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  /** Consecutive workers that died before becoming ready: a broken entry must not respawn forever. */
  private failedStarts = 0;

  constructor(opts: AnalysisPoolOptions = {}) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
  }

  run<K extends Job["kind"]>(job: Extract<Job, { kind: K }>, transfer: ArrayBuffer[], signal?: AbortSignal): Promise<JobResults[K]> {
    if (this.closed) return Promise.reject(new Error("voice analyzer closed"));
    if (signal?.aborted) return Promise.reject(new AnalysisAbortedError());
    while (this.slots.length < this.size) this.slots.push(this.spawn());
    return new Promise<JobResults[K]>((resolve, reject) => {
      const p: Pending = { id: this.nextId++, job, transfer, resolve: resolve as (v: unknown) => void, reject, signal };
      if (signal) {
        p.onAbort = () => this.abort(p);
        signal.addEventListener("abort", p.onAbort, { once: true });
      }
      this.queue.push(p);
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const err = new Error("voice analyzer closed");
    for (const p of this.queue.splice(0)) this.settle(p, err);
    const slots = this.slots;
    this.slots = [];
    await Promise.all(
      slots.map(async (s) => {
        if (s.busy) this.settle(s.busy, err);
        s.busy = null;
        await s.worker.terminate();
      }),
    );
  }

  private abort(p: Pending): void {
    const i = this.queue.indexOf(p);
    if (i >= 0) {
      this.queue.splice(i, 1);
      this.settle(p, new AnalysisAbortedError());
      return;
    }
    const slot = this.slots.find((s) => s.busy === p);
    if (!slot) return;
    slot.busy = null;
    this.settle(p, new AnalysisAbortedError());
    this.replace(slot);
  }

  private settle(p: Pending, error: Error | null, value?: unknown): void {
    if (p.signal && p.onAbort) p.signal.removeEventListener("abort", p.onAbort);
    if (error) p.reject(error);
    else p.resolve(value);
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
    if (this.slots.length === 0) for (const p of this.queue.splice(0)) this.settle(p, new Error("voice analysis workers failed to start"));
    this.pump();
  }

  private spawn(): Slot {
    const worker = startWorker();
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
      slot.busy = null;
      if (m.kind === "done") this.settle(p, null, m.result);
      else this.settle(p, rebuild(m.error));
      this.pump();
    });
    const fail = (e: Error) => {
      if (!this.slots.includes(slot)) return;
      if (!slot.ready) this.failedStarts++;
      const p = slot.busy;
      slot.busy = null;
      if (p) this.settle(p, e);
      this.replace(slot);
    };
    worker.on("error", (e) => fail(e instanceof Error ? e : new Error(String(e))));
    worker.on("exit", (code) => fail(new Error(`voice analysis worker exited (${code})`)));
    return slot;
  }
}

function rebuild(e: WorkerError): Error {
  if (e.name === "AudioDecodeError") return new AudioDecodeError(e.reason);
  if (e.name === "AudioLimitError") return new AudioLimitError(e.limit, e.max, e.actual);
  return new Error(`voice analysis worker: ${e.message}`);
}

/**
 * From compiled or bundled JavaScript the worker is analysis-worker.js next to this module (the
 * Lambda bundle puts it beside index.mjs). From TypeScript sources (tests, `node --import tsx`)
 * a small bootstrap registers tsx inside the worker first, as the engine's pool does.
 */
function startWorker(): Worker {
  return spawnWorker({ ts: new URL("./analysis-worker.ts", import.meta.url), js: new URL("./analysis-worker.js", import.meta.url) }, import.meta.url);
}
