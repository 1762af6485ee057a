import { createHash } from "node:crypto";
import type { Rnnoise } from "@shiguredo/rnnoise-wasm";
import { functionBody, importedFunctionName, redirectThroughImport } from "../wasm/patch.js";
import { RNNOISE_LINEAR_WASM } from "./rnnoise-linear.wasm.js";

/**
 * RNNoise (Xiph's recurrent-network noise suppressor) compiled to WebAssembly, from
 * @shiguredo/rnnoise-wasm (Apache-2.0). The build targets browsers and workers: it refuses to
 * load unless `WorkerGlobalScope` exists, though its WebAssembly is embedded and needs nothing
 * else. We only run it in worker threads, so the name is lent for the load and removed again.
 *
 * Its build has no SIMD, and its linear layers (the current model's GRUs: ~3 M multiply-adds per
 * 10 ms frame) were ~80% of its time. While it loads, the module is rewritten so that its
 * linear-layer function first asks our SIMD version (rnnoise-linear.wat) to do the work; layers
 * that version does not take run the original code. The output is the same to the bit (see the
 * .wat for why) at about a quarter of the CPU. The rewrite is only applied to the exact function
 * it was written for (its code's SHA-256); any other build loads unchanged.
 */
let loading: Promise<Rnnoise> | undefined;

export interface RnnoiseStats {
  /** The SIMD linear layers are in place. */
  simd: boolean;
  /** Layers computed by the SIMD version / left to the original code. */
  simdLayers: number;
  originalLayers: number;
}

const stats: RnnoiseStats = { simd: false, simdLayers: 0, originalLayers: 0 };

export function rnnoiseStats(): RnnoiseStats {
  return { ...stats };
}

export function loadRnnoise(opts: { simd?: boolean } = {}): Promise<Rnnoise> {
  if (opts.simd === false) return load(false); // a separate, unpatched instance (tests compare the two)
  loading ??= load(true);
  return loading;
}

async function load(simd: boolean): Promise<Rnnoise> {
  const g = globalThis as { WorkerGlobalScope?: unknown };
  const lent = g.WorkerGlobalScope === undefined;
  if (lent) g.WorkerGlobalScope = class WorkerGlobalScope {};
  const instantiate = WebAssembly.instantiate;
  if (simd) WebAssembly.instantiate = withSimdLinearLayers(instantiate) as typeof WebAssembly.instantiate;
  try {
    // A fresh module instance per load: the package's entry caches nothing itself.
    const { Rnnoise } = await import("@shiguredo/rnnoise-wasm");
    return await Rnnoise.load();
  } finally {
    WebAssembly.instantiate = instantiate;
    if (lent) delete g.WorkerGlobalScope;
  }
}

/** compute_linear in @shiguredo/rnnoise-wasm 2025.1.5, and the import that carries the hook. */
const LINEAR_FUNCTION = 51;
const LINEAR_SHA256 = "dbf6ab6b0d262439fbe9dc316767d4f44c74f22cf15afb246d86864d501110a7";
const HOOK_IMPORT = 2;
const HOOK_NAME = "wasi_snapshot_preview1.fd_write";
/** fd_write's 4th argument is a pointer into memory; this value marks a hook call instead. */
const HOOK_TAG = -0x2152_4111;
/** Bytes for the quantised input (the .wat's MAX_INPUTS). */
const SCRATCH_BYTES = 1024;

function withSimdLinearLayers(instantiate: typeof WebAssembly.instantiate) {
  return (source: unknown, imports?: WebAssembly.Imports) => {
    const patched = ArrayBuffer.isView(source) && imports ? patchRnnoise(new Uint8Array(source.buffer, source.byteOffset, source.byteLength)) : null;
    if (!patched) return (instantiate as (s: unknown, i?: WebAssembly.Imports) => Promise<unknown>)(source, imports);
    let exports: { memory: WebAssembly.Memory; malloc(n: number): number } | undefined;
    let kernel: { linear(layer: number, out: number, input: number, scratch: number): number } | undefined;
    let scratch = 0;
    const wasi = imports!.wasi_snapshot_preview1 as Record<string, (...a: number[]) => number>;
    const fdWrite = wasi.fd_write;
    const hooked: WebAssembly.Imports = {
      ...imports,
      wasi_snapshot_preview1: {
        ...wasi,
        fd_write: (a: number, b: number, c: number, d: number) => {
          if (d !== HOOK_TAG) return fdWrite(a, b, c, d);
          if (!kernel) {
            const module = new WebAssembly.Module(Buffer.from(RNNOISE_LINEAR_WASM, "base64"));
            kernel = new WebAssembly.Instance(module, { env: { memory: exports!.memory } }).exports as unknown as typeof kernel;
            scratch = exports!.malloc(SCRATCH_BYTES);
          }
          const done = kernel!.linear(a, b, c, scratch);
          if (done) stats.simdLayers++;
          else stats.originalLayers++;
          return done;
        },
      },
    };
    const fromBytes = instantiate as (b: Uint8Array, i: WebAssembly.Imports) => Promise<WebAssembly.WebAssemblyInstantiatedSource>;
    return fromBytes(patched, hooked).then((result) => {
      exports = result.instance.exports as unknown as typeof exports;
      stats.simd = true;
      return result;
    });
  };
}

/** The rewritten module, or null when these bytes are not the build the SIMD layers were written for. */
function patchRnnoise(bytes: Uint8Array): Uint8Array | null {
  try {
    if (importedFunctionName(bytes, HOOK_IMPORT) !== HOOK_NAME) return null;
    const body = functionBody(bytes, LINEAR_FUNCTION);
    if (createHash("sha256").update(body).digest("hex") !== LINEAR_SHA256) return null;
    return redirectThroughImport(bytes, LINEAR_FUNCTION, HOOK_IMPORT, HOOK_TAG);
  } catch {
    return null;
  }
}

/** RNNoise's own rate and frame (10 ms). */
export const RNNOISE_RATE = 48_000;
export const RNNOISE_FRAME = 480;
