/**
 * Loading our hand-written WebAssembly kernels (*.wat, assembled into *.wasm.ts by
 * `npm run build:wasm`): each module owns its memory; callers copy inputs in and results out.
 * Where WebAssembly SIMD is missing (or a test turns the kernels off) `kernel()` gives null and
 * callers run their JavaScript loops, which compute the same bits.
 */
export interface KernelModule {
  memory: WebAssembly.Memory;
}

let enabled = true;

/** Tests compare the two paths: false makes every caller take its JavaScript loop. */
export function setSimdKernels(on: boolean): void {
  enabled = on;
}

/** A lazily instantiated kernel module: null when it cannot load here or kernels are off. */
export function lazyKernel<T extends KernelModule>(base64: string): () => T | null {
  let loaded: T | null | undefined;
  return () => {
    if (!enabled) return null;
    if (loaded === undefined) {
      try {
        const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
        loaded = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as unknown as T;
      } catch {
        loaded = null;
      }
    }
    return loaded;
  };
}

/** Makes a kernel's memory at least `bytes` long. */
export function reserve(k: KernelModule, bytes: number): ArrayBuffer {
  const have = k.memory.buffer.byteLength;
  if (bytes > have) k.memory.grow(Math.ceil((bytes - have) / 65_536));
  return k.memory.buffer;
}

/** 16-byte alignment for SIMD loads. */
export const align16 = (n: number) => (n + 15) & ~15;
