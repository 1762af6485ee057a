/**
 * Splits text into synthesis chunks: sentences, and clauses of sentences that are too long.
 * Chunks are contiguous and cover the whole text (whitespace included) so their alignments
 * concatenate back to the exact input.
 *
 * Linear in the text: costs come from prefix sums computed once, kept ranges from a lookup table,
 * so a 40,000-character sentence without punctuation costs one pass, not one pass per chunk.
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
  /**
   * Cost of the UTF-16 unit at i; a chunk costs the sum over its units. Defaults to UTF-8 bytes
   * (a surrogate pair counts 4 in all). Extra cost of a kept range belongs at its start.
   */
  unitCost?: (i: number) => number;
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

/** UTF-8 bytes of the UTF-16 unit at i: a surrogate pair's 4 bytes are split 2 + 2. */
export function utf8UnitLength(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdfff ? 2 : 3;
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
  const unit = opts.unitCost ?? ((i: number) => utf8UnitLength(text, i));
  const prefix = new Float64Array(text.length + 1);
  for (let i = 0; i < text.length; i++) prefix[i + 1] = prefix[i] + unit(i);
  const cost = (a: number, b: number) => prefix[b] - prefix[a];
  // kept[p]: a cut at p would fall strictly inside a kept range.
  const kept = new Uint8Array(text.length + 1);
  for (const r of opts.keepTogether ?? []) for (let p = Math.max(0, r.start + 1); p < Math.min(r.end, text.length + 1); p++) kept[p] = 1;
  const insideKept = (p: number) => kept[p] === 1;
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
