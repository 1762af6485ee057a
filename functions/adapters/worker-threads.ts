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
  if (!callerUrl.endsWith(".ts")) return new Worker(entry.js, { ...options, execArgv });
  // The ESM build of tsx's API (the `import` condition), next to its package.json.
  const tsxRoot = dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
  const tsxApi = pathToFileURL(join(tsxRoot, "dist/esm/api/index.mjs")).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry.ts.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true, execArgv });
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

interface TaskMessage<I> {
  id: number;
  input: I;
}
type ResultMessage<O> = { id: number; ok: true; output: O } | { id: number; ok: false; error: string };

/**
 * A fixed pool of workers running one function: tasks queue, each free worker takes the next.
 * A worker that dies is replaced, and the task it held fails (it is not retried: the caller
 * decides). Tasks carry only structured-cloneable data.
 */
export class TaskPool<I, O> {
  private readonly workers: Array<{ worker: Worker; busy: { id: number; resolve(o: O): void; reject(e: Error): void } | null }> = [];
  private readonly queue: Array<{ input: I; transfer?: TransferListItem[]; resolve(o: O): void; reject(e: Error): void }> = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly entry: { ts: URL; js: URL },
    private readonly callerUrl: string,
    readonly size: number,
  ) {}

  run(input: I, transfer?: TransferListItem[]): Promise<O> {
    if (this.closed) return Promise.reject(new Error("worker pool closed"));
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ input, transfer, resolve, reject });
      this.pump();
    });
  }

  private spawn() {
    const slot: (typeof this.workers)[number] = { worker: spawnWorker(this.entry, this.callerUrl), busy: null };
    slot.worker.unref();
    slot.worker.on("message", (m: ResultMessage<O>) => {
      const job = slot.busy;
      if (!job || job.id !== m.id) return;
      slot.busy = null;
      if (m.ok) job.resolve(m.output);
      else job.reject(new Error(m.error));
      this.pump();
    });
    const fail = (e: Error) => {
      const i = this.workers.indexOf(slot);
      if (i >= 0) this.workers.splice(i, 1);
      slot.busy?.reject(e);
      slot.busy = null;
      if (!this.closed) this.pump();
    };
    slot.worker.on("error", fail);
    slot.worker.on("exit", (code) => fail(new Error(`worker exited with code ${code}`)));
    this.workers.push(slot);
    return slot;
  }

  private pump(): void {
    while (this.queue.length && !this.closed) {
      let slot = this.workers.find((w) => !w.busy);
      if (!slot && this.workers.length < this.size) slot = this.spawn();
      if (!slot) return;
      const task = this.queue.shift()!;
      const id = this.nextId++;
      slot.busy = { id, resolve: task.resolve, reject: task.reject };
      slot.worker.postMessage({ id, input: task.input } satisfies TaskMessage<I>, task.transfer ?? []);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const err = new Error("worker pool closed");
    for (const t of this.queue.splice(0)) t.reject(err);
    await Promise.all(this.workers.splice(0).map(async (w) => {
      w.busy?.reject(err);
      await w.worker.terminate();
    }));
  }
}

/** The worker side of a TaskPool: answers each task with `fn`'s result or its error message. */
export function serveTasks<I, O>(fn: (input: I) => O | Promise<O>): void {
  if (!parentPort) throw new Error("serveTasks must run in a worker thread");
  const port = parentPort;
  port.on("message", async (m: TaskMessage<I>) => {
    try {
      port.postMessage({ id: m.id, ok: true, output: await fn(m.input) } satisfies ResultMessage<O>);
    } catch (e) {
      port.postMessage({ id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) } satisfies ResultMessage<O>);
    }
  });
}
