/** Duration and format from WAV and FLAC headers (both state them up front). */
import { ascii, view } from "./bytes.js";
import type { AudioCodec } from "./types.js";

export interface WavInfo {
  codec: AudioCodec;
  sampleRate: number;
  channels: number;
  frames: number;
}

const WAV_CODECS: Record<number, AudioCodec> = { 1: "pcm", 3: "float", 6: "alaw", 7: "mulaw" };

export function wavInfo(b: Uint8Array): WavInfo | null {
  if (b.length < 12 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WAVE") return null;
  const v = view(b);
  let format = 0, channels = 0, sampleRate = 0, bits = 0;
  for (let off = 12; off + 8 <= b.length; ) {
    const id = ascii(b, off, 4);
    const size = v.getUint32(off + 4, true);
    const body = off + 8;
    if (id === "fmt " && size >= 16 && body + 16 <= b.length) {
      format = v.getUint16(body, true);
      channels = v.getUint16(body + 2, true);
      sampleRate = v.getUint32(body + 4, true);
      bits = v.getUint16(body + 14, true);
      if (format === 0xfffe && size >= 26 && body + 26 <= b.length) format = v.getUint16(body + 24, true);
    } else if (id === "data") {
      const codec = WAV_CODECS[format];
      if (!codec || !channels || !sampleRate || bits % 8 !== 0 || bits === 0) return null;
      const available = b.length - body;
      // Streaming writers leave the size at 0 or 0xFFFFFFFF: what is there counts.
      const len = size === 0 || size > available ? available : size;
      const frames = Math.floor(len / ((bits / 8) * channels));
      return frames > 0 ? { codec, sampleRate, channels, frames } : null;
    }
    off = body + size + (size & 1);
  }
  return null;
}

export interface FlacInfo {
  sampleRate: number;
  channels: number;
  /** 0 when the encoder did not know (a piped stream). */
  totalSamples: number;
}

/** STREAMINFO, the first metadata block after "fLaC". */
export function flacInfo(b: Uint8Array): FlacInfo | null {
  if (b.length < 42 || ascii(b, 0, 4) !== "fLaC" || (b[4] & 0x7f) !== 0) return null;
  const s = 8;
  const sampleRate = (b[s + 10] << 12) | (b[s + 11] << 4) | (b[s + 12] >> 4);
  const channels = ((b[s + 12] >> 1) & 7) + 1;
  const totalSamples = (b[s + 13] & 0x0f) * 2 ** 32 + view(b).getUint32(s + 14);
  return sampleRate > 0 ? { sampleRate, channels, totalSamples } : null;
}
