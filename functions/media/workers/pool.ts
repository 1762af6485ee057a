import { existsSync, readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, parentPort, type TransferListItem, type WorkerOptions } from "node:worker_threads";

/**
 * Worker threads for CPU work that must stay off the request loop (hashing, parsing, DSP).
 *
 * From compiled JavaScript a worker is the `.js` file next to its caller. From TypeScript sources
 * (tests, `npm start` under tsx) a small bootstrap registers tsx inside the worker first: Node 20
 * does not apply an inherited `--import` loader to a worker's entry module.
 */
let bundleDir: string | undefined;

/**
 * From TypeScript sources, start workers from the server bundle's files in `dir` (build/server:
 * `<name>.js`, as beside a compiled caller) where it has one. The test suite does this
 * (test/support/wiring.ts; test/support/global-setup.ts builds the bundle once per run): a thread
 * loads its bundle with about a third of the CPU of registering tsx and transpiling its sources
 * (0.3 s instead of 0.8 s), and the suite starts thousands of threads.
 */
export function startWorkersFromBundle(dir: string | undefined): void {
  bundleDir = dir;
}

export function spawnWorker(entry: { ts: URL; js: URL }, callerUrl: string, options: WorkerOptions = {}): Worker {
  const execArgv = workerExecArgv(process.execArgv);
  if (!callerUrl.endsWith(".ts")) return newWorker(entry.js, options, execArgv);
  if (bundleDir) {
    const bundled = join(bundleDir, basename(fileURLToPath(entry.js)));
    if (existsSync(bundled)) return newWorker(pathToFileURL(bundled), options, execArgv);
  }
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

/**
 * Lowers the calling thread's scheduling priority to `nice` (Linux: a thread is a task of its own;
 * elsewhere, or when not permitted, it runs as it is). For a worker thread's own batch work: a
 * thread can lower its priority, never raise it back, so a pool whose threads do it keeps them
 * for that work.
 */
export function lowerThisThreadPriority(nice: number): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // Not Linux, or not permitted.
  }
}

/**
 * A job a WorkerPool hands to a worker: its id, the message's payload and the buffers moved with
 * it. `priority` orders the queue, lower first (default 0); jobs of equal priority run in the
 * order they were submitted.
 */
export interface PooledJob {
  id: number;
  job: unknown;
  transfer: readonly TransferListItem[];
  priority?: number;
}

/**
 * A started worker and how messages reach it. By default a job is posted to the worker itself;
 * `send` replaces that (the engine's workers read a MessageChannel synchronously and are woken
 * through an Atomics counter), and `dispose` releases what it used once the worker is gone.
 * Answers and the ready handshake always come on the worker's own port.
 */
export interface StartedWorker {
  worker: Worker;
  send?(message: unknown, transfer: readonly TransferListItem[]): void;
  dispose?(): void;
}

export interface WorkerPoolOptions<P extends PooledJob> {
  /** Number of workers. */
  size: number;
  /** What the errors say ("voice analysis", "voice conversion", ...). */
  name: string;
  /** What jobs fail with when the pool closes (default "<name> closed"). */
  closedMessage?: string;
  /**
   * Workers dying in a row before they were ready after which the pool stops replacing them
   * (default 3). A worker that had been ready is always replaced.
   */
  maxFailedStarts?: number;
  start(): Worker | StartedWorker;
  /** The message a job is sent as (default `{ id, job }`). */
  message?(p: P): unknown;
  /**
   * How close() ends a worker (default terminate()); `send` reaches it as jobs do. The pool has
   * already failed every job when this runs.
   */
  stop?(worker: Worker, send: (message: unknown) => void): Promise<void>;
  /**
   * A message about `p` from the worker running it (any message but the ready handshake, and
   * only those carrying `p`'s id). Returns true when it ends the job: the worker takes the next.
   */
  onMessage(p: P, m: { kind: string; id: number }): boolean;
  /** The job failed outside its worker's answers (the worker died, the pool closed). */
  fail(p: P, e: Error): void;
}

interface Queued<P> {
  p: P;
  priority: number;
  seq: number;
}

/** One of a pool's workers, as a handle for jobs pinned to it (a session that keeps state there). */
export interface PoolWorker {
  readonly worker: Worker;
}

interface PoolSlot<P> extends PoolWorker {
  send(message: unknown, transfer: readonly TransferListItem[]): void;
  dispose?: () => void;
  ready: boolean;
  /** Settled when the worker is ready, or failed when it dies first. */
  readyPromise: Promise<void>;
  markReady(): void;
  failReady(e: Error): void;
  busy: P | null;
  /** Jobs that must run on this worker, in queue order. */
  pinned: Array<Queued<P>>;
}

/**
 * The one worker pool behind the speech engine, the analyser, speech to speech and the CPU
 * offload: a fixed number of workers, each announcing `{ kind: "ready" }` once loaded, and one
 * queue (by priority, then FIFO) a free worker takes the next job from. A job may instead be
 * pinned to one worker; a free worker takes the earlier of its own next pinned job and the
 * shared queue's next. A worker that dies fails the job it held and those pinned to it (not
 * retried: the caller decides) and is replaced; workers dying in a row before they were ready
 * stop the respawning and, with no worker left, fail the queue. Workers keep the process alive
 * only while there is work; close() ends them all.
 */
export class WorkerPool<P extends PooledJob> {
  readonly size: number;
  private slots: Array<PoolSlot<P>> = [];
  private queue: Array<Queued<P>> = [];
  private closed = false;
  private seq = 0;
  /** Consecutive workers that died before becoming ready: a broken entry must not respawn forever. */
  private failedStarts = 0;
  private readonly maxFailedStarts: number;

  constructor(private readonly o: WorkerPoolOptions<P>) {
    this.size = Math.max(1, o.size);
    this.maxFailedStarts = o.maxFailedStarts ?? 3;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The live workers. */
  get workers(): readonly PoolWorker[] {
    return this.slots;
  }

  /** Starts the missing workers and waits until every worker is ready (fails if one dies first). */
  async warm(): Promise<void> {
    if (this.closed) throw new Error(this.o.closedMessage ?? `${this.o.name} closed`);
    this.fill();
    this.pump();
    await Promise.all(this.slots.map((s) => s.readyPromise));
  }

  /** True while `w` is one of the pool's workers (not dead, replaced or closed). */
  isLive(w: PoolWorker): boolean {
    return this.slots.includes(w as PoolSlot<P>);
  }

  /** The live worker with the fewest jobs running or pinned, plus `extra` of its own (sessions). */
  leastLoaded(extra: (w: PoolWorker) => number = () => 0): PoolWorker {
    this.fill();
    const load = (s: PoolSlot<P>) => (s.busy ? 1 : 0) + s.pinned.length + extra(s);
    return this.slots.reduce((a, b) => (load(b) < load(a) ? b : a));
  }

  /** A message outside any job (opening or closing a session), sent to `w` if it is live. */
  post(w: PoolWorker, message: unknown): boolean {
    if (!this.isLive(w)) return false;
    (w as PoolSlot<P>).send(message, []);
    return true;
  }

  /**
   * Queues a job (the pool must be open); with `on`, for that worker only. A job pinned to a
   * worker that is no longer live fails at once.
   */
  submit(p: P, on?: PoolWorker): void {
    const q: Queued<P> = { p, priority: p.priority ?? 0, seq: this.seq++ };
    if (on) {
      if (!this.isLive(on)) {
        this.o.fail(p, new Error(`${this.o.name} worker was replaced`));
        return;
      }
      insertByPriority((on as PoolSlot<P>).pinned, q);
    } else {
      this.fill();
      insertByPriority(this.queue, q);
    }
    this.pump();
  }

  /** Takes a job out of its queue; false when it is not queued (running, or finished). */
  dequeue(p: P): boolean {
    for (const q of [this.queue, ...this.slots.map((s) => s.pinned)]) {
      const i = q.findIndex((e) => e.p === p);
      if (i >= 0) {
        q.splice(i, 1);
        this.pump();
        return true;
      }
    }
    return false;
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
    this.failPinned(slot, new Error(`${this.o.name} worker was restarted`));
    this.replace(slot);
  }

  async close(): Promise<void> {
    this.closed = true;
    const err = new Error(this.o.closedMessage ?? `${this.o.name} closed`);
    for (const q of this.queue.splice(0)) this.o.fail(q.p, err);
    const slots = this.slots;
    this.slots = [];
    for (const s of slots) {
      const p = s.busy;
      s.busy = null;
      if (p) this.o.fail(p, err);
      this.failPinned(s, err);
      s.failReady(err);
    }
    await Promise.all(
      slots.map(async (s) => {
        if (this.o.stop) await this.o.stop(s.worker, (m) => s.send(m, []));
        else await s.worker.terminate();
        s.dispose?.();
      }),
    );
  }

  private fill(): void {
    if (this.closed) return;
    while (this.slots.length < this.size) this.slots.push(this.spawn());
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.busy) continue;
      const pinned = slot.pinned[0];
      const shared = this.queue[0];
      const next = pinned && (!shared || before(pinned, shared)) ? slot.pinned.shift() : this.queue.shift();
      if (!next) continue;
      const p = next.p;
      slot.busy = p;
      slot.send(this.o.message ? this.o.message(p) : { id: p.id, job: p.job }, p.transfer);
    }
    const working = this.queue.length > 0 || this.slots.some((s) => s.busy || s.pinned.length > 0 || !s.ready);
    for (const s of this.slots) {
      if (working) s.worker.ref();
      else s.worker.unref();
    }
  }

  private failPinned(slot: PoolSlot<P>, e: Error): void {
    for (const q of slot.pinned.splice(0)) this.o.fail(q.p, e);
  }

  private replace(slot: PoolSlot<P>): void {
    this.slots = this.slots.filter((s) => s !== slot);
    void slot.worker.terminate().finally(() => slot.dispose?.());
    if (!this.closed && (slot.ready || this.failedStarts < this.maxFailedStarts)) this.slots.push(this.spawn());
    if (this.slots.length === 0) for (const q of this.queue.splice(0)) this.o.fail(q.p, new Error(`${this.o.name} workers failed to start`));
    this.pump();
  }

  private spawn(): PoolSlot<P> {
    const started = this.o.start();
    const { worker, send, dispose }: StartedWorker = started instanceof Worker ? { worker: started } : started;
    let markReady!: () => void;
    let failReady!: (e: Error) => void;
    const readyPromise = new Promise<void>((res, rej) => {
      markReady = res;
      failReady = rej;
    });
    // Nobody may be waiting for it.
    readyPromise.catch(() => {});
    const slot: PoolSlot<P> = {
      worker,
      send: send ?? ((m, transfer) => worker.postMessage(m, transfer)),
      dispose,
      ready: false,
      readyPromise,
      markReady,
      failReady,
      busy: null,
      pinned: [],
    };
    worker.on("message", (m: unknown) => {
      if (typeof m !== "object" || m === null || typeof (m as { kind?: unknown }).kind !== "string") return;
      const msg = m as { kind: string; id: number };
      if (msg.kind === "ready") {
        slot.ready = true;
        slot.markReady();
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
      slot.failReady(e);
      if (!this.slots.includes(slot)) return;
      if (!slot.ready) this.failedStarts++;
      const p = slot.busy;
      slot.busy = null;
      if (p) this.o.fail(p, e);
      this.failPinned(slot, e);
      this.replace(slot);
    };
    worker.on("error", (e) => fail(e instanceof Error ? e : new Error(String(e))));
    worker.on("exit", (code) => fail(new Error(`${this.o.name} worker exited (${code})`)));
    return slot;
  }
}

function before<P>(a: Queued<P>, b: Queued<P>): boolean {
  return a.priority < b.priority || (a.priority === b.priority && a.seq < b.seq);
}

/** Inserts after every job that goes before it (equal priorities stay in submission order). */
function insertByPriority<P>(q: Array<Queued<P>>, e: Queued<P>): void {
  let i = q.length;
  while (i > 0 && before(e, q[i - 1])) i--;
  q.splice(i, 0, e);
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
