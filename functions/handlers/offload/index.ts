import { TaskPool } from "../../media/workers/pool.js";
import { setCpuRunner, type CpuMessage } from "../../platform/offload/index.js";
import { runTask } from "./tasks.js";

/**
 * Runs CPU-heavy request work (password hashing, lexicon parsing) off the request loop. The
 * embedded server answers many requests in one process, so it starts worker threads for it
 * (`useCpuWorkers`); a Lambda container serves one request at a time, so there the same pure
 * functions run inline and stall nobody.
 */
let pool: TaskPool<CpuMessage, unknown> | undefined;
let users = 0;

// Worker threads while the embedded server uses them, inline otherwise (every Lambda entry point).
setCpuRunner((message, transfer) => (pool ? pool.run(message, transfer) : runTask(message)));

/** Starts the workers until every caller has released them (several stacks may share a test process). */
export function useCpuWorkers(size = 2): () => Promise<void> {
  users++;
  pool ??= new TaskPool({ ts: new URL("./worker.ts", import.meta.url), js: new URL("./cpu-worker.js", import.meta.url) }, import.meta.url, size);
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--users > 0) return;
    const p = pool;
    pool = undefined;
    await p?.close();
  };
}

/** True when tasks run in worker threads. */
export const cpuWorkersActive = () => pool !== undefined;
