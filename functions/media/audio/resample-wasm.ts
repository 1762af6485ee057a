/**
 * The resamplers' inner loops in WebAssembly SIMD (resample-kernels.wat): the same output bits as
 * the JavaScript loops in ./resample.ts, at about half the CPU. The kernels work in their own
 * linear memory; each call copies its inputs in and its output out (a small cost beside the
 * filtering: tens of multiply-adds per output sample). Where WebAssembly SIMD is missing the
 * loader returns null and the JavaScript loops run.
 */
import { RESAMPLE_KERNELS_WASM } from "./resample-kernels.wasm.js";
import { align16 as align, lazyKernel, reserve, type KernelModule } from "./wasm/kernels.js";

export { setSimdKernels } from "./wasm/kernels.js";

interface Exports extends KernelModule {
  k: WebAssembly.Global;
  phase: WebAssembly.Global;
  polyphase(buf: number, coeffs: number, taps: number, out: number, n: number, k: number, phase: number, up: number, down: number, bufStart: number, half: number, last: number): number;
  halfband(c: number, pairs: number, x: number, offset: number, count: number, out: number): void;
}

const kernels = lazyKernel<Exports>(RESAMPLE_KERNELS_WASM);

/** The kernels load here (WebAssembly SIMD is available). */
export function simdKernelsAvailable(): boolean {
  return kernels() !== null;
}

/** The coefficient table now at offset 0, so a resampler called chunk after chunk copies it once. */
let coeffsLoaded: Float32Array | null = null;

export interface PolyphaseState {
  k: number;
  phase: number;
}

/**
 * ./resample.ts's polyphase loop: outputs into `out` (at most out.length) while k + half <= last;
 * `buf` holds the input from index bufStart. Returns the number of outputs and updates `state`,
 * or -1 when the kernels are not available.
 */
export function polyphaseRun(
  buf: Float32Array,
  coeffs: Float32Array,
  taps: number,
  out: Float32Array,
  state: PolyphaseState,
  up: number,
  down: number,
  bufStart: number,
  half: number,
  last: number,
): number {
  const k = kernels();
  if (!k || taps % 4 !== 0 || last > 0x7fff_ffff || up * taps > 0x1fff_ffff) return -1;
  const cAt = 0;
  const bufAt = align(coeffs.byteLength);
  const outAt = align(bufAt + buf.byteLength);
  const mem = reserve(k, outAt + out.byteLength);
  if (coeffsLoaded !== coeffs) {
    new Float32Array(mem, cAt, coeffs.length).set(coeffs);
    coeffsLoaded = coeffs;
  }
  new Float32Array(mem, bufAt, buf.length).set(buf);
  const n = k.polyphase(bufAt, cAt, taps, outAt, out.length, state.k, state.phase, up, down, bufStart, half, last);
  out.set(new Float32Array(mem, outAt, n));
  state.k = k.k.value as number;
  state.phase = k.phase.value as number;
  return n;
}

/**
 * ./resample.ts's half-band loop: out[outOffset + 2m] = x[i], out[outOffset + 2m + 1] = the
 * filtered sample, i = offset + m, m < count. Returns false when the kernels are not available.
 */
export function halfbandRunSimd(c: Float64Array, x: Float64Array, offset: number, count: number, out: Float32Array, outOffset: number): boolean {
  const k = kernels();
  if (!k) return false;
  if (coeffsLoaded) coeffsLoaded = null; // offset 0 is reused here
  const pairs = c.length;
  // x up to offset + count + pairs (one past the last sample read), zero past what the caller has.
  const need = Math.max(0, offset + count + pairs + 1 - x.length);
  const xLen = x.length + need;
  const cAt = 0;
  const xAt = align(c.byteLength);
  const outAt = align(xAt + 8 * xLen);
  const mem = reserve(k, outAt + 8 * count);
  new Float64Array(mem, cAt, pairs).set(c);
  const xs = new Float64Array(mem, xAt, xLen);
  xs.set(x);
  if (need) xs.fill(0, x.length);
  k.halfband(cAt, pairs, xAt, offset, count, outAt);
  out.set(new Float32Array(mem, outAt, 2 * count), outOffset);
  return true;
}
