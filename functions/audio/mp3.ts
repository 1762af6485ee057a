/**
 * MP3 through LAME compiled to WebAssembly: the build inside `@mediabunny/mp3-encoder` (pinned
 * version), which runs at about the speed of native LAME here, a quarter faster than the `-Oz`
 * build of `wasm-media-encoders` used before (issue 14). LAME runs at its default quality (3),
 * as ffmpeg's libmp3lame does unless told otherwise.
 *
 * The package wraps the module for browsers (an Emscripten loader with the wasm inlined as
 * base64, loaded in a Web Worker); we read the module and the names of its exports and imports
 * out of that loader and drive the exports directly, so an encoder is created synchronously inside
 * a busy engine worker. One instance per thread serves every encoder on it (each is a separate
 * LAME state behind a handle). A build whose loader does not match fails loudly at first use.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { concatBytes } from "./bytes.js";
import { roundToInt16 } from "./resample.js";

interface LameExports {
  memory: WebAssembly.Memory;
  ctors(): void;
  malloc(n: number): number;
  free(p: number): void;
  /** (channels, sample rate, bitrate in bit/s) -> LAME handle; output rate = input rate, CBR. */
  init_lame(channels: number, sampleRate: number, bitrate: number): number;
  /** (handle, left int16*, right int16*, samples, out*, out size) -> bytes written or < 0. */
  encode_samples(h: number, left: number, right: number, samples: number, out: number, size: number): number;
  flush_lame(h: number, out: number, size: number): number;
  close_lame(h: number): void;
}

export const MP3_BITRATES = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] as const;
export const MP3_SAMPLE_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;

let lame: LameExports | null = null;

const LOADER = join("@mediabunny", "mp3-encoder", "dist", "modules", "build", "lame.js");

/**
 * The package's Emscripten loader (not in its `exports` map): looked up along the same
 * node_modules folders module resolution searches, so the package's main entry (a 0.3 MB browser
 * bundle we never run) need not be there: the Lambda asset carries only this file.
 */
export function lameLoaderPath(): string {
  const folders = createRequire(import.meta.url).resolve.paths("@mediabunny/mp3-encoder") ?? [];
  const found = folders.map((folder) => join(folder, LOADER)).find((path) => existsSync(path));
  if (!found) throw new Error(`@mediabunny/mp3-encoder is not installed (${LOADER} not found in ${folders.join(", ")})`);
  return found;
}

function instance(): LameExports {
  if (lame) return lame;
  const loader = readFileSync(lameLoaderPath(), "utf8");
  const fail = (what: string): never => {
    throw new Error(`unexpected @mediabunny/mp3-encoder build (${what} not found in ${lameLoaderPath()})`);
  };
  const base64 = /base64Decode\("([A-Za-z0-9+/=]+)"\)/.exec(loader)?.[1] ?? fail("the inlined module");
  const exported = new Map<string, string>();
  for (const m of loader.matchAll(/Module\["_(\w+)"\] = _\w+ = wasmExports\["(\w+)"\]/g)) exported.set(m[1], m[2]);
  const memoryName = /wasmMemory = wasmExports\["(\w+)"\]/.exec(loader)?.[1] ?? fail("the memory export");
  const ctorsName = /wasmExports\["(\w+)"\]\(\)/.exec(loader)?.[1] ?? fail("the constructors export");
  const importList = /wasmImports = \{([^}]*)\}/.exec(loader)?.[1] ?? fail("the imports");
  const imported = new Map(importList.split(",").map((pair) => pair.split(":").map((x) => x.trim()) as [string, string]));

  let memory: WebAssembly.Memory | null = null;
  const impls: Record<string, (...a: number[]) => number> = {
    _emscripten_resize_heap: (requested) => {
      const mem = memory!;
      const need = (requested >>> 0) - mem.buffer.byteLength;
      try {
        if (need > 0) mem.grow(Math.ceil(need / 65536));
        return 1;
      } catch {
        return 0;
      }
    },
    _exit: (code) => {
      throw new Error(`LAME exited with ${code}`);
    },
    // LAME only writes diagnostics; nothing seeks.
    _fd_seek: () => 70,
    _fd_write: (_fd, iov, iovcnt, pnum) => {
      const view = new DataView(memory!.buffer);
      let n = 0;
      for (let i = 0; i < iovcnt; i++) n += view.getUint32(iov + i * 8 + 4, true);
      view.setUint32(pnum, n, true);
      return 0;
    },
  };
  const module = new WebAssembly.Module(Buffer.from(base64, "base64"));
  const moduleName = WebAssembly.Module.imports(module)[0]?.module ?? fail("the import module");
  const env: Record<string, (...a: number[]) => number> = {};
  for (const [short, name] of imported) env[short] = impls[name] ?? fail(`an implementation of ${name}`);
  const raw = new WebAssembly.Instance(module, { [moduleName]: env }).exports;
  const fn = (name: string) => (raw[exported.get(name) ?? fail(`_${name}`)] as (...a: number[]) => number) ?? fail(`_${name}`);
  memory = raw[memoryName] as WebAssembly.Memory;
  const exports: LameExports = {
    memory,
    ctors: raw[ctorsName] as () => void,
    malloc: fn("malloc"),
    free: fn("free"),
    init_lame: fn("init_lame"),
    encode_samples: fn("encode_samples"),
    flush_lame: fn("flush_lame"),
    close_lame: fn("close_lame"),
  };
  exports.ctors();
  lame = exports;
  return exports;
}

/** Samples per encode call: bounds LAME's buffers. */
const SLICE = 65536;

/** A constant-bitrate mono MP3 stream; input Float32 at the output sample rate. */
export class Mp3Stream {
  private readonly lib: LameExports;
  private handle: number;
  private input: number;
  private output: number;
  private readonly outputSize = Math.ceil(1.25 * SLICE + 7200);

  constructor(sampleRate: number, bitrateKbps: number) {
    if (!(MP3_SAMPLE_RATES as readonly number[]).includes(sampleRate)) throw new RangeError(`MP3 cannot use ${sampleRate} Hz`);
    if (!(MP3_BITRATES as readonly number[]).includes(bitrateKbps)) throw new RangeError(`MP3 cannot use ${bitrateKbps} kbps`);
    this.lib = instance();
    this.handle = this.lib.init_lame(1, sampleRate, bitrateKbps * 1000);
    if (!this.handle) throw new Error("LAME encoder initialisation failed");
    this.input = this.lib.malloc(SLICE * 2);
    this.output = this.lib.malloc(this.outputSize);
    if (!this.input || !this.output) {
      this.close();
      throw new Error("LAME buffer allocation failed");
    }
  }

  encode(samples: Float32Array): Uint8Array {
    if (!this.handle) throw new Error("MP3 stream already finished");
    const parts: Uint8Array[] = [];
    for (let off = 0; off < samples.length; off += SLICE) {
      const n = Math.min(SLICE, samples.length - off);
      // 16-bit input, rounded and clipped the same way as every other 16-bit output here.
      const pcm = new Int16Array(this.lib.memory.buffer, this.input, n);
      for (let i = 0; i < n; i++) pcm[i] = roundToInt16(samples[off + i] * 32768);
      const written = this.lib.encode_samples(this.handle, this.input, this.input, n, this.output, this.outputSize);
      if (written < 0) throw new Error(`LAME encode failed (${written})`);
      parts.push(this.bytes(written));
    }
    return concatBytes(parts);
  }

  finish(): Uint8Array {
    if (!this.handle) return new Uint8Array(0);
    const written = this.lib.flush_lame(this.handle, this.output, this.outputSize);
    const out = written > 0 ? this.bytes(written) : new Uint8Array(0);
    this.close();
    if (written < 0) throw new Error(`LAME flush failed (${written})`);
    return out;
  }

  /** Releases the LAME state and buffers; safe to call twice (used when a request is abandoned). */
  close(): void {
    if (this.handle) this.lib.close_lame(this.handle);
    if (this.input) this.lib.free(this.input);
    if (this.output) this.lib.free(this.output);
    this.handle = 0;
    this.input = 0;
    this.output = 0;
  }

  private bytes(n: number): Uint8Array {
    return new Uint8Array(this.lib.memory.buffer, this.output, n).slice();
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
