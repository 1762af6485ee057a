/**
 * MPEG audio (MP3, and layers I/II) frame headers: enough to find the frames, count them for the
 * duration and check that a file really is a stream of frames before a decoder sees it.
 */
import type { AudioCodec } from "./types.js";

export interface MpegFrameHeader {
  /** 1 (MPEG-1), 2 (MPEG-2) or 2.5 */
  version: 1 | 2 | 2.5;
  layer: 1 | 2 | 3;
  sampleRate: number;
  channels: 1 | 2;
  /** Bytes of the whole frame, header included. */
  length: number;
  samples: number;
}

const BITRATES: Record<string, number[]> = {
  "1-1": [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  "1-2": [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  "1-3": [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  "2-1": [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  "2-2": [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  "2-3": [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const RATES = { 1: [44100, 48000, 32000], 2: [22050, 24000, 16000], 2.5: [11025, 12000, 8000] } as const;

export function mpegHeaderAt(b: Uint8Array, off: number): MpegFrameHeader | null {
  if (off + 4 > b.length || b[off] !== 0xff || (b[off + 1] & 0xe0) !== 0xe0) return null;
  const v = (b[off + 1] >> 3) & 3;
  const l = (b[off + 1] >> 1) & 3;
  const br = b[off + 2] >> 4;
  const sr = (b[off + 2] >> 2) & 3;
  if (v === 1 || l === 0 || br === 0 || br === 15 || sr === 3) return null; // reserved, or free format
  const version = v === 3 ? 1 : v === 2 ? 2 : 2.5;
  const layer = (4 - l) as 1 | 2 | 3;
  const kbps = BITRATES[`${version === 1 ? 1 : 2}-${layer}`][br];
  const sampleRate = RATES[version][sr];
  const padding = (b[off + 2] >> 1) & 1;
  const channels = ((b[off + 3] >> 6) & 3) === 3 ? 1 : 2;
  let length: number;
  let samples: number;
  if (layer === 1) {
    length = (Math.floor((12 * kbps * 1000) / sampleRate) + padding) * 4;
    samples = 384;
  } else if (layer === 2 || version === 1) {
    length = Math.floor((144 * kbps * 1000) / sampleRate) + padding;
    samples = 1152;
  } else {
    length = Math.floor((72 * kbps * 1000) / sampleRate) + padding;
    samples = 576;
  }
  return { version, layer, sampleRate, channels, length, samples };
}

/** Bytes of an ID3v2 tag at the start (0 when there is none). */
export function id3v2Length(b: Uint8Array): number {
  if (b.length < 10 || b[0] !== 0x49 || b[1] !== 0x44 || b[2] !== 0x33) return 0;
  const size = ((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f);
  const footer = b[5] & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

export interface MpegStream {
  codec: AudioCodec;
  sampleRate: number;
  channels: 1 | 2;
  /** Offset of the first audio frame. */
  start: number;
  /** Frames counted by walking headers (a Xing/Info frame excluded). */
  frames: number;
  samples: number;
}

/** How far past the tag to look for the first frame (some files have junk or padding first). */
const SYNC_SEARCH = 64 * 1024;

/** Walks the frames; null unless two consecutive valid frames are found near the start. */
export function scanMpeg(b: Uint8Array): MpegStream | null {
  const tag = id3v2Length(b);
  let start = -1;
  let first: MpegFrameHeader | null = null;
  for (let off = tag; off < Math.min(b.length, tag + SYNC_SEARCH); off++) {
    const h = mpegHeaderAt(b, off);
    if (!h) continue;
    const next = mpegHeaderAt(b, off + h.length);
    // A stream of one frame is not audio worth keeping; two matching frames make a stream.
    if (next && next.layer === h.layer && next.sampleRate === h.sampleRate) {
      start = off;
      first = h;
      break;
    }
  }
  if (!first) return null;
  let frames = 0;
  let samples = 0;
  let off = start;
  if (isInfoFrame(b, start, first)) off += first.length;
  for (;;) {
    const h = mpegHeaderAt(b, off);
    if (!h || h.sampleRate !== first.sampleRate || h.layer !== first.layer) break;
    // The last frame may be cut short (a truncated upload): count it only when it is whole.
    if (off + h.length > b.length) break;
    frames++;
    samples += h.samples;
    off += h.length;
  }
  if (frames === 0) return null;
  const codec: AudioCodec = first.layer === 3 ? "mp3" : first.layer === 2 ? "mp2" : "mp1";
  return { codec, sampleRate: first.sampleRate, channels: first.channels, start, frames, samples };
}

/** A LAME/Xing "Info"/"Xing" or Fraunhofer "VBRI" header frame: metadata, no audio. */
function isInfoFrame(b: Uint8Array, off: number, h: MpegFrameHeader): boolean {
  const side = h.version === 1 ? (h.channels === 1 ? 17 : 32) : h.channels === 1 ? 9 : 17;
  const at = off + 4 + side;
  const tag = String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);
  const vbri = String.fromCharCode(b[off + 36], b[off + 37], b[off + 38], b[off + 39]);
  return tag === "Xing" || tag === "Info" || vbri === "VBRI";
}
