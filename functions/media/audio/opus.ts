/**
 * Ogg Opus (RFC 7845) from libopus compiled to WebAssembly (the `opusscript` package, MIT):
 * 20 ms mono frames at 48 kHz, our own Ogg muxing around the raw packets.
 */
import { createRequire } from "node:module";
import { OggWriter } from "./ogg.js";
import { concatBytes } from "./bytes.js";

/**
 * opusscript's native module (embind). Its JS wrapper views buffers at twice their address, so
 * several live encoders corrupt each other; we drive the native handler with our own buffers.
 * The handler's `_encode` takes 16-bit slots holding one byte each (low, high) and packs them
 * into samples in place before calling opus_encode.
 */
interface OpusHandler {
  _encode(input: number, samples: number, output: number, frameSize: number): number;
  _encoder_ctl(ctl: number, value: number): number;
}
interface OpusNative {
  OpusScriptHandler: { new (rate: number, channels: number, application: number): OpusHandler; destroy_handler(h: OpusHandler): void };
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}

const OPUS_APPLICATION_AUDIO = 2049;
const OPUS_SET_BITRATE = 4002;
const OPUS_SET_COMPLEXITY = 4010;
const OPUS_RATE = 48000;
const FRAME = 960;
const MAX_PACKET = 1276 * 3;
/** libopus' lookahead at 48 kHz for the audio application (2.5 ms + 4 ms delay compensation). */
export const OPUS_PRE_SKIP = 312;

let native: OpusNative | null = null;
function opusNative(): OpusNative {
  native ??= (createRequire(import.meta.url)("opusscript/build/opusscript_native_wasm.js") as () => OpusNative)();
  return native;
}

class OpusFrameEncoder {
  private readonly lib = opusNative();
  private readonly handler: OpusHandler;
  private readonly input: number;
  private readonly output: number;

  constructor(bitrate: number, complexity: number) {
    this.handler = new this.lib.OpusScriptHandler(OPUS_RATE, 1, OPUS_APPLICATION_AUDIO);
    this.input = this.lib._malloc(FRAME * 4);
    this.output = this.lib._malloc(MAX_PACKET);
    if (this.handler._encoder_ctl(OPUS_SET_BITRATE, bitrate) < 0) throw new Error(`Opus rejected bitrate ${bitrate}`);
    this.handler._encoder_ctl(OPUS_SET_COMPLEXITY, complexity);
  }

  encode(frame: Int16Array): Uint8Array {
    // Views are taken per call: the wasm heap may have grown since the last one.
    const slots = new Uint16Array(this.lib.HEAPU8.buffer, this.input, FRAME * 2);
    for (let i = 0; i < FRAME; i++) {
      slots[2 * i] = frame[i] & 0xff;
      slots[2 * i + 1] = (frame[i] >> 8) & 0xff;
    }
    const n = this.handler._encode(this.input, FRAME, this.output, FRAME);
    if (n < 0) throw new Error(`Opus encode failed (${n})`);
    return this.lib.HEAPU8.slice(this.output, this.output + n);
  }

  delete(): void {
    this.lib.OpusScriptHandler.destroy_handler(this.handler);
    this.lib._free(this.input);
    this.lib._free(this.output);
  }
}

export interface OggOpusOptions {
  /** Rate of the original audio, recorded in the header for players that want it. */
  inputSampleRate?: number;
  /** Ogg stream serial; fixed by default so output is reproducible. */
  serial?: number;
  /** 0..10; 5 halves the cost of 10 with no audible loss for speech at these bitrates. */
  complexity?: number;
}

export class OggOpusStream {
  private readonly encoder: OpusFrameEncoder;
  private readonly ogg: OggWriter;
  private readonly inputRate: number;
  private pending = new Int16Array(FRAME);
  private pendingLen = 0;
  private packets = 0;
  private samples = 0;
  private headerSent = false;
  private finished = false;

  constructor(bitrateKbps: number, opts: OggOpusOptions = {}) {
    this.encoder = new OpusFrameEncoder(bitrateKbps * 1000, opts.complexity ?? 5);
    this.ogg = new OggWriter(opts.serial ?? 0x54696d62);
    this.inputRate = opts.inputSampleRate ?? OPUS_RATE;
  }

  /** Takes 48 kHz samples; returns the Ogg pages completed by them. */
  encode(pcm: Int16Array): Uint8Array {
    if (this.finished) throw new Error("Opus stream already finished");
    const out = this.headers();
    const packets: Uint8Array[] = [];
    this.samples += pcm.length;
    let i = 0;
    while (i < pcm.length) {
      const n = Math.min(FRAME - this.pendingLen, pcm.length - i);
      this.pending.set(pcm.subarray(i, i + n), this.pendingLen);
      this.pendingLen += n;
      i += n;
      if (this.pendingLen === FRAME) packets.push(this.frame());
    }
    if (packets.length) out.push(...this.ogg.pages(packets, BigInt(this.packets * FRAME)));
    return concatBytes(out);
  }

  finish(): Uint8Array {
    if (this.finished) return new Uint8Array(0);
    const out = this.headers();
    // Feed silence until the encoder's lookahead has pushed out the last real sample.
    const packets: Uint8Array[] = [];
    while (this.packets * FRAME < OPUS_PRE_SKIP + this.samples || this.pendingLen > 0) {
      this.pending.fill(0, this.pendingLen);
      this.pendingLen = FRAME;
      packets.push(this.frame());
    }
    // The last granule tells decoders where the real audio ends, trimming the padding.
    out.push(...this.ogg.pages(packets, BigInt(OPUS_PRE_SKIP + this.samples), { eos: true }));
    this.close();
    return concatBytes(out);
  }

  close(): void {
    if (!this.finished) this.encoder.delete();
    this.finished = true;
  }

  private frame(): Uint8Array {
    const packet = this.encoder.encode(this.pending);
    this.packets++;
    this.pendingLen = 0;
    return packet;
  }

  private headers(): Uint8Array[] {
    if (this.headerSent) return [];
    this.headerSent = true;
    const head = new Uint8Array(19);
    const hv = new DataView(head.buffer);
    head.set(new TextEncoder().encode("OpusHead"), 0);
    head[8] = 1; // version
    head[9] = 1; // channels
    hv.setUint16(10, OPUS_PRE_SKIP, true);
    hv.setUint32(12, this.inputRate, true);
    hv.setInt16(16, 0, true); // output gain
    head[18] = 0; // mapping family: mono/stereo
    const vendor = new TextEncoder().encode("timbre");
    const tags = new Uint8Array(8 + 4 + vendor.length + 4);
    const tv = new DataView(tags.buffer);
    tags.set(new TextEncoder().encode("OpusTags"), 0);
    tv.setUint32(8, vendor.length, true);
    tags.set(vendor, 12);
    tv.setUint32(12 + vendor.length, 0, true);
    return [...this.ogg.pages([head], 0n, { bos: true }), ...this.ogg.pages([tags], 0n)];
  }
}
