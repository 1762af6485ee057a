/**
 * MP3 through LAME compiled to WebAssembly (the `wasm-media-encoders` package's mp3.wasm).
 * We drive the wasm exports directly instead of the package's async factory so that an encoder
 * can be created synchronously inside a busy worker; one wasm instance per thread serves every
 * encoder on it (each is a separate LAME state behind a handle).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { concatBytes } from "./bytes.js";

interface LameExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(n: number): number;
  free(p: number): void;
  enc_init(params: number): number;
  enc_get_pcm(ref: number, samples: number): number;
  enc_encode(ref: number, samples: number): number;
  enc_flush(ref: number): number;
  enc_get_out_buf(ref: number): number;
  enc_free(ref: number): void;
}

export const MP3_BITRATES = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] as const;
export const MP3_SAMPLE_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;

let lame: LameExports | null = null;

export function lameWasmPath(): string {
  return createRequire(import.meta.url).resolve("wasm-media-encoders/wasm/mp3");
}

function instance(): LameExports {
  if (lame) return lame;
  const module = new WebAssembly.Module(readFileSync(lameWasmPath()));
  const imports = {
    env: { emscripten_notify_memory_growth: () => {} },
    wasi_snapshot_preview1: {
      proc_exit: (code: number) => {
        throw new Error(`LAME exited with ${code}`);
      },
    },
  };
  const exports = new WebAssembly.Instance(module, imports).exports as unknown as LameExports;
  exports._initialize();
  lame = exports;
  return exports;
}

/** A constant-bitrate mono MP3 stream; input Float32 at the output sample rate. */
export class Mp3Stream {
  private readonly lib: LameExports;
  private ref: number;

  constructor(sampleRate: number, bitrateKbps: number) {
    if (!(MP3_SAMPLE_RATES as readonly number[]).includes(sampleRate)) throw new RangeError(`MP3 cannot use ${sampleRate} Hz`);
    if (!(MP3_BITRATES as readonly number[]).includes(bitrateKbps)) throw new RangeError(`MP3 cannot use ${bitrateKbps} kbps`);
    this.lib = instance();
    // Parameter block: u32 channels, u32 input rate, i32 CBR bitrate, f32 VBR quality (-1 = off),
    // i32 output rate. 0 would let LAME pick a lower rate for low bitrates, so it is always set.
    const p = this.lib.malloc(20);
    const view = new DataView(this.lib.memory.buffer, p, 20);
    view.setUint32(0, 1, true);
    view.setUint32(4, sampleRate, true);
    view.setInt32(8, bitrateKbps, true);
    view.setFloat32(12, -1, true);
    view.setInt32(16, sampleRate, true);
    try {
      this.ref = this.lib.enc_init(p);
    } finally {
      this.lib.free(p);
    }
    if (!this.ref) throw new Error("LAME encoder initialisation failed");
  }

  encode(samples: Float32Array): Uint8Array {
    if (!this.ref) throw new Error("MP3 stream already finished");
    // LAME's input buffer is sized per call; large inputs go in slices to bound its memory.
    const parts: Uint8Array[] = [];
    for (let off = 0; off < samples.length; off += 65536) {
      const slice = samples.subarray(off, Math.min(samples.length, off + 65536));
      const channels = this.lib.enc_get_pcm(this.ref, slice.length);
      if (!channels) throw new Error("LAME input allocation failed");
      const left = new Uint32Array(this.lib.memory.buffer, channels, 1)[0];
      new Float32Array(this.lib.memory.buffer, left, slice.length).set(slice);
      const n = this.lib.enc_encode(this.ref, slice.length);
      if (n < 0) throw new Error(`LAME encode failed (${n})`);
      parts.push(this.output(n));
    }
    return concatBytes(parts);
  }

  finish(): Uint8Array {
    if (!this.ref) return new Uint8Array(0);
    const n = this.lib.enc_flush(this.ref);
    const out = n > 0 ? this.output(n) : new Uint8Array(0);
    this.close();
    if (n < 0) throw new Error(`LAME flush failed (${n})`);
    return out;
  }

  /** Releases the LAME state; safe to call twice (used when a request is abandoned). */
  close(): void {
    if (this.ref) this.lib.enc_free(this.ref);
    this.ref = 0;
  }

  private output(n: number): Uint8Array {
    const at = this.lib.enc_get_out_buf(this.ref);
    return new Uint8Array(this.lib.memory.buffer, at, n).slice();
  }
}

/** Samples per Layer III frame: 1152 for MPEG-1 rates (32 kHz and up), 576 below. */
export function mp3FrameSamples(sampleRate: number): number {
  return sampleRate >= 32000 ? 1152 : 576;
}

const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] } as Record<number, number[]>;

/**
 * Samples a decoder produces from a stream of Layer III frames (our own encoder's output): walks
 * the frame headers. Throws on anything that is not a frame, so a broken segment fails loudly.
 */
export function mp3StreamSamples(bytes: Uint8Array): number {
  let samples = 0;
  for (let i = 0; i < bytes.length; ) {
    if (i + 4 > bytes.length || bytes[i] !== 0xff || (bytes[i + 1] & 0xe0) !== 0xe0) throw new Error(`no MP3 frame at byte ${i}`);
    const version = (bytes[i + 1] >> 3) & 3;
    const layer = (bytes[i + 1] >> 1) & 3;
    const rate = RATES[version]?.[(bytes[i + 2] >> 2) & 3];
    const kbps = (version === 3 ? BITRATES_V1 : BITRATES_V2)[bytes[i + 2] >> 4];
    if (layer !== 1 || !rate || !kbps) throw new Error(`unsupported MP3 frame header at byte ${i}`);
    const padding = (bytes[i + 2] >> 1) & 1;
    const perFrame = version === 3 ? 1152 : 576;
    i += Math.floor(((perFrame / 8) * kbps * 1000) / rate) + padding;
    samples += perFrame;
  }
  return samples;
}
