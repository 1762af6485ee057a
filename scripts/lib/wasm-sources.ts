/** Our hand-written WebAssembly: the text source, the generated module, the constant it exports. */
export const GENERATED_WASM = [
  { wat: "functions/media/audio/denoise/rnnoise-linear.wat", out: "functions/media/audio/denoise/rnnoise-linear.wasm.ts", name: "RNNOISE_LINEAR_WASM" },
  { wat: "functions/media/audio/resample-kernels.wat", out: "functions/media/audio/resample-kernels.wasm.ts", name: "RESAMPLE_KERNELS_WASM" },
  { wat: "functions/media/voice-analysis/fft-kernels.wat", out: "functions/media/voice-analysis/fft-kernels.wasm.ts", name: "FFT_KERNELS_WASM" },
  { wat: "functions/media/voice-analysis/pitch-kernels.wat", out: "functions/media/voice-analysis/pitch-kernels.wasm.ts", name: "PITCH_KERNELS_WASM" },
];

/** Assembles WebAssembly text (SIMD included) with wabt, a development dependency. */
export async function assembleWat(source: string, file: string): Promise<Uint8Array<ArrayBuffer>> {
  const wabt = await (await import("wabt")).default();
  const module = wabt.parseWat(file, source, { simd: true });
  try {
    module.validate();
    return Uint8Array.from(module.toBinary({ write_debug_names: false }).buffer);
  } finally {
    module.destroy();
  }
}
