/**
 * Character times for a flite chunk from flite's own segment timings (`-psdur`: every phone and
 * pause with its end time). Flite does not say which phones belong to which word, so:
 *
 * 1. Words are the chunk's runs of non-space characters without the punctuation around them
 *    (a run with no letter or digit, such as "—" or "&", is no word); a word's weight is its count
 *    of letters (a digit counts 3: numbers are read out as longer words).
 * 2. Flite's pauses inside the utterance (`pau` between phones) fall at phrase breaks. When their
 *    number equals the number of words that end a phrase (ending in , ; : . ! ? or a dash), each
 *    pause is given to its phrase break; otherwise the whole utterance is one phrase.
 * 3. Within a phrase the phones are shared among its words in proportion to their weights
 *    (cumulative weight rounded to a phone boundary), so every word starts and ends on one of
 *    flite's phone boundaries.
 * 4. Inside a word, time is spread evenly over its characters; spaces and punctuation between two
 *    words share the gap between them (the pause, if any); characters before the first word or
 *    after the last share the leading or trailing silence.
 *
 * Times are in seconds of the chunk's own audio, non-decreasing, ends at or after starts, within
 * [0, duration].
 */
export interface Segment {
  phone: string;
  end: number;
}

export interface ChunkAlignment {
  characters: string[];
  starts: number[];
  ends: number[];
}

/** Parses `-psdur` output: "pau:0.164 hh:0.255 ...". */
export function parseSegments(out: string): Segment[] {
  const segs: Segment[] = [];
  for (const m of out.matchAll(/(\S+):(\d+(?:\.\d+)?)/g)) segs.push({ phone: m[1], end: Number(m[2]) });
  return segs;
}

const ALNUM = /[\p{L}\p{N}]/u;
const PHRASE_END = /[,;:.!?…—–-]["'”’)\]]*$/;

function weight(word: string): number {
  let w = 0;
  for (const ch of word) {
    if (/\p{L}/u.test(ch)) w += 1;
    else if (/\p{N}/u.test(ch)) w += 3;
  }
  return w;
}

export function alignFlite(text: string, segments: readonly Segment[], duration: number): ChunkAlignment {
  const chars = Array.from(text);
  // Code point index -> UTF-16 offset, words located in code points.
  const words: Array<{ start: number; end: number; weight: number; phraseEnd: boolean }> = [];
  for (let i = 0; i < chars.length; ) {
    if (/\s/u.test(chars[i])) {
      i++;
      continue;
    }
    let j = i;
    while (j < chars.length && !/\s/u.test(chars[j])) j++;
    const w = chars.slice(i, j).join("");
    // The word's time covers its letters and digits; punctuation around it belongs to the gaps.
    let a = i;
    let b = j;
    while (a < b && !ALNUM.test(chars[a])) a++;
    while (b > a && !ALNUM.test(chars[b - 1])) b--;
    if (a < b) words.push({ start: a, end: b, weight: weight(w), phraseEnd: PHRASE_END.test(w) });
    else if (words.length && PHRASE_END.test(w)) words[words.length - 1].phraseEnd = true; // "word — next"
    i = j;
  }
  // Flite's times are of its own output (the duration stretch is in them), clamped to the audio.
  const scale = (t: number) => Math.min(duration, Math.max(0, t));
  // Phones with their start and end; pauses at the edges are leading/trailing silence.
  const phones: Array<{ phone: string; start: number; end: number }> = [];
  let prev = 0;
  for (const s of segments) {
    phones.push({ phone: s.phone, start: scale(prev), end: scale(s.end) });
    prev = s.end;
  }
  let first = 0;
  while (first < phones.length && phones[first].phone === "pau") first++;
  let last = phones.length - 1;
  while (last >= first && phones[last].phone === "pau") last--;
  const spoken = phones.slice(first, last + 1);
  const wordTimes: Array<{ start: number; end: number } | null> = words.map(() => null);
  const weighted = words.map((w, i) => ({ ...w, i })).filter((w) => w.weight > 0);
  if (spoken.length > 0 && weighted.length > 0) {
    // Phrases of phones, split at the pauses inside the utterance.
    const phrases: Array<typeof spoken> = [[]];
    for (const p of spoken) {
      if (p.phone === "pau") phrases.push([]);
      else phrases[phrases.length - 1].push(p);
    }
    const nonEmpty = phrases.filter((p) => p.length > 0);
    // Phrases of words, split after each phrase-ending word but the last.
    const wordPhrases: Array<typeof weighted> = [[]];
    weighted.forEach((w, k) => {
      wordPhrases[wordPhrases.length - 1].push(w);
      if (w.phraseEnd && k < weighted.length - 1) wordPhrases.push([]);
    });
    const pairs: Array<[typeof weighted, typeof spoken]> =
      nonEmpty.length === wordPhrases.length && nonEmpty.length > 1
        ? wordPhrases.map((wp, k) => [wp, nonEmpty[k]])
        : [[weighted, spoken.filter((p) => p.phone !== "pau")]];
    for (const [ws, ps] of pairs) {
      const total = ws.reduce((s, w) => s + w.weight, 0);
      let cum = 0;
      let from = 0;
      ws.forEach((w, k) => {
        cum += w.weight;
        let to = k === ws.length - 1 ? ps.length : Math.round((cum / total) * ps.length);
        to = Math.max(to, Math.min(from + 1, ps.length));
        const a = ps[Math.min(from, ps.length - 1)];
        const b = ps[Math.max(Math.min(to, ps.length) - 1, 0)];
        const start = from < ps.length ? a.start : b.end;
        wordTimes[w.i] = { start, end: Math.max(start, b.end) };
        from = Math.min(to, ps.length);
      });
    }
  }
  // Words of no weight take an instant at the end of the word before them (or the speech's start).
  const speechStart = spoken.length ? spoken[0].start : 0;
  let cursor = speechStart;
  for (let k = 0; k < words.length; k++) {
    const t = wordTimes[k];
    if (t) {
      t.start = Math.max(t.start, cursor);
      t.end = Math.max(t.end, t.start);
      cursor = t.end;
    } else wordTimes[k] = { start: cursor, end: cursor };
  }
  const starts = new Array<number>(chars.length);
  const ends = new Array<number>(chars.length);
  const spread = (from: number, to: number, t0: number, t1: number) => {
    const n = to - from;
    for (let k = 0; k < n; k++) {
      starts[from + k] = t0 + ((t1 - t0) * k) / n;
      ends[from + k] = t0 + ((t1 - t0) * (k + 1)) / n;
    }
  };
  let pos = 0;
  let t = 0;
  for (let k = 0; k < words.length; k++) {
    const w = words[k];
    const wt = wordTimes[k]!;
    // The gap before the word: from the end of the previous word (or 0) to its start.
    spread(pos, w.start, k === 0 ? 0 : t, wt.start);
    spread(w.start, w.end, wt.start, wt.end);
    pos = w.end;
    t = wt.end;
  }
  spread(pos, chars.length, words.length ? t : 0, words.length ? Math.max(t, duration) : duration);
  const r = (x: number) => Math.min(duration, Math.max(0, x));
  // Characters are code points; the port's alignment spells the text in code points too
  // (a surrogate pair is one character).
  return { characters: chars, starts: starts.map(r), ends: ends.map(r) };
}
