/**
 * A live reading session (./online.ts) as bytes, split in two, for runtimes that cannot keep it in
 * memory between audio chunks (the AWS WebSocket API runs one Lambda invocation per message):
 *
 *   reference  what never changes once the passage is read by the engine: each reading's features,
 *              frame indexes and character end times, the word spans and the characters. Large
 *              (about 15 KB per second of reading); written once per passage (S3).
 *   progress   what every step changes: the online DTW's cost rows, the last frames, the learnt
 *              levels and statistics, the frames held back, the words read. Small (tens of KB):
 *              the DTW rows are stored only over the band the last step touched, since every
 *              cell outside it is unreachable (Infinity) and never read.
 *
 * unpackLiveSession(reference, progress) gives back a session that steps exactly as the one packed.
 */
import { onlineDtw } from "./dtw.js";
import { ALIGN_DIM } from "./features.js";
import type { LiveSession } from "./online.js";

type Numbers = Float32Array | Float64Array | Int32Array | Uint32Array;
const KINDS = { f32: Float32Array, f64: Float64Array, i32: Int32Array, u32: Uint32Array } as const;
type Kind = keyof typeof KINDS;
const kindOf = (a: Numbers): Kind => (a instanceof Float32Array ? "f32" : a instanceof Float64Array ? "f64" : a instanceof Int32Array ? "i32" : "u32");

/** [u32 header length][header JSON][arrays, each at a multiple of 8 bytes]. */
function pack(meta: unknown, arrays: Numbers[]): Uint8Array {
  const header = Buffer.from(JSON.stringify({ meta, arrays: arrays.map((a) => [kindOf(a), a.length]) }), "utf8");
  const align = (n: number) => Math.ceil(n / 8) * 8;
  let size = align(4 + header.length);
  for (const a of arrays) size += align(a.byteLength);
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, header.length, true);
  out.set(header, 4);
  let at = align(4 + header.length);
  for (const a of arrays) {
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
    at += align(a.byteLength);
  }
  return out;
}

function unpack(bytes: Uint8Array): { meta: unknown; arrays: Numbers[] } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0, true);
  const header = JSON.parse(Buffer.from(bytes.subarray(4, 4 + length)).toString("utf8")) as { meta: unknown; arrays: Array<[Kind, number]> };
  const align = (n: number) => Math.ceil(n / 8) * 8;
  let at = align(4 + length);
  const arrays = header.arrays.map(([kind, n]) => {
    const Ctor = KINDS[kind];
    const byteLength = n * Ctor.BYTES_PER_ELEMENT;
    if (at + byteLength > bytes.length) throw new Error("live session bytes are truncated");
    // A copy: the source may sit at any offset of a larger buffer.
    const a = new Ctor(bytes.slice(at, at + byteLength).buffer);
    at += align(byteLength);
    return a;
  });
  return { meta: header.meta, arrays };
}

interface ReferenceMeta {
  characters: string[];
  refs: number[];
}

/** The part of a session that a passage fixes. */
export function packLiveReference(s: LiveSession): Uint8Array {
  const meta: ReferenceMeta = { characters: s.characters, refs: s.refs.map((r) => r.dtw.nr) };
  return pack(meta, [s.wordFrom, s.wordTo, ...s.refs.flatMap((r) => [r.dtw.ref, r.frame, r.charEnds])]);
}

interface ProgressMeta {
  refs: Array<{ position: number; frames: number; lo: number }>;
  seen: number;
  n: number;
  words: number;
  held: number;
}

/** The part of a session that each step changes. */
export function packLiveProgress(s: LiveSession): Uint8Array {
  const bands = s.refs.map((r) => {
    let lo = 0;
    while (lo < r.dtw.nr && r.dtw.D[lo] === Infinity) lo++;
    let hi = r.dtw.nr - 1;
    while (hi >= lo && r.dtw.D[hi] === Infinity) hi--;
    return { lo, D: r.dtw.D.slice(lo, hi + 1), L: r.dtw.L.slice(lo, hi + 1) };
  });
  const held = new Float32Array(s.held.length * ALIGN_DIM);
  s.held.forEach((h, i) => held.set(h, i * ALIGN_DIM));
  const meta: ProgressMeta = {
    refs: s.refs.map((r, i) => ({ position: r.dtw.position, frames: r.dtw.frames, lo: bands[i].lo })),
    seen: s.seen,
    n: s.n,
    words: s.words,
    held: s.held.length,
  };
  return pack(meta, [s.tail, s.recent, s.recentDb, s.sum, s.sq, s.levels, held, ...bands.flatMap((b) => [b.D, b.L])]);
}

/** A session from its two parts. */
export function unpackLiveSession(reference: Uint8Array, progress: Uint8Array): LiveSession {
  const r = unpack(reference);
  const rm = r.meta as ReferenceMeta;
  const p = unpack(progress);
  const pm = p.meta as ProgressMeta;
  if (pm.refs.length !== rm.refs.length) throw new Error("live session parts do not belong together");
  const [wordFrom, wordTo, ...refArrays] = r.arrays as [Int32Array, Int32Array, ...Numbers[]];
  const [tail, recent, recentDb, sum, sq, levels, held, ...bandArrays] = p.arrays as [Float32Array, Float32Array, Float64Array, Float64Array, Float64Array, Uint32Array, Float32Array, ...Float64Array[]];
  return {
    refs: rm.refs.map((nr, i) => {
      const dtw = onlineDtw(refArrays[3 * i] as Float32Array, nr);
      const { position, frames, lo } = pm.refs[i];
      dtw.position = position;
      dtw.frames = frames;
      dtw.D.set(bandArrays[2 * i], lo);
      dtw.L.set(bandArrays[2 * i + 1], lo);
      return { dtw, frame: refArrays[3 * i + 1] as Int32Array, charEnds: refArrays[3 * i + 2] as Float64Array };
    }),
    wordFrom,
    wordTo,
    characters: rm.characters,
    tail,
    recent,
    recentDb,
    seen: pm.seen,
    n: pm.n,
    sum,
    sq,
    levels,
    held: Array.from({ length: pm.held }, (_, i) => held.slice(i * ALIGN_DIM, (i + 1) * ALIGN_DIM)),
    words: pm.words,
  };
}
