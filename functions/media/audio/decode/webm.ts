/**
 * WebM / Matroska demuxing: the first audio track's codec and the frames of its SimpleBlocks and
 * Blocks (with Xiph, EBML and fixed lacing). Browsers' MediaRecorder writes the Segment and its
 * Clusters with "unknown" sizes and no Duration; both are handled (an unknown-size Cluster ends
 * where the next top-level element starts, and the duration comes from the last block's time).
 */
import { ascii, view } from "./bytes.js";

const ID = {
  EBML: 0x1a45dfa3,
  DocType: 0x4282,
  Segment: 0x18538067,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Duration: 0x4489,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackType: 0x83,
  CodecID: 0x86,
  CodecPrivate: 0x63a2,
  CodecDelay: 0x56aa,
  Audio: 0xe1,
  SamplingFrequency: 0xb5,
  Channels: 0x9f,
  Cluster: 0x1f43b675,
  Timecode: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
} as const;

/** Elements that live directly in a Segment: one of these ends an unknown-size Cluster. */
const SEGMENT_CHILDREN = new Set([0x114d9b74, ID.Info, ID.Tracks, ID.Cluster, 0x1c53bb6b, 0x1043a770, 0x1254c367, 0x1941a469]);
const UNKNOWN = -1;

interface Element {
  id: number;
  /** Body start; size UNKNOWN when the writer did not know it (live recording). */
  start: number;
  size: number;
}

/** An EBML element header at `off`; null when the bytes are not one. */
function elementAt(b: Uint8Array, off: number): Element | null {
  if (off >= b.length) return null;
  const first = b[off];
  const idLen = first >= 0x80 ? 1 : first >= 0x40 ? 2 : first >= 0x20 ? 3 : first >= 0x10 ? 4 : 0;
  if (!idLen || off + idLen >= b.length) return null;
  let id = 0;
  for (let i = 0; i < idLen; i++) id = id * 256 + b[off + i];
  const sizeAt = off + idLen;
  const s0 = b[sizeAt];
  let len = 1;
  while (len <= 8 && !(s0 & (0x80 >> (len - 1)))) len++;
  if (len > 8 || sizeAt + len > b.length) return null;
  let size = s0 & (0xff >> len);
  let allOnes = size === 0xff >> len;
  for (let i = 1; i < len; i++) {
    const c = b[sizeAt + i];
    size = size * 256 + c;
    if (c !== 0xff) allOnes = false;
  }
  return { id, start: sizeAt + len, size: allOnes ? UNKNOWN : size };
}

function uint(b: Uint8Array, e: Element): number {
  let n = 0;
  for (let i = 0; i < e.size && i < 8; i++) n = n * 256 + b[e.start + i];
  return n;
}

function float(b: Uint8Array, e: Element): number {
  const v = view(b);
  if (e.size === 4) return v.getFloat32(e.start);
  if (e.size === 8) return v.getFloat64(e.start);
  return 0;
}

export interface WebmTrack {
  docType: string;
  codecId: string;
  codecPrivate: Uint8Array | null;
  sampleRate: number;
  channels: number;
  /** Codec delay in nanoseconds (Opus pre-skip). */
  codecDelayNs: number;
  /** From Info, when the writer wrote one. */
  durationSecs: number | null;
  /** Time of the last block's start, seconds. */
  lastBlockSecs: number;
  frames: Uint8Array[];
  /** Start time of each frame's block, seconds (frames of one laced block share it). */
  times: number[];
}

interface TrackInfo {
  number: number;
  type: number;
  codecId: string;
  codecPrivate: Uint8Array | null;
  sampleRate: number;
  channels: number;
  codecDelayNs: number;
}

export function readWebm(b: Uint8Array, opts: { frames?: boolean } = { frames: true }): WebmTrack | null {
  const head = elementAt(b, 0);
  if (!head || head.id !== ID.EBML || head.size === UNKNOWN) return null;
  let docType = "";
  for (let off = head.start; off < head.start + head.size; ) {
    const e = elementAt(b, off);
    if (!e || e.size === UNKNOWN) return null;
    if (e.id === ID.DocType) docType = ascii(b, e.start, e.size);
    off = e.start + e.size;
  }
  if (docType !== "webm" && docType !== "matroska") return null;
  const segment = elementAt(b, head.start + head.size);
  if (!segment || segment.id !== ID.Segment) return null;
  const segmentEnd = segment.size === UNKNOWN ? b.length : Math.min(b.length, segment.start + segment.size);

  let scale = 1_000_000; // ns per timecode unit
  let durationUnits: number | null = null;
  let track: TrackInfo | null = null;
  const frames: Uint8Array[] = [];
  const times: number[] = [];
  let lastBlock = 0;
  const collect = opts.frames !== false;

  const block = (start: number, end: number, clusterTime: number) => {
    if (!track) return;
    // Track number (an EBML varint with its marker), 16-bit relative time, flags, then frames.
    const t0 = b[start];
    let len = 1;
    while (len <= 8 && !(t0 & (0x80 >> (len - 1)))) len++;
    if (len > 4 || start + len + 3 > end) return;
    let number = t0 & (0xff >> len);
    for (let i = 1; i < len; i++) number = number * 256 + b[start + i];
    if (number !== track.number) return;
    const rel = view(b).getInt16(start + len);
    const flags = b[start + len + 2];
    const time = ((clusterTime + rel) * scale) / 1e9;
    lastBlock = Math.max(lastBlock, time);
    if (!collect) return;
    for (const f of unlace(b, start + len + 3, end, (flags >> 1) & 3)) {
      frames.push(f);
      times.push(time);
    }
  };

  let off = segment.start;
  while (off < segmentEnd) {
    const e = elementAt(b, off);
    if (!e) break;
    const end = e.size === UNKNOWN ? segmentEnd : Math.min(segmentEnd, e.start + e.size);
    if (e.id === ID.Info) {
      for (const c of children(b, e.start, end)) {
        if (c.id === ID.TimecodeScale) scale = uint(b, c) || scale;
        if (c.id === ID.Duration) durationUnits = float(b, c);
      }
    } else if (e.id === ID.Tracks) {
      track ??= firstAudioTrack(b, e.start, end);
    } else if (e.id === ID.Cluster) {
      off = readCluster(b, e.start, end, e.size === UNKNOWN, block);
      continue;
    }
    if (e.size === UNKNOWN) break;
    off = e.start + e.size;
  }
  if (!track) return null;
  return {
    docType,
    codecId: track.codecId,
    codecPrivate: track.codecPrivate,
    sampleRate: track.sampleRate,
    channels: track.channels,
    codecDelayNs: track.codecDelayNs,
    durationSecs: durationUnits !== null && durationUnits > 0 ? (durationUnits * scale) / 1e9 : null,
    lastBlockSecs: lastBlock,
    frames,
    times,
  };
}

function* children(b: Uint8Array, start: number, end: number): Generator<Element> {
  for (let off = start; off < end; ) {
    const e = elementAt(b, off);
    if (!e || e.size === UNKNOWN || e.start + e.size > end) return;
    yield e;
    off = e.start + e.size;
  }
}

function firstAudioTrack(b: Uint8Array, start: number, end: number): TrackInfo | null {
  for (const entry of children(b, start, end)) {
    if (entry.id !== ID.TrackEntry) continue;
    const t: TrackInfo = { number: 0, type: 0, codecId: "", codecPrivate: null, sampleRate: 8000, channels: 1, codecDelayNs: 0 };
    for (const c of children(b, entry.start, entry.start + entry.size)) {
      if (c.id === ID.TrackNumber) t.number = uint(b, c);
      else if (c.id === ID.TrackType) t.type = uint(b, c);
      else if (c.id === ID.CodecID) t.codecId = ascii(b, c.start, c.size).replace(/\0+$/, "");
      else if (c.id === ID.CodecPrivate) t.codecPrivate = b.subarray(c.start, c.start + c.size);
      else if (c.id === ID.CodecDelay) t.codecDelayNs = uint(b, c);
      else if (c.id === ID.Audio) {
        for (const a of children(b, c.start, c.start + c.size)) {
          if (a.id === ID.SamplingFrequency) t.sampleRate = Math.round(float(b, a));
          else if (a.id === ID.Channels) t.channels = uint(b, a);
        }
      }
    }
    if (t.type === 2 && t.number > 0) return t;
  }
  return null;
}

/** Returns where reading continues: the Cluster's end, or for an unknown size the next top-level element. */
function readCluster(b: Uint8Array, start: number, end: number, open: boolean, block: (start: number, end: number, clusterTime: number) => void): number {
  let time = 0;
  let off = start;
  while (off < end) {
    const e = elementAt(b, off);
    if (!e) return end;
    if (open && SEGMENT_CHILDREN.has(e.id)) return off;
    if (e.size === UNKNOWN) return end;
    const bodyEnd = Math.min(end, e.start + e.size);
    if (e.id === ID.Timecode) time = uint(b, e);
    else if (e.id === ID.SimpleBlock && e.start + e.size <= end) block(e.start, bodyEnd, time);
    else if (e.id === ID.BlockGroup) {
      for (const c of children(b, e.start, bodyEnd)) if (c.id === ID.Block) block(c.start, c.start + c.size, time);
    }
    off = e.start + e.size;
  }
  return end;
}

/** The frames of a block: 0 none, 1 Xiph, 2 fixed-size, 3 EBML lacing. */
function unlace(b: Uint8Array, start: number, end: number, lacing: number): Uint8Array[] {
  if (lacing === 0) return [b.subarray(start, end)];
  if (start >= end) return [];
  const count = b[start] + 1;
  let off = start + 1;
  const sizes: number[] = [];
  if (lacing === 1) {
    for (let i = 0; i < count - 1; i++) {
      let size = 0;
      for (;;) {
        if (off >= end) return [];
        const c = b[off++];
        size += c;
        if (c !== 255) break;
      }
      sizes.push(size);
    }
  } else if (lacing === 3) {
    const first = varint(b, off);
    if (!first) return [];
    off += first.length;
    sizes.push(first.value);
    for (let i = 1; i < count - 1; i++) {
      const d = varint(b, off);
      if (!d) return [];
      off += d.length;
      // Signed difference to the previous size: subtract half the range of its length.
      sizes.push(sizes[i - 1] + d.value - (2 ** (7 * d.length - 1) - 1));
    }
  } else {
    const each = Math.floor((end - off) / count);
    for (let i = 0; i < count - 1; i++) sizes.push(each);
  }
  const used = sizes.reduce((a, s) => a + s, 0);
  sizes.push(end - off - used);
  if (sizes.some((s) => s < 0)) return [];
  const out: Uint8Array[] = [];
  for (const s of sizes) {
    out.push(b.subarray(off, off + s));
    off += s;
  }
  return out;
}

function varint(b: Uint8Array, off: number): { value: number; length: number } | null {
  if (off >= b.length) return null;
  const c0 = b[off];
  let len = 1;
  while (len <= 8 && !(c0 & (0x80 >> (len - 1)))) len++;
  if (len > 8 || off + len > b.length) return null;
  let value = c0 & (0xff >> len);
  for (let i = 1; i < len; i++) value = value * 256 + b[off + i];
  return { value, length: len };
}

/** Matroska stores Vorbis' three header packets Xiph-laced in CodecPrivate. */
export function xiphHeaders(p: Uint8Array): Uint8Array[] | null {
  if (p.length < 3) return null;
  const frames = unlace(p, 0, p.length, 1);
  return frames.length === 3 && frames.every((f) => f.length > 0) ? frames : null;
}
