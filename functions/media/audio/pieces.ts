/**
 * Audio that crosses to a worker as it came back from other workers: a signal denoised in
 * overlapping pieces (joined there, not on the request loop), or one array. Pure functions, used
 * by the voice analyser's workers.
 */

/** A signal of `length` samples processed in overlapping pieces: piece k starts at starts[k] (less `overlap`). */
export interface Pieces {
  length: number;
  starts: number[];
  overlap: number;
  parts: { from: number; y: Float32Array }[];
}

export type PiecedAudio = Float32Array | Pieces;

export const isPieces = (a: PiecedAudio): a is Pieces => !(a instanceof Float32Array);

/** The samples of `a` (pieces crossfaded by joinPieces). */
export function materialise(a: PiecedAudio): Float32Array {
  return isPieces(a) ? joinPieces(a.length, a.starts, a.overlap, a.parts) : a;
}

/** The arrays `a` holds: what moves to a worker with it. */
export function arraysOf(a: PiecedAudio): Float32Array[] {
  return isPieces(a) ? a.parts.map((p) => p.y) : [a];
}


/**
 * The denoised pieces back into one signal of `length` samples: piece k starts `overlap` before
 * starts[k] (or at 0) and ends `overlap` after starts[k + 1] (or at the end), weighted 1 inside
 * and ramping over `overlap` samples at either end, except at the signal's own ends.
 */
export function joinPieces(length: number, starts: number[], overlap: number, parts: { from: number; y: Float32Array }[]): Float32Array {
  // Where two pieces meet (overlap either side of a piece's start) they are crossfaded sample by
  // sample; elsewhere one piece covers each sample at full weight and is copied.
  const out = new Float32Array(length);
  const weight = new Float32Array(length);
  parts.forEach(({ from, y }, k) => {
    const to = from + y.length;
    const headEnd = k > 0 ? Math.min(to, starts[k] + overlap) : from;
    const tailStart = k + 1 < starts.length ? Math.max(headEnd, starts[k + 1] - overlap) : to;
    const blend = (a: number, b: number) => {
      for (let j = a; j < b; j++) {
        const i = j - from;
        const edge = Math.min(i, y.length - 1 - i);
        const w = from === 0 && i < overlap ? 1 : to === length && y.length - 1 - i < overlap ? 1 : Math.min(1, (edge + 1) / (overlap + 1));
        out[j] += w * y[i];
        weight[j] += w;
      }
    };
    blend(from, headEnd);
    out.set(y.subarray(headEnd - from, tailStart - from), headEnd);
    weight.fill(1, headEnd, tailStart);
    blend(tailStart, to);
  });
  for (let k = 1; k < starts.length; k++) {
    for (let i = Math.max(0, starts[k] - overlap); i < Math.min(length, starts[k] + overlap); i++) if (weight[i] > 0) out[i] /= weight[i];
  }
  return out;
}


/**
 * Signals one after the other with `gap` samples of silence after each, up to `cap` samples in
 * all (the last one cut there): the audio of a voice analysed as one.
 */
export function joinWithGaps(signals: readonly Float32Array[], cap: number, gap: number): Float32Array {
  let n = 0;
  const take: Float32Array[] = [];
  for (const p of signals) {
    if (n >= cap) break;
    const part = p.subarray(0, Math.min(p.length, cap - n));
    take.push(part);
    n += part.length + gap;
  }
  const joined = new Float32Array(Math.max(0, n));
  let at = 0;
  for (const p of take) {
    joined.set(p, at);
    at += p.length + gap;
  }
  return joined;
}
