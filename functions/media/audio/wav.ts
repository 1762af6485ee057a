/** RIFF/WAVE: a 16-bit mono writer and a tolerant reader (PCM 8/16/24/32, float, G.711, extensible). */
import { decodeAlawSample, decodeMulawSample } from "./g711.js";

export function wavHeader(sampleRate: number, dataBytes: number, bitsPerSample = 16, channels = 1): Uint8Array {
  const h = new Uint8Array(44);
  const v = new DataView(h.buffer);
  const text = (off: number, s: string) => { for (let i = 0; i < s.length; i++) h[off + i] = s.charCodeAt(i); };
  const blockAlign = (channels * bitsPerSample) / 8;
  text(0, "RIFF");
  v.setUint32(4, Math.min(0xffffffff, 36 + dataBytes), true);
  text(8, "WAVE");
  text(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * blockAlign, true);
  v.setUint16(32, blockAlign, true);
  v.setUint16(34, bitsPerSample, true);
  text(36, "data");
  v.setUint32(40, Math.min(0xffffffff, dataBytes), true);
  return h;
}

/** Little-endian bytes of 16-bit samples, whatever the host byte order. */
/** True on little-endian hosts (every one we run on): 16-bit PCM in memory is already WAV's byte order. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Writes `pcm` little-endian into `out` at `at`: one memory copy on a little-endian host. */
function writeInt16LE(pcm: Int16Array, out: Uint8Array, at: number): void {
  if (LITTLE_ENDIAN) {
    out.set(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength), at);
    return;
  }
  const v = new DataView(out.buffer, out.byteOffset + at, pcm.length * 2);
  for (let i = 0; i < pcm.length; i++) v.setInt16(i * 2, pcm[i], true);
}

export function int16ToBytesLE(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length * 2);
  writeInt16LE(pcm, out, 0);
  return out;
}

export function encodeWav(pcm: Int16Array, sampleRate: number): Uint8Array {
  const out = new Uint8Array(44 + pcm.length * 2);
  out.set(wavHeader(sampleRate, pcm.length * 2));
  writeInt16LE(pcm, out, 44);
  return out;
}

export interface DecodedAudio {
  /** Mono samples in [-1, 1] (channels are averaged). */
  pcm: Float32Array;
  sampleRate: number;
  channels: number;
}

export class WavFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WavFormatError";
  }
}

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_ALAW = 6;
const FORMAT_MULAW = 7;
const FORMAT_EXTENSIBLE = 0xfffe;

interface WavLayout {
  format: number;
  channels: number;
  sampleRate: number;
  bits: number;
  dataOff: number;
  dataLen: number;
}

function wavLayout(bytes: Uint8Array): WavLayout {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (off: number) => String.fromCharCode(bytes[off], bytes[off + 1], bytes[off + 2], bytes[off + 3]);
  if (bytes.length < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new WavFormatError("not a RIFF/WAVE file");
  let format = 0, channels = 0, sampleRate = 0, bits = 0;
  let dataOff = -1, dataLen = 0;
  for (let off = 12; off + 8 <= bytes.length; ) {
    const id = tag(off);
    const size = v.getUint32(off + 4, true);
    const body = off + 8;
    if (id === "fmt ") {
      if (size < 16) throw new WavFormatError("short fmt chunk");
      format = v.getUint16(body, true);
      channels = v.getUint16(body + 2, true);
      sampleRate = v.getUint32(body + 4, true);
      bits = v.getUint16(body + 14, true);
      if (format === FORMAT_EXTENSIBLE && size >= 26) format = v.getUint16(body + 24, true);
    } else if (id === "data") {
      dataOff = body;
      // Streaming writers leave 0 or 0xFFFFFFFF: take what is there.
      dataLen = size === 0 || body + size > bytes.length ? bytes.length - body : size;
      break;
    }
    off = body + size + (size & 1);
  }
  if (!channels || !sampleRate || dataOff < 0) throw new WavFormatError("missing fmt or data chunk");
  return { format, channels, sampleRate, bits, dataOff, dataLen };
}

/**
 * The samples of a mono 16-bit WAV (our own recordings and samples) as they are stored: one copy,
 * no conversion (the analyser's workers take 16-bit PCM as v / 32768). Undefined for any other layout.
 */
export function wavPcm16(bytes: Uint8Array): { pcm16: Int16Array; sampleRate: number } | undefined {
  const w = wavLayout(bytes);
  if (w.format !== FORMAT_PCM || w.bits !== 16 || w.channels !== 1 || !LITTLE_ENDIAN) return undefined;
  const frames = Math.floor(w.dataLen / 2);
  return { pcm16: new Int16Array(bytes.slice(w.dataOff, w.dataOff + frames * 2).buffer), sampleRate: w.sampleRate };
}

/**
 * The data of a WAV in pieces of at most `chunkFrames` frames (mono, the channels averaged), so a
 * long file is never held decoded whole: the caller stops reading when it has had enough.
 */
export function* decodeWavChunks(bytes: Uint8Array, chunkFrames = 65536): Generator<Float32Array, void, void> {
  const { format, channels, bits, dataOff, dataLen } = wavLayout(bytes);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bytesPer = bits / 8;
  const frame = bytesPer * channels;
  if (!Number.isInteger(bytesPer) || bytesPer < 1) throw new WavFormatError(`unsupported bit depth ${bits}`);
  const frames = Math.floor(dataLen / frame);
  const read = sampleReader(format, bits, v, bytes);
  for (let start = 0; start < frames; start += chunkFrames) {
    const n = Math.min(chunkFrames, frames - start);
    const pcm = new Float32Array(n);
    for (let f = 0; f < n; f++) {
      const at = dataOff + (start + f) * frame;
      let acc = 0;
      for (let c = 0; c < channels; c++) acc += read(at + c * bytesPer);
      pcm[f] = acc / channels;
    }
    yield pcm;
  }
}

export function decodeWav(bytes: Uint8Array): DecodedAudio {
  const { format, channels, sampleRate, bits, dataOff, dataLen } = wavLayout(bytes);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bytesPer = bits / 8;
  const frame = bytesPer * channels;
  if (!Number.isInteger(bytesPer) || bytesPer < 1) throw new WavFormatError(`unsupported bit depth ${bits}`);
  const frames = Math.floor(dataLen / frame);
  if (format === FORMAT_PCM && bits === 16 && channels === 1 && LITTLE_ENDIAN) {
    // Mono 16-bit (our own recordings and samples): the same floats as the loop below, v / 32768.
    const pcm16 = new Int16Array(bytes.slice(dataOff, dataOff + frames * 2).buffer);
    const pcm = new Float32Array(frames);
    for (let f = 0; f < frames; f++) pcm[f] = pcm16[f] / 32768;
    return { pcm, sampleRate, channels };
  }
  const read = sampleReader(format, bits, v, bytes);
  const pcm = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let acc = 0;
    for (let c = 0; c < channels; c++) acc += read(dataOff + f * frame + c * bytesPer);
    pcm[f] = acc / channels;
  }
  return { pcm, sampleRate, channels };
}

function sampleReader(format: number, bits: number, v: DataView, bytes: Uint8Array): (off: number) => number {
  if (format === FORMAT_PCM) {
    if (bits === 8) return (o) => (bytes[o] - 128) / 128;
    if (bits === 16) return (o) => v.getInt16(o, true) / 32768;
    if (bits === 24) return (o) => ((bytes[o] | (bytes[o + 1] << 8) | (bytes[o + 2] << 16)) << 8 >> 8) / 8388608;
    if (bits === 32) return (o) => v.getInt32(o, true) / 2147483648;
  }
  if (format === FORMAT_FLOAT) {
    if (bits === 32) return (o) => v.getFloat32(o, true);
    if (bits === 64) return (o) => v.getFloat64(o, true);
  }
  if (format === FORMAT_MULAW && bits === 8) return (o) => decodeMulawSample(bytes[o]) / 32768;
  if (format === FORMAT_ALAW && bits === 8) return (o) => decodeAlawSample(bytes[o]) / 32768;
  throw new WavFormatError(`unsupported WAV encoding (format ${format}, ${bits} bits)`);
}
