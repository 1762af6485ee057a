/**
 * Similar-voice search: cosine similarity, and a linear scan over embeddings packed into one
 * Float32Array (n x dim, rows L2-normalised, so cosine is a dot product). 10,000 voices of 60
 * numbers are 2.4 MB and one scan is 600,000 multiply-adds: about a millisecond, cheap enough
 * for the request loop; the top k are kept in a small heap, so the scan stays linear.
 */

/** Cosine similarity in [-1, 1]; 0 when either vector is all zeros or the lengths differ. */
export function similarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return 0;
  let ab = 0, aa = 0, bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

export interface Match {
  id: string;
  score: number;
}

/** Embeddings packed for scanning. Rows are normalised on the way in. */
export class EmbeddingIndex {
  readonly dim: number;
  private data: Float32Array;
  private ids: string[] = [];

  constructor(dim: number, capacity = 1024) {
    if (!(Number.isInteger(dim) && dim > 0)) throw new RangeError(`bad embedding dimension ${dim}`);
    this.dim = dim;
    this.data = new Float32Array(dim * Math.max(1, capacity));
  }

  get size(): number {
    return this.ids.length;
  }

  add(id: string, embedding: ArrayLike<number>): void {
    if (embedding.length !== this.dim) throw new RangeError(`embedding has ${embedding.length} values, the index ${this.dim}`);
    if ((this.ids.length + 1) * this.dim > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    let norm = 0;
    for (let i = 0; i < this.dim; i++) norm += embedding[i] * embedding[i];
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const at = this.ids.length * this.dim;
    for (let i = 0; i < this.dim; i++) this.data[at + i] = embedding[i] * inv;
    this.ids.push(id);
  }

  /** The k most similar rows at or above `threshold`, best first (ties: earlier rows first). */
  topK(query: ArrayLike<number>, k: number, threshold = -Infinity): Match[] {
    if (query.length !== this.dim) throw new RangeError(`query has ${query.length} values, the index ${this.dim}`);
    return topK(query, this.data.subarray(0, this.ids.length * this.dim), k, threshold).map((m) => ({ id: this.ids[m.index], score: m.score }));
  }
}

/**
 * The k best rows of `packed` (rows of query.length values, each L2-normalised) for `query`: a
 * linear scan with a min-heap of size k. Scores are cosine similarities (the query is normalised here).
 */
export function topK(query: ArrayLike<number>, packed: Float32Array, k: number, threshold = -Infinity): Array<{ index: number; score: number }> {
  const dim = query.length;
  if (dim === 0 || packed.length % dim !== 0) throw new RangeError(`packed rows do not have the query's ${dim} values`);
  const n = Math.floor(packed.length / dim);
  if (k <= 0 || n === 0) return [];
  let norm = 0;
  for (let i = 0; i < dim; i++) norm += query[i] * query[i];
  if (!(norm > 0)) return [];
  const q = new Float32Array(dim);
  for (let i = 0; i < dim; i++) q[i] = query[i] / Math.sqrt(norm);
  const heapScore = new Float64Array(k);
  const heapIndex = new Int32Array(k);
  let size = 0;
  // Worse = lower score, or equal score and later row (so earlier rows win ties).
  const worse = (a: number, b: number) => heapScore[a] < heapScore[b] || (heapScore[a] === heapScore[b] && heapIndex[a] > heapIndex[b]);
  const swap = (a: number, b: number) => {
    const s = heapScore[a];
    heapScore[a] = heapScore[b];
    heapScore[b] = s;
    const x = heapIndex[a];
    heapIndex[a] = heapIndex[b];
    heapIndex[b] = x;
  };
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && worse(l, m)) m = l;
      if (r < size && worse(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (let row = 0, at = 0; row < n; row++, at += dim) {
    let s = 0;
    for (let i = 0; i < dim; i++) s += q[i] * packed[at + i];
    if (s < threshold) continue;
    if (size < k) {
      heapScore[size] = s;
      heapIndex[size] = row;
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(i, p)) break;
        swap(i, p);
        i = p;
      }
    } else if (s > heapScore[0]) {
      heapScore[0] = s;
      heapIndex[0] = row;
      siftDown(0);
    }
  }
  const out = Array.from({ length: size }, (_, i) => ({ index: heapIndex[i], score: heapScore[i] }));
  return out.sort((a, b) => b.score - a.score || a.index - b.index);
}
