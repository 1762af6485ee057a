/**
 * Splits text into synthesis chunks: sentences, and clauses of sentences that are too long.
 * Chunks are contiguous and cover the whole text (whitespace included) so their alignments
 * concatenate back to the exact input.
 */
export interface TextChunk {
  start: number;
  end: number;
}

export interface SplitOptions {
  /** Largest chunk, in cost units (UTF-8 bytes by default). */
  maxCost: number;
  /** A smaller limit for the first chunk, to get the first audio out sooner. */
  firstMaxCost?: number;
  /** Ranges that must stay in one chunk (phoneme spans). */
  keepTogether?: ReadonlyArray<{ start: number; end: number }>;
  /** Cost of text[start, end); defaults to its UTF-8 length. */
  cost?: (start: number, end: number) => number;
}

const TERMINAL = new Set([".", "!", "?", "…", "。", "！", "？", "؟", "।"]);
const CLOSERS = new Set(['"', "'", "”", "’", ")", "]", "»", "」", "』"]);
const CLAUSE = new Set([",", ";", ":", "—", "–", "、", "，", "；", "："]);
const NO_SPACE_NEEDED = new Set(["。", "！", "？"]);
const ABBREVIATIONS = new Set([
  "mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "vs", "etc", "inc", "ltd", "co", "no", "fig", "approx", "dept", "gen", "col", "lt", "sgt", "capt", "mt", "ave", "e.g", "i.e", "z.b", "bzw", "ca", "usw", "mme", "mlle", "sra", "sr", "dra",
]);

const encoder = new TextEncoder();
export function utf8Length(s: string): number {
  return encoder.encode(s).length;
}

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

/** True when the '.' at i ends an abbreviation or an initial rather than a sentence. */
function abbreviationAt(text: string, i: number): boolean {
  let j = i;
  while (j > 0 && /[\p{L}.]/u.test(text[j - 1])) j--;
  const word = text.slice(j, i).toLowerCase();
  if (word.length === 1 && /\p{L}/u.test(word)) return true;
  if (ABBREVIATIONS.has(word)) return true;
  let k = i + 1;
  while (k < text.length && isSpace(text[k])) k++;
  // A lowercase continuation means the sentence goes on ("approx. ten").
  return k < text.length && /\p{Ll}/u.test(text[k]);
}

/** Positions just after each sentence end (after closers and following whitespace). */
function sentenceEnds(text: string): number[] {
  const ends: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") {
      let k = i + 1;
      while (k < text.length && isSpace(text[k])) k++;
      ends.push(k);
      i = k - 1;
      continue;
    }
    if (!TERMINAL.has(c)) continue;
    let k = i + 1;
    while (k < text.length && (TERMINAL.has(text[k]) || CLOSERS.has(text[k]))) k++;
    if (k < text.length && !isSpace(text[k]) && !NO_SPACE_NEEDED.has(c)) continue;
    if (c === "." && k === i + 1 && abbreviationAt(text, i)) continue;
    while (k < text.length && isSpace(text[k])) k++;
    ends.push(k);
    i = k - 1;
  }
  if (ends[ends.length - 1] !== text.length) ends.push(text.length);
  return ends.filter((e, n) => e > (ends[n - 1] ?? 0));
}

export function splitForSynthesis(text: string, opts: SplitOptions): TextChunk[] {
  if (!text) return [];
  const cost = opts.cost ?? ((a: number, b: number) => utf8Length(text.slice(a, b)));
  const keep = [...(opts.keepTogether ?? [])].sort((a, b) => a.start - b.start);
  const insideKept = (p: number) => keep.some((r) => p > r.start && p < r.end);
  const chunks: TextChunk[] = [];
  let start = 0;
  for (const end of sentenceEnds(text)) {
    if (insideKept(end)) continue;
    let s = start;
    while (s < end) {
      const limit = chunks.length === 0 ? (opts.firstMaxCost ?? opts.maxCost) : opts.maxCost;
      if (cost(s, end) <= limit) {
        chunks.push({ start: s, end });
        break;
      }
      const cut = clauseCut(text, s, end, limit, cost, insideKept);
      chunks.push({ start: s, end: cut });
      s = cut;
    }
    start = end;
  }
  return chunks;
}

/** The best place to cut [s, end) so the head fits the limit: a clause mark, else a space, else anywhere. */
function clauseCut(
  text: string,
  s: number,
  end: number,
  limit: number,
  cost: (a: number, b: number) => number,
  insideKept: (p: number) => boolean,
): number {
  // Largest prefix that fits (cost grows with length, so binary search).
  let lo = s + 1, hi = end;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cost(s, mid) <= limit) lo = mid;
    else hi = mid - 1;
  }
  const fit = lo;
  const afterSpaces = (p: number) => {
    while (p < end && isSpace(text[p])) p++;
    return p;
  };
  let bestSpace = -1;
  for (let p = fit; p > s + 1; p--) {
    const prev = text[p - 1];
    if (insideKept(p)) continue;
    if (isSpace(text[p]) || p === end) {
      if (CLAUSE.has(prev) || (prev !== undefined && CLAUSE.has(text[p - 2]) && CLOSERS.has(prev))) return afterSpaces(p);
      if (bestSpace < 0 && !isSpace(prev)) bestSpace = p;
    } else if (CLAUSE.has(prev) && /[、，；：]/.test(prev)) {
      return p;
    }
  }
  if (bestSpace > 0) return afterSpaces(bestSpace);
  // No space at all (long CJK runs, URLs): cut at the limit, never inside a surrogate pair or a kept range.
  let p = Math.max(s + 1, fit);
  while (p < end && (/[\uDC00-\uDFFF]/.test(text[p]) || insideKept(p))) p++;
  return p;
}
