/**
 * A speaker space on top of the voice embedding (issue 26): a linear projection learned so that what changes within
 * one speaker (pace, pitch jitter, other sentences, telephone band, reverberation, noise, microphone tilt, the clone's
 * own reading) counts little and what tells speakers apart counts much. It is linear discriminant analysis with a
 * regularised within-speaker covariance: W = within-speaker scatter / n + reg * mean(diag W) * I, B = between-speaker
 * scatter of the speaker means; the projection keeps the `dims` leading solutions of B v = lambda W v, each scaled to
 * unit within-speaker variance (so the projected space is within-speaker whitened, i.e. within-class covariance
 * normalisation restricted to the discriminant directions). Scores are cosines of centred projections.
 *
 * The fit runs offline (scripts/voice-verification-speaker-space.ts) on the tune part of the pool only; the
 * workflow reads the generated projection (./speaker-space-data.ts).
 */

export interface SpeakerSpace {
  /** The embedding version the projection was fitted on. */
  version: number;
  /** Subtracted before projecting: the training embeddings' mean. */
  mean: readonly number[];
  /** dims rows of embedding length. */
  projection: ReadonlyArray<readonly number[]>;
}

/** Eigenvalues and unit eigenvectors (columns of `vectors`, vectors[i][k] is component i of vector k) of a symmetric matrix, by cyclic Jacobi rotations; sorted by value, largest first. */
export function symmetricEigen(m: ReadonlyArray<readonly number[]>): { values: number[]; vectors: number[][] } {
  const n = m.length;
  const a = m.map((r) => Float64Array.from(r));
  const v = Array.from({ length: n }, (_, i) => Float64Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p][q] * a[p][q];
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(a[p][q]) < 1e-300) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => a[y][y] - a[x][x]);
  return { values: order.map((i) => a[i][i]), vectors: Array.from({ length: n }, (_, r) => order.map((i) => v[r][i])) };
}

/**
 * Fits the speaker space on `speakers`, each a list of embeddings of one speaker (at least two speakers with two
 * embeddings each). `reg` (>= 0) shrinks the within-speaker covariance towards a multiple of the identity; `dims`
 * bounds the kept directions (at most the number of speakers - 1 and the embedding length).
 */
export function fitSpeakerSpace(speakers: ReadonlyArray<ReadonlyArray<readonly number[]>>, opts: { reg: number; dims: number; version: number }): SpeakerSpace {
  const used = speakers.filter((s) => s.length >= 2);
  if (used.length < 2) throw new Error("the speaker space needs two speakers with two embeddings each");
  const d = used[0][0].length;
  const all = used.flat();
  const mean = new Array<number>(d).fill(0);
  for (const e of all) for (let i = 0; i < d; i++) mean[i] += e[i] / all.length;
  const W = Array.from({ length: d }, () => new Array<number>(d).fill(0));
  const B = Array.from({ length: d }, () => new Array<number>(d).fill(0));
  let n = 0;
  for (const s of used) {
    const mu = new Array<number>(d).fill(0);
    for (const e of s) for (let i = 0; i < d; i++) mu[i] += e[i] / s.length;
    for (const e of s) {
      for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) W[i][j] += (e[i] - mu[i]) * (e[j] - mu[j]);
      n++;
    }
    for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) B[i][j] += ((mu[i] - mean[i]) * (mu[j] - mean[j])) / used.length;
  }
  let trace = 0;
  for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) W[i][j] /= n;
  for (let i = 0; i < d; i++) trace += W[i][i];
  for (let i = 0; i < d; i++) W[i][i] += opts.reg * (trace / d) + 1e-9;
  // Whiten W: W^-1/2 = U diag(1/sqrt(l)) U^T, then the eigenvectors of the whitened B.
  const w = symmetricEigen(W);
  const Wih = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => {
    let x = 0;
    for (let k = 0; k < d; k++) x += (w.vectors[i][k] * w.vectors[j][k]) / Math.sqrt(Math.max(w.values[k], 1e-12));
    return x;
  }));
  const Bw = mul(mul(Wih, B), Wih);
  const b = symmetricEigen(Bw);
  const dims = Math.max(1, Math.min(opts.dims, used.length - 1, d));
  const projection: number[][] = [];
  for (let k = 0; k < dims; k++) {
    // Row k: (W^-1/2 u_k)^T, which has unit within-speaker variance.
    projection.push(Array.from({ length: d }, (_, j) => {
      let x = 0;
      for (let i = 0; i < d; i++) x += b.vectors[i][k] * Wih[i][j];
      return x;
    }));
  }
  return { version: opts.version, mean, projection };
}

function mul(a: number[][], b: number[][]): number[][] {
  const n = a.length, m = b[0].length, k = b.length;
  return Array.from({ length: n }, (_, i) => Array.from({ length: m }, (_, j) => {
    let x = 0;
    for (let t = 0; t < k; t++) x += a[i][t] * b[t][j];
    return x;
  }));
}

/** The embedding in the speaker space (centred, projected). */
export function project(space: SpeakerSpace, e: ArrayLike<number>): number[] {
  return space.projection.map((row) => {
    let x = 0;
    for (let i = 0; i < row.length; i++) x += row[i] * (e[i] - space.mean[i]);
    return x;
  });
}

/** The cosine of two embeddings in the speaker space (1 same direction, around 0 unrelated). */
export function spaceSimilarity(space: SpeakerSpace, a: ArrayLike<number>, b: ArrayLike<number>): number {
  const x = project(space, a), y = project(space, b);
  let xy = 0, xx = 0, yy = 0;
  for (let i = 0; i < x.length; i++) {
    xy += x[i] * y[i];
    xx += x[i] * x[i];
    yy += y[i] * y[i];
  }
  return xx > 0 && yy > 0 ? xy / Math.sqrt(xx * yy) : 0;
}
