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
  private encoded = 0;

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

  /** Samples encoded so far: what an Info frame's padding is computed from (mp3WithInfoFrame). */
  get samples(): number {
    return this.encoded;
  }

  encode(samples: Float32Array): Uint8Array {
    if (!this.handle) throw new Error("MP3 stream already finished");
    this.encoded += samples.length;
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

/**
 * LAME's encoder delay as its LAME tag states it: the samples of silence (576) it puts before the
 * input. Decoders add their own 529 (the MDCT's overlap), so a decoded LAME stream starts
 * MP3_DELAY = 1105 samples late at every rate and bitrate we use (measured with ffmpeg by
 * mp3.test.ts: an impulse comes out 1105 samples after its place in the input).
 */
export const LAME_ENCODER_DELAY = 576;
export const MP3_DECODER_DELAY = 529;
export const MP3_DELAY = LAME_ENCODER_DELAY + MP3_DECODER_DELAY;

const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] } as Record<number, number[]>;

interface Mp3Frame {
  offset: number;
  length: number;
}

/** Bytes of a Layer III frame of this MPEG version (header bits), bitrate index and rate, padding bit clear. */
function frameBytes(version: number, bitrateIndex: number, rate: number): number {
  const kbps = (version === 3 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex];
  return Math.floor((((version === 3 ? 1152 : 576) / 8) * kbps * 1000) / rate);
}

/**
 * The frames of a stream of Layer III frames (our own encoder's output), by walking the frame
 * headers. Throws on anything that is not a frame, so a broken segment fails loudly.
 */
function mp3Frames(bytes: Uint8Array): Mp3Frame[] {
  const frames: Mp3Frame[] = [];
  for (let i = 0; i < bytes.length; ) {
    if (i + 4 > bytes.length || bytes[i] !== 0xff || (bytes[i + 1] & 0xe0) !== 0xe0) throw new Error(`no MP3 frame at byte ${i}`);
    const version = (bytes[i + 1] >> 3) & 3;
    const layer = (bytes[i + 1] >> 1) & 3;
    const rate = RATES[version]?.[(bytes[i + 2] >> 2) & 3];
    const index = bytes[i + 2] >> 4;
    if (layer !== 1 || !rate || !index || index === 15) throw new Error(`unsupported MP3 frame header at byte ${i}`);
    const length = frameBytes(version, index, rate) + ((bytes[i + 2] >> 1) & 1);
    frames.push({ offset: i, length });
    i += length;
  }
  return frames;
}

/** Samples a decoder produces from a stream of Layer III frames (our own encoder's output). */
export function mp3StreamSamples(bytes: Uint8Array): number {
  const n = mp3Frames(bytes).length;
  return n === 0 ? 0 : n * (((bytes[1] >> 3) & 3) === 3 ? 1152 : 576);
}

/** CRC-16 as the LAME tag uses it (polynomial 0x8005 reflected, initial value 0): ffmpeg checks the tag's with the same. */
export function lameCrc16(bytes: Uint8Array, crc = 0): number {
  // A byte at a time from a table: the bitwise loop took about 100 ms of the request loop for a
  // minute of 128 kbit/s MP3 (issue 24's storm profile: the loop's largest single cost).
  for (let i = 0; i < bytes.length; i++) crc = (crc >>> 8) ^ CRC16_TABLE[(crc ^ bytes[i]) & 0xff];
  return crc;
}

const CRC16_TABLE = Uint16Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  return crc;
});

/** "Info" and its fields (flags, frames, bytes, 100-byte table of contents, quality), then the 36-byte LAME tag. */
const INFO_BYTES = 4 + 4 + 4 + 4 + 100 + 4;
const LAME_TAG_BYTES = 36;

/**
 * A whole MP3 file from a stream of LAME's frames that stands for `samples` samples of PCM: an
 * "Info" frame first (the Xing header of a constant-bitrate stream, with a LAME tag), so that
 * decoders (ffmpeg, browsers, players) drop the encoder's delay at the start and its padding at
 * the end and play exactly the samples of the PCM, at their places.
 *
 * - The Info frame has the stream's MPEG version, rate and channel mode and a silent payload (a
 *   decoder that ignores the tag plays one frame of silence); its bitrate is the stream's, or the
 *   next one up when the tag does not fit in a frame that small (32 kbps at 22,050 Hz).
 * - The frames are made exactly as many as the samples need: ceil((1105 + samples) / frame). Extra
 *   frames at the end (a segmented stream that came out longer) hold nothing the PCM has and are
 *   left out; missing ones (one that came out shorter) are added as silent frames. Either way no
 *   frame that a kept one depends on (bit reservoir) goes, so the padding is always 529 to
 *   529 + frame - 1 samples, as LAME itself writes it.
 * - The tag's delay is 576 (decoders add their 529); its padding the frames' samples past the
 *   end less 529, likewise; its CRCs are those of the music after the frame and of the tag frame.
 *
 * Pure: the same stream and count give the same bytes. Only for whole answers: a stream sent as
 * it is made cannot know its length when its first frame goes out, so streamed MP3 keeps the raw
 * frames (and its delay).
 */
export function mp3WithInfoFrame(stream: Uint8Array, samples: number): Uint8Array {
  const frames = mp3Frames(stream);
  if (frames.length === 0) return stream;
  const h = stream.subarray(0, 4);
  const version = (h[1] >> 3) & 3;
  const rate = RATES[version][(h[2] >> 2) & 3];
  const spf = version === 3 ? 1152 : 576;
  const mono = h[3] >> 6 === 3;
  const sideInfo = version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17;
  // Two frames at least: ffmpeg takes a file for MP3 only when a second frame follows the first.
  const wanted = Math.max(2, Math.ceil((MP3_DELAY + Math.max(0, samples)) / spf));

  // The music: the frames kept, then silent ones (header, all-zero side info: nothing coded).
  const streamIndex = h[2] >> 4;
  const silentLength = frameBytes(version, streamIndex, rate);
  const kept = frames.slice(0, wanted);
  const keptBytes = kept.reduce((n, f) => n + f.length, 0);
  const missing = wanted - kept.length;
  const music = new Uint8Array(keptBytes + missing * silentLength);
  music.set(stream.subarray(0, keptBytes));
  for (let k = 0; k < missing; k++) {
    const at = keptBytes + k * silentLength;
    // No CRC (protection bit set), no padding bit, no private bit.
    music.set([0xff, h[1] | 1, h[2] & 0xfc, h[3]], at);
  }

  // The Info frame's bitrate: the stream's if the tag fits, else the smallest bigger one that does.
  const needed = 4 + sideInfo + INFO_BYTES + LAME_TAG_BYTES;
  let index = streamIndex;
  while (index < 14 && frameBytes(version, index, rate) < needed) index++;
  const infoLength = frameBytes(version, index, rate);
  const info = new Uint8Array(infoLength);
  const view = new DataView(info.buffer);
  info.set([0xff, h[1] | 1, (index << 4) | (h[2] & 0x0c), h[3]]);
  const total = infoLength + music.length;
  let at = 4 + sideInfo;
  info.set([0x49, 0x6e, 0x66, 0x6f], at); // "Info": constant bitrate
  view.setUint32(at + 4, 0x0f); // frames, bytes, table of contents and quality are present
  view.setUint32(at + 8, wanted);
  view.setUint32(at + 12, total);
  // A constant bitrate's table of contents is a straight line: i % of the time at i % of the bytes.
  for (let i = 0; i < 100; i++) info[at + 16 + i] = Math.floor((i * 256) / 100);
  view.setUint32(at + 116, 0);
  at += INFO_BYTES;
  info.set(new TextEncoder().encode("LAME3.100"), at);
  info[at + 9] = 0x01; // tag revision 0, constant bitrate
  // Lowpass, peak, replay gains, encoding flags: 0 (unknown); bitrate; delay and padding (12 bits each).
  info[at + 20] = Math.min(255, (version === 3 ? BITRATES_V1 : BITRATES_V2)[streamIndex]);
  const padding = wanted * spf - LAME_ENCODER_DELAY - Math.max(0, samples);
  info[at + 21] = LAME_ENCODER_DELAY >> 4;
  info[at + 22] = ((LAME_ENCODER_DELAY & 0x0f) << 4) | (padding >> 8);
  info[at + 23] = padding & 0xff;
  // Misc, MP3 gain, preset and surround: 0. Music length: the whole file, this frame included.
  view.setUint32(at + 28, total);
  view.setUint16(at + 32, lameCrc16(music));
  view.setUint16(at + 34, lameCrc16(info.subarray(0, at + 34)));
  const out = new Uint8Array(total);
  out.set(info);
  out.set(music, infoLength);
  return out;
}
