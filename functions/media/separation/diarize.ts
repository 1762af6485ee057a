/**
 * Speaker separation (diarization) by classical signal processing, for the professional clone's
 * samples: who speaks when in one recording.
 *
 *   1. Voice activity from frame levels (the voice-analysis VAD), so pauses belong to nobody.
 *   2. Short overlapping windows inside the speech, each described by its mean and spread of
 *      cepstrum (the vocal tract) and its pitch, standardised over the recording: within one
 *      recording the channel is shared, so what differs between windows is mostly the speaker.
 *   3. k-means over the windows for k = 2, 3, ...: the number of speakers is the largest k whose
 *      clusters all stand clearly apart (their separation d' along the line between their
 *      means, at least `minSeparation` spreads); clusters too small to be a speaker are folded
 *      into their nearest neighbour.
 *   4. Resegmentation: one Gaussian per speaker over frame cepstra and pitch, and a Viterbi pass
 *      with a switching penalty that moves the boundaries to frame precision.
 *
 * The settings were chosen on conversations of premade voices (scripts/separation-calibrate.ts)
 * and measured on held-out designed voices and lines (README: figures and limits).
 *
 * Pure and CPU-bound: run it on a worker (the speaker-separation workflow does).
 */
import { segmentsFrom } from "../voice-analysis/vad.js";

import { CEPS, FRAME, FRAME_SECS, SR, type FrameFeatures } from "./features.js";

export interface Utterance {
  start: number;
  end: number;
}

export interface DiarizedSpeaker {
  speaker_id: string;
  duration_secs: number;
  utterances: Utterance[];
}

export interface DiarizeOptions {
  /** Window length and step, seconds. */
  window?: number;
  step?: number;
  /** At most this many speakers are reported (the wizard has six speaker colours). */
  maxSpeakers?: number;
  /** A cluster with less speech than this share of the total (and under minSpeakerSecs) is not a speaker. */
  minShare?: number;
  minSpeakerSecs?: number;
  /** Log-probability cost of switching speakers between two frames in resegmentation. */
  switchPenalty?: number;
  /** Resegmentation passes (0 keeps the window clustering's boundaries). */
  passes?: number;
  /** Clusters of windows less far apart than this (d', in spreads) are one speaker. */
  minSeparation?: number;
  /** The same for a third speaker and more: k-means finds spurious splits more easily with more clusters. */
  minSeparationBeyondTwo?: number;
  /** Weights of the window features' groups (the mean cepstrum weighs 1). */
  spreadWeight?: number;
  pitchWeight?: number;
}

export const DIARIZE_DEFAULTS: Required<DiarizeOptions> = {
  window: 1.5,
  step: 0.5,
  maxSpeakers: 6,
  minShare: 0.05,
  minSpeakerSecs: 4,
  switchPenalty: 40,
  passes: 2,
  minSeparation: 5,
  minSeparationBeyondTwo: 6.5,
  spreadWeight: 0.5,
  pitchWeight: 0.5,
};

/** Feature vector of a window: mean cepstrum, cepstral spread, pitch. */
const WIN_DIM = CEPS + 12 + 2;

export function diarize(f: FrameFeatures, opts: DiarizeOptions = {}): DiarizedSpeaker[] {
  const o = { ...DIARIZE_DEFAULTS, ...opts };
  const total = f.count * FRAME_SECS;
  const { segments } = segmentsFrom(f.energyDb, FRAME_SECS, FRAME / SR, total + (FRAME / SR - FRAME_SECS), { bridge: 0.2, minSpeech: 0.15, pad: 0.03 });
  const speech = new Uint8Array(f.count);
  for (const s of segments) for (let i = Math.floor(s.start / FRAME_SECS); i < Math.min(f.count, Math.ceil(s.end / FRAME_SECS)); i++) speech[i] = 1;
  const speechFrames = speech.reduce((a, b) => a + b, 0);
  if (speechFrames < 50) return [];

  // Cepstral mean over the speech removes the shared channel.
  const cm = new Float64Array(CEPS);
  for (let i = 0; i < f.count; i++) if (speech[i]) for (let k = 0; k < CEPS; k++) cm[k] += f.ceps[i * CEPS + k];
  for (let k = 0; k < CEPS; k++) cm[k] /= speechFrames;
  const c = new Float32Array(f.ceps.length);
  for (let i = 0; i < f.count; i++) for (let k = 0; k < CEPS; k++) c[i * CEPS + k] = f.ceps[i * CEPS + k] - cm[k];

  // 2. Windows inside each speech segment.
  const winFrames = Math.round(o.window / FRAME_SECS);
  const stepFrames = Math.round(o.step / FRAME_SECS);
  const windows: Array<[number, number]> = [];
  for (const s of segments) {
    const a = Math.floor(s.start / FRAME_SECS);
    const b = Math.min(f.count, Math.ceil(s.end / FRAME_SECS));
    if (b - a < 30) continue;
    if (b - a <= winFrames) {
      windows.push([a, b]);
      continue;
    }
    for (let w = a; w < b; w += stepFrames) {
      const e = Math.min(b, w + winFrames);
      if (e - w < winFrames / 2) {
        windows.push([Math.max(a, e - winFrames), e]);
        break;
      }
      windows.push([w, e]);
      if (e === b) break;
    }
  }
  if (windows.length === 0) return [];
  const X = windowFeatures(c, f.f0, windows, { mean: 1, spread: o.spreadWeight, pitch: o.pitchWeight });
  const lf0 = logPitch(f.f0);

  // 3. The number of speakers: the most clusters of windows (k-means) that all stand clearly
  // apart from each other. Splitting one voice in two gives halves about 3-5 spreads apart;
  // two voices stand further apart than that.
  const n = windows.length;
  let k = 1;
  let wl: Int32Array = new Int32Array(n);
  for (let j = 2; j <= Math.min(o.maxSpeakers, n - 1); j++) {
    const labels = kmeans(X, n, WIN_DIM, j, 8);
    const sep = minSeparation(X, n, WIN_DIM, labels, j);
    if (sep < (j === 2 ? o.minSeparation : o.minSeparationBeyondTwo)) break;
    [k, wl] = [j, labels];
  }
  let frameLabel = framesFromWindows(windows, wl, k, speech, f.count);
  ({ labels: frameLabel, k } = pruneSpeakers(frameLabel, k, c, speechFrames, o));
  // 4. Resegmentation to frame precision.
  for (let p = 0; p < o.passes && k > 1; p++) frameLabel = resegment(c, lf0, frameLabel, k, speech, o.switchPenalty);
  ({ labels: frameLabel, k } = pruneSpeakers(frameLabel, k, c, speechFrames, o));
  return toSpeakers(frameLabel, k, f.count);
}

function windowFeatures(c: Float32Array, f0: Float32Array, windows: Array<[number, number]>, weights: { mean: number; spread: number; pitch: number }): Float64Array {
  const n = windows.length;
  const X = new Float64Array(n * WIN_DIM).fill(NaN);
  for (let w = 0; w < n; w++) {
    const [a, b] = windows[w];
    const len = b - a;
    for (let k = 0; k < CEPS; k++) {
      let s = 0;
      for (let i = a; i < b; i++) s += c[i * CEPS + k];
      const m = s / len;
      X[w * WIN_DIM + k] = m;
      if (k < 12) {
        let v = 0;
        for (let i = a; i < b; i++) v += (c[i * CEPS + k] - m) ** 2;
        X[w * WIN_DIM + CEPS + k] = Math.sqrt(v / len);
      }
    }
    const logs: number[] = [];
    for (let i = a; i < b; i++) if (f0[i] > 0) logs.push(Math.log2(f0[i]));
    if (logs.length >= 8) {
      logs.sort((x, y) => x - y);
      X[w * WIN_DIM + CEPS + 12] = logs[logs.length >> 1];
      X[w * WIN_DIM + CEPS + 13] = logs[Math.floor(logs.length * 0.9)] - logs[Math.floor(logs.length * 0.1)];
    }
  }
  // Standardise each dimension over the recording; a missing pitch sits at the mean.
  for (let d = 0; d < WIN_DIM; d++) {
    let s = 0, s2 = 0, m = 0;
    for (let w = 0; w < n; w++) {
      const v = X[w * WIN_DIM + d];
      if (Number.isFinite(v)) {
        s += v;
        s2 += v * v;
        m++;
      }
    }
    const mean = m ? s / m : 0;
    const sd = m > 1 ? Math.sqrt(Math.max(1e-12, s2 / m - mean * mean)) : 1;
    const weight = d < CEPS ? weights.mean : d < CEPS + 12 ? weights.spread : weights.pitch;
    // Weights keep each group's share of the distance whatever its number of dimensions.
    const scale = weight / Math.sqrt(d < CEPS ? CEPS : d < CEPS + 12 ? 12 : 2);
    for (let w = 0; w < n; w++) {
      const v = X[w * WIN_DIM + d];
      X[w * WIN_DIM + d] = Number.isFinite(v) ? ((v - mean) / sd) * scale : 0;
    }
  }
  return X;
}

function framesFromWindows(windows: Array<[number, number]>, labels: Int32Array, k: number, speech: Uint8Array, count: number): Int32Array {
  const votes = new Float32Array(count * k);
  windows.forEach(([a, b], w) => {
    for (let i = a; i < b; i++) votes[i * k + labels[w]] += 1;
  });
  const out = new Int32Array(count).fill(-1);
  let last = -1;
  for (let i = 0; i < count; i++) {
    if (!speech[i]) continue;
    let best = -1;
    let bv = 0;
    for (let j = 0; j < k; j++) if (votes[i * k + j] > bv) [bv, best] = [votes[i * k + j], j];
    // Speech too short for a window of its own takes the label of the speech before it.
    out[i] = best >= 0 ? best : last;
    if (out[i] >= 0) last = out[i];
  }
  // Leading frames without a label take the first label found.
  const first = out.find((l) => l >= 0) ?? 0;
  for (let i = 0; i < count && (out[i] < 0 || !speech[i]); i++) if (speech[i]) out[i] = first;
  return out;
}

interface Gaussian {
  mean: Float64Array;
  ivar: Float64Array;
  logNorm: number;
  /** Log pitch (voiced frames only). */
  pMean: number;
  pIvar: number;
  pLogNorm: number;
}

/** log2 F0 per frame, NaN when unvoiced. */
function logPitch(f0: Float32Array): Float64Array {
  return Float64Array.from(f0, (hz) => (hz > 0 ? Math.log2(hz) : NaN));
}

function fitGaussians(c: Float32Array, lf0: Float64Array, labels: Int32Array, k: number): Gaussian[] {
  const sums = Array.from({ length: k }, () => new Float64Array(CEPS));
  const sq = Array.from({ length: k }, () => new Float64Array(CEPS));
  const n = new Float64Array(k);
  const ps = new Float64Array(k), ps2 = new Float64Array(k), pn = new Float64Array(k);
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i];
    if (l < 0) continue;
    n[l]++;
    for (let d = 0; d < CEPS; d++) {
      const v = c[i * CEPS + d];
      sums[l][d] += v;
      sq[l][d] += v * v;
    }
    const p = lf0[i];
    if (p === p) {
      ps[l] += p;
      ps2[l] += p * p;
      pn[l]++;
    }
  }
  return sums.map((s, l) => {
    const mean = new Float64Array(CEPS);
    const ivar = new Float64Array(CEPS);
    let logNorm = 0;
    for (let d = 0; d < CEPS; d++) {
      mean[d] = n[l] ? s[d] / n[l] : 0;
      const v = Math.max(0.05, n[l] ? sq[l][d] / n[l] - mean[d] ** 2 : 1);
      ivar[d] = 1 / v;
      logNorm -= 0.5 * Math.log(2 * Math.PI * v);
    }
    const pMean = pn[l] ? ps[l] / pn[l] : 7;
    // Pitch spread floored at a quarter of a semitone squared.
    const pv = Math.max(0.0004, pn[l] > 1 ? ps2[l] / pn[l] - pMean * pMean : 1);
    return { mean, ivar, logNorm, pMean, pIvar: 1 / pv, pLogNorm: -0.5 * Math.log(2 * Math.PI * pv) };
  });
}

function frameLogLikelihood(g: Gaussian, c: Float32Array, lf0: Float64Array, i: number): number {
  let s = g.logNorm;
  for (let d = 0; d < CEPS; d++) {
    const v = c[i * CEPS + d] - g.mean[d];
    s -= 0.5 * v * v * g.ivar[d];
  }
  const p = lf0[i];
  if (p === p) {
    const v = p - g.pMean;
    s += g.pLogNorm - 0.5 * v * v * g.pIvar;
  }
  return s;
}

/** Viterbi over the speech frames with one state per speaker and a cost for every switch. */
function resegment(c: Float32Array, lf0: Float64Array, labels: Int32Array, k: number, speech: Uint8Array, penalty: number): Int32Array {
  const g = fitGaussians(c, lf0, labels, k);
  const count = labels.length;
  const out = new Int32Array(count).fill(-1);
  const idx: number[] = [];
  for (let i = 0; i < count; i++) if (speech[i]) idx.push(i);
  const back = new Int8Array(idx.length * k);
  let score = new Float64Array(k);
  let nextScore = new Float64Array(k);
  const ll = new Float64Array(k);
  idx.forEach((i, t) => {
    for (let j = 0; j < k; j++) ll[j] = frameLogLikelihood(g[j], c, lf0, i);
    if (t === 0) {
      score.set(ll);
      return;
    }
    let best = 0;
    for (let j = 1; j < k; j++) if (score[j] > score[best]) best = j;
    for (let j = 0; j < k; j++) {
      const stay = score[j];
      const sw = score[best] - penalty;
      if (stay >= sw || best === j) {
        nextScore[j] = stay + ll[j];
        back[t * k + j] = j;
      } else {
        nextScore[j] = sw + ll[j];
        back[t * k + j] = best;
      }
    }
    [score, nextScore] = [nextScore, score];
  });
  let state = 0;
  for (let j = 1; j < k; j++) if (score[j] > score[state]) state = j;
  for (let t = idx.length - 1; t >= 0; t--) {
    out[idx[t]] = state;
    if (t > 0) state = back[t * k + state];
  }
  return out;
}

/** k-means++ with `restarts` seeds (deterministic), the partition with the least inertia. */
function kmeans(X: Float64Array, n: number, dim: number, k: number, restarts: number): Int32Array {
  let seed = 0x9e3779b9;
  const rand = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const dist2 = (i: number, cen: Float64Array, j: number) => {
    let s = 0;
    for (let d = 0; d < dim; d++) s += (X[i * dim + d] - cen[j * dim + d]) ** 2;
    return s;
  };
  let bestLabels = new Int32Array(n);
  let bestInertia = Infinity;
  for (let r = 0; r < restarts; r++) {
    const cen = new Float64Array(k * dim);
    const first = Math.floor(rand() * n);
    cen.set(X.subarray(first * dim, first * dim + dim), 0);
    const dmin = new Float64Array(n).fill(Infinity);
    for (let j = 1; j < k; j++) {
      let total = 0;
      for (let i = 0; i < n; i++) {
        dmin[i] = Math.min(dmin[i], dist2(i, cen, j - 1));
        total += dmin[i];
      }
      let pick = rand() * total;
      let chosen = n - 1;
      for (let i = 0; i < n; i++) {
        pick -= dmin[i];
        if (pick <= 0) {
          chosen = i;
          break;
        }
      }
      cen.set(X.subarray(chosen * dim, chosen * dim + dim), j * dim);
    }
    const labels = new Int32Array(n);
    let inertia = 0;
    for (let it = 0; it < 50; it++) {
      let changed = false;
      inertia = 0;
      for (let i = 0; i < n; i++) {
        let bj = 0;
        let bd = Infinity;
        for (let j = 0; j < k; j++) {
          const v = dist2(i, cen, j);
          if (v < bd) [bd, bj] = [v, j];
        }
        inertia += bd;
        if (labels[i] !== bj || it === 0) {
          changed = changed || labels[i] !== bj;
          labels[i] = bj;
        }
      }
      if (!changed && it > 0) break;
      const counts = new Float64Array(k);
      cen.fill(0);
      for (let i = 0; i < n; i++) {
        counts[labels[i]]++;
        for (let d = 0; d < dim; d++) cen[labels[i] * dim + d] += X[i * dim + d];
      }
      for (let j = 0; j < k; j++) for (let d = 0; d < dim; d++) cen[j * dim + d] = counts[j] ? cen[j * dim + d] / counts[j] : 0;
    }
    if (inertia < bestInertia) [bestInertia, bestLabels] = [inertia, labels];
  }
  return bestLabels;
}

/** Folds clusters too small to be a speaker into their nearest one, keeps at most maxSpeakers, renumbers by first appearance. */
function pruneSpeakers(labels: Int32Array, k: number, c: Float32Array, speechFrames: number, o: Required<DiarizeOptions>): { labels: Int32Array; k: number } {
  const frames = new Float64Array(k);
  for (const l of labels) if (l >= 0) frames[l]++;
  const order = Array.from({ length: k }, (_, i) => i).sort((a, b) => frames[b] - frames[a]);
  const minFrames = Math.min(o.minShare * speechFrames, o.minSpeakerSecs / FRAME_SECS);
  const keep = order.filter((l, rank) => rank < o.maxSpeakers && frames[l] >= minFrames);
  if (keep.length === 0) keep.push(order[0]);
  const g = fitGaussians(c, new Float64Array(labels.length).fill(NaN), labels, k);
  const map = new Int32Array(k).fill(-1);
  for (const l of keep) map[l] = l;
  for (let l = 0; l < k; l++) {
    if (map[l] >= 0) continue;
    let best = keep[0];
    let bd = Infinity;
    for (const m of keep) {
      let s = 0;
      for (let d = 0; d < CEPS; d++) s += (g[l].mean[d] - g[m].mean[d]) ** 2;
      if (s < bd) [bd, best] = [s, m];
    }
    map[l] = best;
  }
  const renum = new Map<number, number>();
  const out = new Int32Array(labels.length).fill(-1);
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] < 0) continue;
    const m = map[labels[i]];
    if (!renum.has(m)) renum.set(m, renum.size);
    out[i] = renum.get(m)!;
  }
  return { labels: out, k: renum.size };
}

function toSpeakers(labels: Int32Array, k: number, count: number): DiarizedSpeaker[] {
  const speakers: DiarizedSpeaker[] = Array.from({ length: k }, (_, i) => ({ speaker_id: `speaker_${i}`, duration_secs: 0, utterances: [] }));
  for (let i = 0; i < count; ) {
    const l = labels[i];
    if (l < 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < count && labels[j] === l) j++;
    const u = { start: round3(i * FRAME_SECS), end: round3((j - 1) * FRAME_SECS + FRAME / SR) };
    const list = speakers[l].utterances;
    const prev = list[list.length - 1];
    // A pause under 0.3 s inside one speaker's speech does not split the utterance.
    if (prev && u.start - prev.end < 0.3) prev.end = u.end;
    else list.push(u);
    i = j;
  }
  for (const s of speakers) {
    s.utterances = s.utterances.filter((u) => u.end - u.start >= 0.15);
    s.duration_secs = round3(s.utterances.reduce((t, u) => t + (u.end - u.start), 0));
  }
  return speakers.filter((s) => s.utterances.length > 0);
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The least separation between two clusters of windows: the distance of their means along the line joining them, over their spread along it (d'). */
export function minSeparation(X: Float64Array, n: number, dim: number, labels: Int32Array, k: number): number {
  const means = Array.from({ length: k }, () => new Float64Array(dim));
  const counts = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    counts[labels[i]]++;
    for (let d = 0; d < dim; d++) means[labels[i]][d] += X[i * dim + d];
  }
  means.forEach((m, j) => m.forEach((_, d) => (m[d] /= Math.max(1, counts[j]))));
  let min = Infinity;
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      const w = means[a].map((v, d) => v - means[b][d]);
      const norm = Math.sqrt(w.reduce((s, v) => s + v * v, 0)) || 1;
      const proj: number[][] = [[], []];
      for (let i = 0; i < n; i++) {
        if (labels[i] !== a && labels[i] !== b) continue;
        let s = 0;
        for (let d = 0; d < dim; d++) s += X[i * dim + d] * w[d];
        proj[labels[i] === a ? 0 : 1].push(s / norm);
      }
      const st = proj.map((p) => {
        const m = p.reduce((x, y) => x + y, 0) / Math.max(1, p.length);
        return { m, v: p.reduce((x, y) => x + (y - m) ** 2, 0) / Math.max(1, p.length) };
      });
      min = Math.min(min, Math.abs(st[0].m - st[1].m) / Math.sqrt((st[0].v + st[1].v) / 2 + 1e-12));
    }
  }
  return min;
}
