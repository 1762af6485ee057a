import type { SniffedAudioType } from "../../media/audio/sniff.js";

/**
 * The duration of an uploaded sample, read from its container's headers (no decoding): WAV data
 * size, MP3 frames (or the Xing/Info frame count), the last Ogg granule, FLAC STREAMINFO, the
 * MP4 movie header, the WebM segment info. Every reader is one pass over at most the file's
 * bytes. Null when the container does not say (browser WebM recordings often do not).
 */
export function probeDuration(type: SniffedAudioType, b: Uint8Array): number | null {
  try {
    switch (type) {
      case "wav":
        return wavDuration(b);
      case "mp3":
        return mp3Duration(b);
      case "ogg":
        return oggDuration(b);
      case "flac":
        return flacDuration(b);
      case "mp4":
        return mp4Duration(b);
      case "webm":
        return webmDuration(b);
    }
  } catch {
    return null;
  }
}

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const tag = (b: Uint8Array, off: number) => String.fromCharCode(b[off], b[off + 1], b[off + 2], b[off + 3]);
const finite = (x: number) => (Number.isFinite(x) && x > 0 ? x : null);

function wavDuration(b: Uint8Array): number | null {
  const v = view(b);
  let byteRate = 0;
  for (let off = 12; off + 8 <= b.length; ) {
    const id = tag(b, off);
    const size = v.getUint32(off + 4, true);
    if (id === "fmt ") byteRate = v.getUint32(off + 16, true);
    if (id === "data") {
      // Streamed WAVs write 0 or 0xFFFFFFFF: the data then runs to the end of the file.
      const bytes = size === 0 || size === 0xffffffff || off + 8 + size > b.length ? b.length - off - 8 : size;
      return byteRate ? finite(bytes / byteRate) : null;
    }
    off += 8 + size + (size & 1);
  }
  return null;
}

const BITRATES: Record<string, number[]> = {
  "1-1": [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  "1-2": [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  "1-3": [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  "2-1": [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  "2-2": [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  "2-3": [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

interface MpegFrame {
  length: number;
  samples: number;
  sampleRate: number;
  mpeg1: boolean;
  mono: boolean;
}

function mpegFrame(b: Uint8Array, off: number): MpegFrame | null {
  if (off + 4 > b.length || b[off] !== 0xff || (b[off + 1] & 0xe0) !== 0xe0) return null;
  const versionBits = (b[off + 1] >> 3) & 3;
  const layerBits = (b[off + 1] >> 1) & 3;
  const bitrateIndex = b[off + 2] >> 4;
  const rateIndex = (b[off + 2] >> 2) & 3;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const layer = 4 - layerBits;
  const mpeg1 = versionBits === 3;
  const kbps = BITRATES[`${mpeg1 ? 1 : 2}-${layer}`][bitrateIndex];
  const sampleRate = RATES[versionBits][rateIndex];
  const padding = (b[off + 2] >> 1) & 1;
  const samples = layer === 1 ? 384 : layer === 2 || mpeg1 ? 1152 : 576;
  const length = layer === 1 ? Math.floor((12 * kbps * 1000) / sampleRate + padding) * 4 : Math.floor(((samples / 8) * kbps * 1000) / sampleRate) + padding;
  return { length, samples, sampleRate, mpeg1, mono: b[off + 3] >> 6 === 3 };
}

function mp3Duration(b: Uint8Array): number | null {
  let off = 0;
  if (tag(b, 0).startsWith("ID3")) {
    const size = ((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f);
    off = 10 + size + (b[5] & 0x10 ? 10 : 0);
  }
  while (off < b.length && !mpegFrame(b, off)) off++;
  const first = mpegFrame(b, off);
  if (!first) return null;
  // A Xing/Info frame (VBR encoders, LAME) gives the frame count directly.
  const xing = off + 4 + (first.mpeg1 ? (first.mono ? 17 : 32) : first.mono ? 9 : 17);
  const id = xing + 8 <= b.length ? tag(b, xing) : "";
  if ((id === "Xing" || id === "Info") && view(b).getUint32(xing + 4) & 1) {
    return finite((view(b).getUint32(xing + 8) * first.samples) / first.sampleRate);
  }
  let samples = 0;
  for (let f: MpegFrame | null = first; f && off < b.length; f = mpegFrame(b, off)) {
    samples += f.samples;
    off += f.length;
  }
  return finite(samples / first.sampleRate);
}

function oggDuration(b: Uint8Array): number | null {
  if (tag(b, 0) !== "OggS") return null;
  const segments = b[26];
  const body = 27 + segments;
  let rate = 0;
  let preSkip = 0;
  if (String.fromCharCode(...b.subarray(body, body + 8)) === "OpusHead") {
    rate = 48_000;
    preSkip = view(b).getUint16(body + 10, true);
  } else if (b[body] === 1 && String.fromCharCode(...b.subarray(body + 1, body + 7)) === "vorbis") {
    rate = view(b).getUint32(body + 12, true);
  } else if (String.fromCharCode(...b.subarray(body, body + 5)) === "\x7fFLAC") {
    const si = body + 13 + 4 + 10;
    rate = (b[si] << 12) | (b[si + 1] << 4) | (b[si + 2] >> 4);
  }
  if (!rate) return null;
  for (let off = b.length - 27; off >= 0; off--) {
    if (b[off] === 0x4f && tag(b, off) === "OggS") {
      const granule = Number(view(b).getBigUint64(off + 6, true));
      return finite((granule - preSkip) / rate);
    }
  }
  return null;
}

function flacDuration(b: Uint8Array): number | null {
  if (tag(b, 0) !== "fLaC" || (b[4] & 0x7f) !== 0) return null;
  const si = 8 + 10;
  const rate = (b[si] << 12) | (b[si + 1] << 4) | (b[si + 2] >> 4);
  const total = (b[si + 3] & 0x0f) * 2 ** 32 + view(b).getUint32(si + 4);
  return rate && total ? finite(total / rate) : null;
}

function mp4Duration(b: Uint8Array): number | null {
  const v = view(b);
  const walk = (start: number, end: number, want: string[]): number | null => {
    for (let off = start; off + 8 <= end; ) {
      let size = v.getUint32(off);
      const type = tag(b, off + 4);
      let header = 8;
      if (size === 1) {
        size = Number(v.getBigUint64(off + 8));
        header = 16;
      } else if (size === 0) size = end - off;
      if (size < header) return null;
      if (type === want[0]) {
        if (want.length > 1) return walk(off + header, Math.min(end, off + size), want.slice(1));
        const d = off + header;
        return b[d] === 1 ? finite(Number(v.getBigUint64(d + 24)) / v.getUint32(d + 20)) : finite(v.getUint32(d + 16) / v.getUint32(d + 12));
      }
      off += size;
    }
    return null;
  };
  return walk(0, b.length, ["moov", "mvhd"]);
}

function webmDuration(b: Uint8Array): number | null {
  const v = view(b);
  // EBML variable-length integers: the leading zeros of the first byte give the length.
  const vint = (off: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } => {
    const first = b[off];
    let length = 1;
    while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
    let value = keepMarker ? first : first & (0xff >> length);
    let allOnes = value === (0xff >> length);
    for (let i = 1; i < length; i++) {
      value = value * 256 + b[off + i];
      if (b[off + i] !== 0xff) allOnes = false;
    }
    return { value, length, unknown: allOnes };
  };
  const SEGMENT = 0x18538067;
  const INFO = 0x1549a966;
  const TIMECODE_SCALE = 0x2ad7b1;
  const DURATION = 0x4489;
  let scale = 1_000_000;
  let off = 0;
  let end = b.length;
  while (off < end) {
    const id = vint(off, true);
    const size = vint(off + id.length, false);
    const data = off + id.length + size.length;
    if (id.value === SEGMENT || id.value === INFO) {
      // Step into the element.
      off = data;
      if (id.value === INFO) end = size.unknown ? b.length : Math.min(b.length, data + size.value);
      continue;
    }
    if (id.value === TIMECODE_SCALE) {
      scale = 0;
      for (let i = 0; i < size.value; i++) scale = scale * 256 + b[data + i];
    }
    if (id.value === DURATION) {
      const ticks = size.value === 4 ? v.getFloat32(data) : v.getFloat64(data);
      return finite((ticks * scale) / 1e9);
    }
    if (size.unknown) return null;
    off = data + size.value;
  }
  return null;
}
