import type { Rnnoise } from "@shiguredo/rnnoise-wasm";

/**
 * RNNoise (Xiph's recurrent-network noise suppressor) compiled to WebAssembly, from
 * @shiguredo/rnnoise-wasm (Apache-2.0). The build targets browsers and workers: it refuses to
 * load unless `WorkerGlobalScope` exists, though its WebAssembly is embedded and needs nothing
 * else. We only run it in worker threads, so the name is lent for the load and removed again.
 */
let loading: Promise<Rnnoise> | undefined;

export function loadRnnoise(): Promise<Rnnoise> {
  loading ??= (async () => {
    const g = globalThis as { WorkerGlobalScope?: unknown };
    const lent = g.WorkerGlobalScope === undefined;
    if (lent) g.WorkerGlobalScope = class WorkerGlobalScope {};
    try {
      const { Rnnoise } = await import("@shiguredo/rnnoise-wasm");
      return await Rnnoise.load();
    } finally {
      if (lent) delete g.WorkerGlobalScope;
    }
  })();
  return loading;
}

/** RNNoise's own rate and frame (10 ms). */
export const RNNOISE_RATE = 48_000;
export const RNNOISE_FRAME = 480;
