import { monitorEventLoopDelay } from "node:perf_hooks";

/**
 * How long this process' event loop was held while `work` ran: the 99th percentile of its delay,
 * and the same measured just before with nothing running, as a baseline (a shared machine can
 * deschedule the whole process; that shows in both). No wall-clock time of the work is judged.
 */
export async function loopDelayDuring<T>(work: () => Promise<T>): Promise<{ result: T; p99Ms: number; idleP99Ms: number }> {
  const idle = monitorEventLoopDelay({ resolution: 5 });
  idle.enable();
  await new Promise((r) => setTimeout(r, 300));
  idle.disable();
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  try {
    const result = await work();
    return { result, p99Ms: h.percentile(99) / 1e6, idleP99Ms: idle.percentile(99) / 1e6 };
  } finally {
    h.disable();
  }
}

/**
 * The acceptance bound: the loop is not held for 100 ms. On a machine so loaded that the idle loop
 * already waits tens of milliseconds, the bound is five times that idle baseline: work run on the
 * loop itself (a queue of 90 ms hashes, a quadratic parse) holds it for seconds and fails either way.
 */
export const loopBoundMs = (idleP99Ms: number) => Math.max(100, 5 * idleP99Ms);
