// @echogarden/rnnoise-wasm ships no types: the slice of its Emscripten module we use.
declare module "@echogarden/rnnoise-wasm" {
  export interface RnnoiseModule {
    HEAPF32: Float32Array;
    _malloc(bytes: number): number;
    _free(ptr: number): void;
    _rnnoise_create(model: number): number;
    _rnnoise_destroy(state: number): void;
    _rnnoise_process_frame(state: number, out: number, input: number): number;
  }
  const createModule: (options?: Record<string, unknown>) => Promise<RnnoiseModule>;
  export default createModule;
}
