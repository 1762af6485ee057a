/**
 * Ogg demuxing (RFC 3533): pages, packets reassembled across lacing, for the first logical
 * stream. Enough for Opus (RFC 7845) and for reading Vorbis' identification header.
 */
import { ascii, startsWith, view } from "./bytes.js";

export interface OggPage {
  offset: number;
  granule: bigint;
  serial: number;
  flags: number;
  /** Lacing values of the page. */
  segments: Uint8Array;
  /** Body offset. */
  body: number;
  /** Page length in bytes. */
  length: number;
}

export function pageAt(b: Uint8Array, off: number): OggPage | null {
  if (off + 27 > b.length || !startsWith(b, off, "OggS") || b[off + 4] !== 0) return null;
  const n = b[off + 26];
  if (off + 27 + n > b.length) return null;
  const segments = b.subarray(off + 27, off + 27 + n);
  let bodyLen = 0;
  for (const s of segments) bodyLen += s;
  const length = 27 + n + bodyLen;
  if (off + length > b.length) return null;
  const v = view(b);
  return { offset: off, granule: v.getBigInt64(off + 6, true), serial: v.getUint32(off + 14, true), flags: b[off + 5], segments, body: off + 27 + n, length };
}

export interface OggStream {
  serial: number;
  /** Packets of the first logical stream, in order (last one dropped if cut off). */
  packets: Uint8Array[];
  /** Granule of the last page that has one (-1 when none). */
  lastGranule: bigint;
}

/** Reads whole pages until the data ends or stops being Ogg (a truncated file keeps what was whole). */
export function readOgg(b: Uint8Array, opts: { headersOnly?: boolean } = {}): OggStream | null {
  let off = 0;
  let serial: number | null = null;
  const packets: Uint8Array[] = [];
  let pending: Uint8Array[] = [];
  let lastGranule = -1n;
  for (;;) {
    const page = pageAt(b, off);
    if (!page) break;
    off += page.length;
    serial ??= page.serial;
    if (page.serial !== serial) continue;
    if (page.granule !== -1n) lastGranule = page.granule;
    if (opts.headersOnly && packets.length >= 2) continue;
    let at = page.body;
    let start = at;
    for (const seg of page.segments) {
      at += seg;
      if (seg < 255) {
        pending.push(b.subarray(start, at));
        packets.push(pending.length === 1 ? pending[0] : concat(pending));
        pending = [];
        start = at;
      }
    }
    if (start < at) pending.push(b.subarray(start, at));
  }
  return serial === null ? null : { serial, packets, lastGranule };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export interface OpusHead {
  channels: number;
  preSkip: number;
  inputRate: number;
  mappingFamily: number;
  streamCount: number;
  coupledStreamCount: number;
  channelMappingTable: number[];
}

export function parseOpusHead(p: Uint8Array): OpusHead | null {
  if (p.length < 19 || ascii(p, 0, 8) !== "OpusHead") return null;
  const v = view(p);
  const channels = p[9];
  const mappingFamily = p[18];
  if (channels === 0) return null;
  if (mappingFamily === 0) {
    if (channels > 2) return null;
    return { channels, preSkip: v.getUint16(10, true), inputRate: v.getUint32(12, true), mappingFamily, streamCount: 1, coupledStreamCount: channels - 1, channelMappingTable: channels === 1 ? [0] : [0, 1] };
  }
  if (p.length < 21 + channels) return null;
  return {
    channels,
    preSkip: v.getUint16(10, true),
    inputRate: v.getUint32(12, true),
    mappingFamily,
    streamCount: p[19],
    coupledStreamCount: p[20],
    channelMappingTable: Array.from(p.subarray(21, 21 + channels)),
  };
}

export interface VorbisIdentification {
  channels: number;
  sampleRate: number;
}

export function parseVorbisIdentification(p: Uint8Array): VorbisIdentification | null {
  if (p.length < 30 || p[0] !== 1 || ascii(p, 1, 6) !== "vorbis") return null;
  const channels = p[11];
  const sampleRate = view(p).getUint32(12, true);
  return channels > 0 && sampleRate > 0 ? { channels, sampleRate } : null;
}
