/**
 * MP4 / M4A demuxing (ISO/IEC 14496-12): the first sound track's codec configuration and the
 * byte ranges of its samples, from the sample tables (`stsz`, `stsc`, `stco`/`co64`) or, for
 * fragmented files (what some browsers record), from `moof`/`traf`/`trun`.
 */
import { ascii, view } from "./bytes.js";

interface Box {
  type: string;
  /** Body start and end (exclusive). */
  start: number;
  end: number;
}

/** The boxes directly inside [start, end); a box that runs past the end is clipped (a truncated file). */
function boxes(b: Uint8Array, start: number, end: number): Box[] {
  const out: Box[] = [];
  const v = view(b);
  let off = start;
  while (off + 8 <= end) {
    let size = v.getUint32(off);
    const type = ascii(b, off + 4, 4);
    let header = 8;
    if (size === 1) {
      if (off + 16 > end) break;
      size = Number(v.getBigUint64(off + 8));
      header = 16;
    } else if (size === 0) {
      size = end - off;
    }
    if (size < header) break;
    out.push({ type, start: off + header, end: Math.min(end, off + size) });
    off += size;
  }
  return out;
}

const child = (b: Uint8Array, parent: Box, type: string) => boxes(b, parent.start, parent.end).find((x) => x.type === type);

function path(b: Uint8Array, parent: Box, ...types: string[]): Box | undefined {
  let at: Box | undefined = parent;
  for (const t of types) {
    if (!at) return undefined;
    at = child(b, at, t);
  }
  return at;
}

export interface Mp4Track {
  /** Sample entry type: "mp4a" (AAC or MP3 by objectType), "Opus", "fLaC" ... */
  format: string;
  /** MPEG-4 objectTypeIndication from esds (0x40 AAC, 0x66-0x68 MPEG-2 AAC, 0x69/0x6b MP3). */
  objectType: number;
  /** AudioSpecificConfig (AAC). */
  asc: Uint8Array | null;
  channels: number;
  sampleRate: number;
  /** Media timescale and duration (mdhd): duration 0 in fragmented files. */
  timescale: number;
  duration: number;
  /** Samples (access units) in file order. */
  samples: Array<{ offset: number; size: number }>;
  /** Sum of sample durations in timescale units (fragmented files, where mdhd says 0). */
  fragmentDuration: number;
  /** Box bodies the AAC decoder reads for gapless trimming. */
  boxes: { elst?: Uint8Array; mdhd?: Uint8Array; stts?: Uint8Array; mvhd?: Uint8Array };
}

/** The first sound track; null when there is none or the file is not MP4. */
export function readMp4(b: Uint8Array, opts: { samples?: boolean } = { samples: true }): Mp4Track | null {
  const top = boxes(b, 0, b.length);
  if (top[0]?.type !== "ftyp") return null;
  const moov = top.find((x) => x.type === "moov");
  if (!moov) return null;
  const v = view(b);
  const mvhd = child(b, moov, "mvhd");
  for (const trak of boxes(b, moov.start, moov.end).filter((x) => x.type === "trak")) {
    const mdia = child(b, trak, "mdia");
    const hdlr = mdia && child(b, mdia, "hdlr");
    if (!mdia || !hdlr || ascii(b, hdlr.start + 8, 4) !== "soun") continue;
    const mdhd = child(b, mdia, "mdhd");
    const stbl = path(b, mdia, "minf", "stbl");
    if (!mdhd || !stbl) return null;
    const version = b[mdhd.start];
    const timescale = version === 1 ? v.getUint32(mdhd.start + 20) : v.getUint32(mdhd.start + 12);
    const duration = version === 1 ? Number(v.getBigUint64(mdhd.start + 24)) : v.getUint32(mdhd.start + 16);
    const stsd = child(b, stbl, "stsd");
    if (!stsd || stsd.end - stsd.start < 16) return null;
    const entry = boxes(b, stsd.start + 8, stsd.end)[0];
    if (!entry) return null;
    const e = entry.start;
    // AudioSampleEntry: 6 reserved, data reference index, then QuickTime version (0, 1 or 2).
    const qtVersion = v.getUint16(e + 8);
    let channels = v.getUint16(e + 16);
    let sampleRate = v.getUint32(e + 24) >>> 16;
    let childrenAt = e + 28 + (qtVersion === 1 ? 16 : 0);
    if (qtVersion === 2) {
      sampleRate = Math.round(v.getFloat64(e + 32));
      channels = v.getUint32(e + 40);
      childrenAt = e + 64;
    }
    let objectType = 0;
    let asc: Uint8Array | null = null;
    const esds = boxes(b, childrenAt, entry.end).find((x) => x.type === "esds") ?? deepFind(b, { type: entry.type, start: childrenAt, end: entry.end }, "esds");
    if (esds) ({ objectType, asc } = parseEsds(b.subarray(esds.start + 4, esds.end)));
    const fromAsc = asc && ascInfo(asc);
    if (fromAsc) ({ sampleRate, channels } = fromAsc);
    const edts = child(b, trak, "edts");
    const elst = edts && child(b, edts, "elst");
    const stts = child(b, stbl, "stts");
    const track: Mp4Track = {
      format: entry.type,
      objectType,
      asc,
      channels,
      sampleRate,
      timescale,
      duration,
      samples: [],
      fragmentDuration: 0,
      boxes: { elst: elst && b.subarray(elst.start, elst.end), mdhd: b.subarray(mdhd.start, mdhd.end), stts: stts && b.subarray(stts.start, stts.end), mvhd: mvhd && b.subarray(mvhd.start, mvhd.end) },
    };
    const tkhd = child(b, trak, "tkhd");
    const trackId = tkhd ? v.getUint32(tkhd.start + (b[tkhd.start] === 1 ? 20 : 12)) : 0;
    if (opts.samples !== false) track.samples = tableSamples(b, stbl);
    // Fragments: always walked, since their durations are the only duration a fragmented file has.
    readFragments(b, top, moov, trackId, track, opts.samples !== false);
    return track;
  }
  return null;
}

/** QuickTime v1/v2 entries can wrap esds in a `wave` box. */
function deepFind(b: Uint8Array, parent: Box, type: string): Box | undefined {
  for (const x of boxes(b, parent.start, parent.end)) {
    if (x.type === type) return x;
    if (x.type === "wave") {
      const found = deepFind(b, x, type);
      if (found) return found;
    }
  }
  return undefined;
}

/** ES_Descriptor -> DecoderConfigDescriptor (objectTypeIndication) -> DecoderSpecificInfo (the ASC). */
function parseEsds(d: Uint8Array): { objectType: number; asc: Uint8Array | null } {
  let off = 0;
  const readDescriptor = (): { tag: number; start: number; end: number } | null => {
    if (off >= d.length) return null;
    const tag = d[off++];
    let len = 0;
    for (let i = 0; i < 4 && off < d.length; i++) {
      const c = d[off++];
      len = (len << 7) | (c & 0x7f);
      if (!(c & 0x80)) break;
    }
    return { tag, start: off, end: Math.min(d.length, off + len) };
  };
  const es = readDescriptor();
  if (!es || es.tag !== 3) return { objectType: 0, asc: null };
  const flags = d[es.start + 2];
  off = es.start + 3;
  if (flags & 0x80) off += 2;
  if (flags & 0x40) off += 1 + d[off];
  if (flags & 0x20) off += 2;
  const config = readDescriptor();
  if (!config || config.tag !== 4) return { objectType: 0, asc: null };
  const objectType = d[config.start];
  off = config.start + 13;
  const info = off < config.end ? readDescriptor() : null;
  return { objectType, asc: info && info.tag === 5 && info.end > info.start ? d.slice(info.start, info.end) : null };
}

function tableSamples(b: Uint8Array, stbl: Box): Array<{ offset: number; size: number }> {
  const v = view(b);
  const stsz = child(b, stbl, "stsz");
  const stsc = child(b, stbl, "stsc");
  const stco = child(b, stbl, "stco");
  const co64 = child(b, stbl, "co64");
  if (!stsz || !stsc || !(stco || co64)) return [];
  const fixed = v.getUint32(stsz.start + 4);
  const count = Math.min(v.getUint32(stsz.start + 8), fixed ? Infinity : Math.floor((stsz.end - stsz.start - 12) / 4));
  const sizeOf = (i: number) => (fixed ? fixed : v.getUint32(stsz.start + 12 + 4 * i));
  const chunkBox = (co64 ?? stco)!;
  const wide = !!co64;
  const chunks = Math.min(v.getUint32(chunkBox.start + 4), Math.floor((chunkBox.end - chunkBox.start - 8) / (wide ? 8 : 4)));
  const chunkOffset = (i: number) => (wide ? Number(v.getBigUint64(chunkBox.start + 8 + 8 * i)) : v.getUint32(chunkBox.start + 8 + 4 * i));
  const runs = Math.min(v.getUint32(stsc.start + 4), Math.floor((stsc.end - stsc.start - 8) / 12));
  const out: Array<{ offset: number; size: number }> = [];
  let sample = 0;
  for (let r = 0; r < runs && sample < count; r++) {
    const firstChunk = v.getUint32(stsc.start + 8 + 12 * r) - 1;
    const perChunk = v.getUint32(stsc.start + 12 + 12 * r);
    const nextFirst = r + 1 < runs ? v.getUint32(stsc.start + 8 + 12 * (r + 1)) - 1 : chunks;
    for (let c = firstChunk; c < Math.min(nextFirst, chunks) && sample < count; c++) {
      let off = chunkOffset(c);
      for (let k = 0; k < perChunk && sample < count; k++) {
        const size = sizeOf(sample++);
        if (off + size > b.length) return out; // truncated: keep the whole samples
        out.push({ offset: off, size });
        off += size;
      }
    }
  }
  return out;
}

function readFragments(b: Uint8Array, top: Box[], moov: Box, trackId: number, track: Mp4Track, collect: boolean): void {
  const v = view(b);
  const mvex = child(b, moov, "mvex");
  const trex = mvex && boxes(b, mvex.start, mvex.end).find((x) => x.type === "trex" && v.getUint32(x.start + 4) === trackId);
  const trexDuration = trex ? v.getUint32(trex.start + 12) : 0;
  const trexSize = trex ? v.getUint32(trex.start + 16) : 0;
  for (const moof of top.filter((x) => x.type === "moof")) {
    for (const traf of boxes(b, moof.start, moof.end).filter((x) => x.type === "traf")) {
      const tfhd = child(b, traf, "tfhd");
      if (!tfhd || v.getUint32(tfhd.start + 4) !== trackId) continue;
      const tf = v.getUint32(tfhd.start) & 0xffffff;
      let at = tfhd.start + 8;
      let base = moof.start - 8; // default-base-is-moof (and the usual case without an explicit base)
      if (tf & 0x1) {
        base = Number(v.getBigUint64(at));
        at += 8;
      }
      if (tf & 0x2) at += 4;
      let defDuration = trexDuration;
      let defSize = trexSize;
      if (tf & 0x8) {
        defDuration = v.getUint32(at);
        at += 4;
      }
      if (tf & 0x10) defSize = v.getUint32(at);
      let next = base;
      for (const trun of boxes(b, traf.start, traf.end).filter((x) => x.type === "trun")) {
        const flags = v.getUint32(trun.start) & 0xffffff;
        const count = v.getUint32(trun.start + 4);
        let p = trun.start + 8;
        let offset = next;
        if (flags & 0x1) {
          offset = base + v.getInt32(p);
          p += 4;
        }
        if (flags & 0x4) p += 4;
        const per = ((flags & 0x100 ? 1 : 0) + (flags & 0x200 ? 1 : 0) + (flags & 0x400 ? 1 : 0) + (flags & 0x800 ? 1 : 0)) * 4;
        // Without per-sample fields the count alone would drive the loop: bound it by the bytes left.
        if (per === 0 && defSize === 0) continue;
        const n = per === 0 ? Math.min(count, Math.ceil((b.length - offset) / defSize)) : count;
        for (let i = 0; i < n && p + per <= trun.end; i++) {
          let duration = defDuration;
          let size = defSize;
          if (flags & 0x100) {
            duration = v.getUint32(p);
            p += 4;
          }
          if (flags & 0x200) {
            size = v.getUint32(p);
            p += 4;
          }
          if (flags & 0x400) p += 4;
          if (flags & 0x800) p += 4;
          if (offset + size > b.length) return;
          track.fragmentDuration += duration;
          if (collect) track.samples.push({ offset, size });
          offset += size;
        }
        next = offset;
      }
    }
  }
}

const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** Core rate and channel count from an AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1); sample entries often just say 2 channels. */
export function ascInfo(asc: Uint8Array): { sampleRate: number; channels: number } | null {
  let bit = 0;
  const read = (n: number) => {
    let v = 0;
    for (let i = 0; i < n; i++, bit++) {
      const byte = asc[bit >> 3];
      if (byte === undefined) return -1;
      v = v * 2 + ((byte >> (7 - (bit & 7))) & 1);
    }
    return v;
  };
  let objectType = read(5);
  if (objectType === 31) objectType = 32 + read(6);
  const index = read(4);
  const sampleRate = index === 15 ? read(24) : (AAC_RATES[index] ?? 0);
  const config = read(4);
  if (objectType <= 0 || sampleRate <= 0 || config < 0) return null;
  // Configuration 0 means a program config element; 7 is 7.1 (8 channels).
  const channels = config === 7 ? 8 : config || 2;
  return { sampleRate, channels };
}
