/**
 * Worker threads for decoding and analysis, one per core (the house pattern of the engine's
 * pool, without its synchronous wake-ups: these workers wait on their message port). Jobs wait
 * in one FIFO queue; a free worker takes the next. Aborting a queued job drops it; aborting a
 * running one ends its worker (a fresh one replaces it), so the CPU is really released. Workers
 * keep the process alive only while there is work, and close() ends them all.
 */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { spawnWorker, WorkerPool } from "../workers/pool.js";
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

export interface AnalysisPoolOptions {
  /** Number of workers; defaults to the available cores. */
  size?: number;
}

/** The analyser's jobs on the shared WorkerPool (functions/media/workers/pool.ts): one answer each. */
export class AnalysisPool {
  readonly size: number;
  private readonly pool: WorkerPool<Pending>;
  private nextId = 1;

  constructor(opts: AnalysisPoolOptions = {}) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
    this.pool = new WorkerPool<Pending>({
      size: this.size,
      name: "voice analysis",
      closedMessage: "voice analyzer closed",
      start: startWorker,
      onMessage: (p, m) => {
        if (!isFromWorker(m)) return false;
        if (m.kind === "done") this.settle(p, null, m.result);
        else this.settle(p, rebuild(m.error));
        return true;
      },
      fail: (p, e) => this.settle(p, e),
    });
  }

  run<K extends Job["kind"]>(job: Extract<Job, { kind: K }>, transfer: ArrayBuffer[], signal?: AbortSignal): Promise<JobResults[K]> {
    if (this.pool.isClosed) return Promise.reject(new Error("voice analyzer closed"));
    if (signal?.aborted) return Promise.reject(new AnalysisAbortedError());
    return new Promise<JobResults[K]>((resolve, reject) => {
      const p: Pending = { id: this.nextId++, job, transfer, resolve: resolve as (v: unknown) => void, reject, signal };
      if (signal) {
        p.onAbort = () => this.abort(p);
        signal.addEventListener("abort", p.onAbort, { once: true });
      }
      this.pool.submit(p);
    });
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /** Aborting a queued job drops it; a running one ends its worker (a fresh one replaces it), so the CPU is really released. */
  private abort(p: Pending): void {
    if (this.pool.dequeue(p)) {
      this.settle(p, new AnalysisAbortedError());
      return;
    }
    if (!this.pool.workerOf(p)) return;
    this.pool.restart(p);
    this.settle(p, new AnalysisAbortedError());
  }

  private settle(p: Pending, error: Error | null, value?: unknown): void {
    if (p.signal && p.onAbort) p.signal.removeEventListener("abort", p.onAbort);
    if (error) p.reject(error);
    else p.resolve(value);
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
