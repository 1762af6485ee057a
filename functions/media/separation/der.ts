/**
 * Diarization error rate (NIST's definition, on 10 ms frames): missed speech, false alarm and
 * speaker confusion, over the total reference speech, with the hypothesis speakers mapped to
 * the reference speakers in the way that minimises the error. A frame where two reference
 * speakers overlap counts twice in the total, so a system that labels one speaker per frame
 * misses the other there. `collar` seconds around every reference boundary are not scored
 * (0.25 s is the usual forgiveness for hand-made references; 0 scores everything).
 */
import type { Utterance } from "./diarize.js";

export type SpeakerTurns = Record<string, Utterance[]>;

export interface DerResult {
  der: number;
  missed: number;
  falseAlarm: number;
  confusion: number;
  /** Scored reference speech, seconds (overlaps counted per speaker). */
  total: number;
}

const STEP = 0.01;

export function diarizationErrorRate(reference: SpeakerTurns, hypothesis: SpeakerTurns, opts: { collar?: number } = {}): DerResult {
  const collar = opts.collar ?? 0;
  const refIds = Object.keys(reference);
  const hypIds = Object.keys(hypothesis);
  const end = Math.max(0, ...[...Object.values(reference), ...Object.values(hypothesis)].flat().map((u) => u.end));
  const n = Math.ceil(end / STEP) + 1;
  const paint = (turns: Utterance[]) => {
    const a = new Uint8Array(n);
    for (const u of turns) for (let i = Math.round(u.start / STEP); i < Math.min(n, Math.round(u.end / STEP)); i++) a[i] = 1;
    return a;
  };
  const ref = refIds.map((id) => paint(reference[id]));
  const hyp = hypIds.map((id) => paint(hypothesis[id]));
  const scored = new Uint8Array(n).fill(1);
  if (collar > 0) {
    for (const turns of Object.values(reference)) {
      for (const u of turns) {
        for (const t of [u.start, u.end]) {
          for (let i = Math.max(0, Math.round((t - collar) / STEP)); i < Math.min(n, Math.round((t + collar) / STEP)); i++) scored[i] = 0;
        }
      }
    }
  }
  // Overlap of each (reference, hypothesis) pair over the scored frames.
  const co = refIds.map((_, r) => hypIds.map((_, h) => {
    let s = 0;
    for (let i = 0; i < n; i++) if (scored[i] && ref[r][i] && hyp[h][i]) s++;
    return s;
  }));
  const mapping = bestMapping(co, refIds.length, hypIds.length);
  let total = 0, missed = 0, fa = 0, conf = 0;
  for (let i = 0; i < n; i++) {
    if (!scored[i]) continue;
    let nRef = 0, nHyp = 0, nCorrect = 0;
    for (let r = 0; r < ref.length; r++) nRef += ref[r][i];
    for (let h = 0; h < hyp.length; h++) {
      if (!hyp[h][i]) continue;
      nHyp++;
      const r = mapping[h];
      if (r >= 0 && ref[r][i]) nCorrect++;
    }
    total += nRef;
    missed += Math.max(0, nRef - nHyp);
    fa += Math.max(0, nHyp - nRef);
    conf += Math.min(nRef, nHyp) - nCorrect;
  }
  const secs = (x: number) => x * STEP;
  return { der: total ? (missed + fa + conf) / total : 0, missed: secs(missed), falseAlarm: secs(fa), confusion: secs(conf), total: secs(total) };
}

/** hypothesis index -> reference index (or -1), maximising the total overlap (exhaustive: speakers are few). */
function bestMapping(co: number[][], nRef: number, nHyp: number): number[] {
  let best: number[] = new Array(nHyp).fill(-1);
  let bestScore = -1;
  const used = new Uint8Array(nRef);
  const cur: number[] = new Array(nHyp).fill(-1);
  const walk = (h: number, score: number) => {
    if (h === nHyp) {
      if (score > bestScore) [bestScore, best] = [score, cur.slice()];
      return;
    }
    cur[h] = -1;
    walk(h + 1, score);
    for (let r = 0; r < nRef; r++) {
      if (used[r]) continue;
      used[r] = 1;
      cur[h] = r;
      walk(h + 1, score + co[r][h]);
      used[r] = 0;
    }
    cur[h] = -1;
  };
  walk(0, 0);
  return best;
}
