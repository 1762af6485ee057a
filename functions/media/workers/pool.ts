import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker, parentPort, type TransferListItem, type WorkerOptions } from "node:worker_threads";

/**
 * Worker threads for CPU work that must stay off the request loop (hashing, parsing, DSP).
 *
 * From compiled JavaScript a worker is the `.js` file next to its caller. From TypeScript sources
 * (tests, `npm start` under tsx) a small bootstrap registers tsx inside the worker first: Node 20
 * does not apply an inherited `--import` loader to a worker's entry module.
 */
export function spawnWorker(entry: { ts: URL; js: URL }, callerUrl: string, options: WorkerOptions = {}): Worker {
  const execArgv = workerExecArgv(process.execArgv);
  if (!callerUrl.endsWith(".ts")) return newWorker(entry.js, options, execArgv);
  // The ESM build of tsx's API (the `import` condition), next to its package.json.
  const tsxRoot = dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
  const tsxApi = pathToFileURL(join(tsxRoot, "dist/esm/api/index.mjs")).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry.ts.href)}); });`;
  return newWorker(bootstrap, { ...options, eval: true }, execArgv);
}

/**
 * A worker with the parent's flags. When none had to be dropped it inherits them as they are
 * (a worker inherits V8's flags such as `--max-old-space-size` or `--trace-gc` without complaint,
 * but refuses them listed in `execArgv`). Otherwise the list is passed without those Node names
 * as invalid: V8's and the process's flags already apply to every thread.
 */
function newWorker(url: string | URL, options: WorkerOptions, execArgv: string[]): Worker {
  if (execArgv.length === process.execArgv.length) return new Worker(url, options);
  try {
    return new Worker(url, { ...options, execArgv });
  } catch (e) {
    if ((e as { code?: string }).code !== "ERR_WORKER_INVALID_EXEC_ARGV") throw e;
    // "Initiated Worker with invalid execArgv flags: --a, --b=1"
    const invalid = new Set((e as Error).message.replace(/^[^:]*:\s*/, "").split(", "));
    return new Worker(url, { ...options, execArgv: execArgv.filter((a) => !invalid.has(a)) });
  }
}

/**
 * The parent's Node flags a worker can take: not the debugger's, and not those that describe the
 * main entry (`-e CODE`, `--input-type`), which make a worker fail to start (a process started
 * with `node --input-type=module -e …`, as a bundle is loaded to measure Lambda's INIT).
 */
export function workerExecArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "-e" || a === "--eval" || a === "-p" || a === "--print") {
      i++;
      continue;
    }
    if (a.startsWith("--inspect") || a.startsWith("--input-type") || a.startsWith("--eval=") || a.startsWith("--print=")) continue;
    out.push(a);
  }
  return out;
}

/** A job a WorkerPool hands to a worker: its id, the message's payload and the buffers moved with it. */
export interface PooledJob {
  id: number;
  job: unknown;
  transfer: readonly TransferListItem[];
}

export interface WorkerPoolOptions<P extends PooledJob> {
  /** Number of workers. */
  size: number;
  /** What the errors say ("voice analysis", "voice conversion", ...). */
  name: string;
  /** What jobs fail with when the pool closes (default "<name> closed"). */
  closedMessage?: string;
  start(): Worker;
  /**
   * A message about `p` from the worker running it (any message but the ready handshake, and
   * only those carrying `p`'s id). Returns true when it ends the job: the worker takes the next.
   */
  onMessage(p: P, m: { kind: string; id: number }): boolean;
  /** The job failed outside its worker's answers (the worker died, the pool closed). */
  fail(p: P, e: Error): void;
}

interface PoolSlot<P> {
  worker: Worker;
  ready: boolean;
  busy: P | null;
}

/**
 * The one worker pool behind the analyser, speech to speech and the CPU offload: a fixed number
 * of workers, each announcing `{ kind: "ready" }` once loaded, and one FIFO queue a free worker
 * takes the next job from (`{ id, job }` with its transfer list). A worker that dies fails the
 * job it held (not retried: the caller decides) and is replaced; three workers in a row dying
 * before they were ready stop the respawning and fail the queue. Workers keep the process
 * alive only while there is work; close() ends them all.
 */
export class WorkerPool<P extends PooledJob> {
  readonly size: number;
  private slots: Array<PoolSlot<P>> = [];
  private queue: P[] = [];
  private closed = false;
  /** Consecutive workers that died before becoming ready: a broken entry must not respawn forever. */
  private failedStarts = 0;

  constructor(private readonly o: WorkerPoolOptions<P>) {
    this.size = Math.max(1, o.size);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Queues a job (the pool must be open). */
  submit(p: P): void {
    while (this.slots.length < this.size) this.slots.push(this.spawn());
    this.queue.push(p);
    this.pump();
  }

  /** Takes a job out of the queue; false when it is not queued (running, or finished). */
  dequeue(p: P): boolean {
    const i = this.queue.indexOf(p);
    if (i < 0) return false;
    this.queue.splice(i, 1);
    return true;
  }

  /** The worker running `p`, if one is. */
  workerOf(p: P): Worker | undefined {
    return this.slots.find((s) => s.busy === p)?.worker;
  }

  /** Ends the worker running `p` (so its CPU is really released) and starts another; `p` is not settled here. */
  restart(p: P): void {
    const slot = this.slots.find((s) => s.busy === p);
    if (!slot) return;
    slot.busy = null;
    this.replace(slot);
  }

  async close(): Promise<void> {
    this.closed = true;
    const err = new Error(this.o.closedMessage ?? `${this.o.name} closed`);
    for (const p of this.queue.splice(0)) this.o.fail(p, err);
    const slots = this.slots;
    this.slots = [];
    await Promise.all(
      slots.map(async (s) => {
        const p = s.busy;
        s.busy = null;
        if (p) this.o.fail(p, err);
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

  private replace(slot: PoolSlot<P>): void {
    this.slots = this.slots.filter((s) => s !== slot);
    void slot.worker.terminate();
    if (!this.closed && this.failedStarts < 3) this.slots.push(this.spawn());
    if (this.slots.length === 0) for (const p of this.queue.splice(0)) this.o.fail(p, new Error(`${this.o.name} workers failed to start`));
    this.pump();
  }

  private spawn(): PoolSlot<P> {
    const worker = this.o.start();
    const slot: PoolSlot<P> = { worker, ready: false, busy: null };
    worker.on("message", (m: unknown) => {
      if (typeof m !== "object" || m === null || typeof (m as { kind?: unknown }).kind !== "string") return;
      const msg = m as { kind: string; id: number };
      if (msg.kind === "ready") {
        slot.ready = true;
        this.failedStarts = 0;
        this.pump();
        return;
      }
      const p = slot.busy;
      if (!p || p.id !== msg.id) return;
      if (this.o.onMessage(p, msg)) {
        slot.busy = null;
        this.pump();
      }
    });
    const fail = (e: Error) => {
      if (!this.slots.includes(slot)) return;
      if (!slot.ready) this.failedStarts++;
      const p = slot.busy;
      slot.busy = null;
      if (p) this.o.fail(p, e);
      this.replace(slot);
    };
    worker.on("error", (e) => fail(e instanceof Error ? e : new Error(String(e))));
    worker.on("exit", (code) => fail(new Error(`${this.o.name} worker exited (${code})`)));
    return slot;
  }
}

type ResultMessage<O> = { kind: "done"; id: number; output: O } | { kind: "failed"; id: number; error: string };

interface Task<I, O> extends PooledJob {
  job: I;
  resolve(o: O): void;
  reject(e: Error): void;
}

/**
 * A WorkerPool running one function: each task is answered by `serveTasks` in the worker with
 * the function's result or its error message. Tasks carry only structured-cloneable data.
 */
export class TaskPool<I, O> {
  private readonly pool: WorkerPool<Task<I, O>>;
  private nextId = 1;

  constructor(entry: { ts: URL; js: URL }, callerUrl: string, readonly size: number) {
    this.pool = new WorkerPool<Task<I, O>>({
      size,
      name: "worker pool",
      start: () => spawnWorker(entry, callerUrl),
      onMessage: (t, m) => {
        const r = m as ResultMessage<O>;
        if (r.kind === "done") t.resolve(r.output);
        else t.reject(new Error(r.error));
        return true;
      },
      fail: (t, e) => t.reject(e),
    });
  }

  run(input: I, transfer?: TransferListItem[]): Promise<O> {
    if (this.pool.isClosed) return Promise.reject(new Error("worker pool closed"));
    return new Promise<O>((resolve, reject) => this.pool.submit({ id: this.nextId++, job: input, transfer: transfer ?? [], resolve, reject }));
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The worker side of a TaskPool: answers each task with `fn`'s result or its error message. */
export function serveTasks<I, O>(fn: (input: I) => O | Promise<O>): void {
  if (!parentPort) throw new Error("serveTasks must run in a worker thread");
  const port = parentPort;
  port.on("message", async (m: { id: number; job: I }) => {
    try {
      port.postMessage({ kind: "done", id: m.id, output: await fn(m.job) } satisfies ResultMessage<O>);
    } catch (e) {
      port.postMessage({ kind: "failed", id: m.id, error: e instanceof Error ? e.message : String(e) } satisfies ResultMessage<O>);
    }
  });
  port.postMessage({ kind: "ready" });
}
