/**
 * Dynamic time warping between a recording (query) and a reference of the same words.
 *
 * Offline (`alignSequences`): the whole reference is matched, the query's start and end are free
 * (noise before and after the reading is skipped). Symmetric steps (diagonal weighs twice, so no
 * direction is favoured) and costs compared per step of path. Long inputs are aligned coarse to
 * fine, as FastDTW does: halve both sequences, align those, then refine only within a few frames
 * of the coarse path, so time and memory grow linearly with the length.
 *
 * Online (`OnlineDtw`): one query frame at a time against the reference, each frame costing one
 * pass over a band of the reference around the current position; the position is where the
 * path through the newest frame is cheapest per step.
 */
import { ALIGN_DIM } from "./features.js";

export interface DtwPath {
  /** Query and reference frame of each step, in order. */
  q: Int32Array;
  r: Int32Array;
  /** Mean local distance along the path. */
  cost: number;
}

const FULL_CELLS = 1_500_000;
const RADIUS = 8;

function dist(a: Float32Array, i: number, b: Float32Array, j: number): number {
  let s = 0;
  const ai = i * ALIGN_DIM;
  const bj = j * ALIGN_DIM;
  for (let d = 0; d < ALIGN_DIM; d++) {
    const v = a[ai + d] - b[bj + d];
    s += v * v;
  }
  return Math.sqrt(s / ALIGN_DIM);
}

function halve(x: Float32Array, n: number): { x: Float32Array; n: number } {
  const m = Math.ceil(n / 2);
  const out = new Float32Array(m * ALIGN_DIM);
  for (let i = 0; i < m; i++) {
    const a = 2 * i;
    const b = Math.min(n - 1, 2 * i + 1);
    for (let d = 0; d < ALIGN_DIM; d++) out[i * ALIGN_DIM + d] = 0.5 * (x[a * ALIGN_DIM + d] + x[b * ALIGN_DIM + d]);
  }
  return { x: out, n: m };
}

/** Per query row, the reference range [lo, hi] the path may visit. */
interface Window {
  lo: Int32Array;
  hi: Int32Array;
}

export function alignSequences(q: Float32Array, nq: number, r: Float32Array, nr: number): DtwPath {
  if (nq === 0 || nr === 0) return { q: new Int32Array(0), r: new Int32Array(0), cost: Infinity };
  if (nq * nr <= FULL_CELLS || nq < 4 * RADIUS || nr < 4 * RADIUS) {
    const w: Window = { lo: new Int32Array(nq), hi: new Int32Array(nq).fill(nr - 1) };
    return windowed(q, nq, r, nr, w);
  }
  const cq = halve(q, nq);
  const cr = halve(r, nr);
  const coarse = alignSequences(cq.x, cq.n, cr.x, cr.n);
  // Project the coarse path to this resolution and widen it by RADIUS frames.
  const lo = new Int32Array(nq).fill(nr);
  const hi = new Int32Array(nq).fill(-1);
  for (let s = 0; s < coarse.q.length; s++) {
    for (let di = 0; di < 2; di++) {
      const i = 2 * coarse.q[s] + di;
      if (i >= nq) continue;
      lo[i] = Math.min(lo[i], 2 * coarse.r[s]);
      hi[i] = Math.max(hi[i], Math.min(nr - 1, 2 * coarse.r[s] + 1));
    }
  }
  // Rows the coarse path skipped (free start and end) stay open only at the edges.
  for (let i = 0; i < nq; i++) {
    if (hi[i] < 0) continue;
    for (let k = Math.max(0, i - RADIUS); k <= Math.min(nq - 1, i + RADIUS); k++) {
      lo[k] = Math.min(lo[k], Math.max(0, lo[i] - RADIUS));
      hi[k] = Math.max(hi[k], Math.min(nr - 1, hi[i] + RADIUS));
    }
  }
  for (let i = 0; i < nq; i++) if (hi[i] < 0) [lo[i], hi[i]] = [nr, nr - 1]; // empty row
  return windowed(q, nq, r, nr, { lo, hi });
}

/** Subsequence DTW (free start and end on the query) inside a window. */
function windowed(q: Float32Array, nq: number, r: Float32Array, nr: number, w: Window): DtwPath {
  const offset = new Int32Array(nq + 1);
  for (let i = 0; i < nq; i++) offset[i + 1] = offset[i] + Math.max(0, w.hi[i] - w.lo[i] + 1);
  const cells = offset[nq];
  const D = new Float64Array(cells).fill(Infinity);
  const L = new Float64Array(cells); // path weight so far (for per-step comparison)
  const back = new Uint8Array(cells); // 0 start, 1 diagonal, 2 from above (query step), 3 from the left (reference step)
  const get = (i: number, j: number) => (i >= 0 && j >= w.lo[i] && j <= w.hi[i] ? offset[i] + j - w.lo[i] : -1);
  for (let i = 0; i < nq; i++) {
    const lo = w.lo[i];
    const hi = w.hi[i];
    const row = offset[i];
    // The row above, for diagonal and vertical steps.
    const plo = i > 0 ? w.lo[i - 1] : 0;
    const phi = i > 0 ? w.hi[i - 1] : -1;
    const prow = i > 0 ? offset[i - 1] : 0;
    const qi = i * ALIGN_DIM;
    for (let j = lo; j <= hi; j++) {
      let sq = 0;
      const rj = j * ALIGN_DIM;
      for (let d = 0; d < ALIGN_DIM; d++) {
        const v = q[qi + d] - r[rj + d];
        sq += v * v;
      }
      const c = Math.sqrt(sq / ALIGN_DIM);
      const k = row + j - lo;
      let best = Infinity, bl = 1, bb = 0;
      if (j === 0) {
        // A fresh start at the reference's first frame (free start on the recording).
        best = c;
      }
      if (j >= plo && j <= phi) {
        const up = prow + j - plo;
        const v = D[up] + c;
        const l = L[up] + 1;
        if (v < Infinity && (best === Infinity || v * bl < best * l)) {
          best = v;
          bl = l;
          bb = 2;
        }
      }
      if (j > 0 && j - 1 >= plo && j - 1 <= phi) {
        const dg = prow + j - 1 - plo;
        const v = D[dg] + 2 * c;
        const l = L[dg] + 2;
        if (v < Infinity && (best === Infinity || v * bl < best * l)) {
          best = v;
          bl = l;
          bb = 1;
        }
      }
      if (j > lo) {
        const v = D[k - 1] + c;
        const l = L[k - 1] + 1;
        if (v < Infinity && (best === Infinity || v * bl < best * l)) {
          best = v;
          bl = l;
          bb = 3;
        }
      }
      D[k] = best;
      L[k] = bl;
      back[k] = bb;
    }
  }
  // The end: the row whose last reference frame is cheapest per step.
  let endI = -1;
  let endV = Infinity;
  for (let i = 0; i < nq; i++) {
    const k = get(i, nr - 1);
    if (k >= 0 && D[k] / L[k] < endV) [endV, endI] = [D[k] / L[k], i];
  }
  if (endI < 0) return { q: new Int32Array(0), r: new Int32Array(0), cost: Infinity };
  const pq: number[] = [];
  const pr: number[] = [];
  let i = endI;
  let j = nr - 1;
  let sum = 0;
  for (;;) {
    pq.push(i);
    pr.push(j);
    sum += dist(q, i, r, j);
    const k = get(i, j);
    const b = back[k];
    if (b === 0) break;
    if (b === 1) [i, j] = [i - 1, j - 1];
    else if (b === 2) i -= 1;
    else j -= 1;
  }
  pq.reverse();
  pr.reverse();
  return { q: Int32Array.from(pq), r: Int32Array.from(pr), cost: sum / pq.length };
}

/**
 * Online DTW against a fixed reference: `push` one query frame (ALIGN_DIM values), get the
 * reference frame the reading has reached. Plain data throughout, so a session can move between
 * threads with structured clone.
 */
export interface OnlineDtwState {
  ref: Float32Array;
  nr: number;
  D: Float64Array;
  L: Float64Array;
  /** Furthest reference frame reached so far (the reading never goes back). */
  position: number;
  frames: number;
}

/** Reference frames behind and ahead of the position that the band covers. */
const BAND_BACK = 150;
const BAND_AHEAD = 400;

export function onlineDtw(ref: Float32Array, nr: number): OnlineDtwState {
  return { ref, nr, D: new Float64Array(nr).fill(Infinity), L: new Float64Array(nr).fill(1), position: -1, frames: 0 };
}

export function pushFrame(s: OnlineDtwState, frame: Float32Array): number {
  const { ref, nr, D, L } = s;
  if (nr === 0) return -1;
  const lo = Math.max(0, s.position - BAND_BACK);
  const hi = Math.min(nr - 1, Math.max(0, s.position) + BAND_AHEAD);
  const nd = new Float64Array(hi - lo + 1).fill(Infinity);
  const nl = new Float64Array(hi - lo + 1).fill(1);
  for (let j = lo; j <= hi; j++) {
    const c = dist(frame, 0, ref, j);
    let best = Infinity, bl = 1;
    const take = (v: number, l: number) => {
      if (best === Infinity || v / l < best / bl) [best, bl] = [v, l];
    };
    if (j === 0) take(c, 1);
    if (D[j] !== Infinity) take(D[j] + c, L[j] + 1);
    if (j > 0 && D[j - 1] !== Infinity) take(D[j - 1] + 2 * c, L[j - 1] + 2);
    if (j > lo && nd[j - 1 - lo] !== Infinity) take(nd[j - 1 - lo] + c, nl[j - 1 - lo] + 1);
    nd[j - lo] = best;
    nl[j - lo] = bl;
  }
  D.fill(Infinity);
  D.set(nd, lo);
  L.set(nl, lo);
  s.frames++;
  // The cheapest place (per step) that the reading has reached; a path needs a few steps before it counts.
  let pos = -1;
  let pv = Infinity;
  for (let j = lo; j <= hi; j++) {
    if (D[j] === Infinity || L[j] < 8) continue;
    const v = D[j] / L[j];
    if (v < pv) [pv, pos] = [v, j];
  }
  if (pos > s.position) s.position = pos;
  return s.position;
}
