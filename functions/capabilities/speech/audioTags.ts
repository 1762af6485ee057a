import type { Replacement } from "./textmap.js";

/**
 * Audio tags of the v3 model ("[laughs]", "[whispers]"): direction for the performance, never
 * words to read. The embedded engine cannot laugh or whisper, so it leaves them unspoken (a
 * short pause where a tag stood between words); a neural engine behind the port can act on them.
 */
const TAG = /\[([a-z][a-z' -]{0,30})\]/gi;

export function audioTagReplacements(text: string): Replacement[] {
  const out: Replacement[] = [];
  for (const m of text.matchAll(TAG)) {
    const start = m.index!;
    const end = start + m[0].length;
    const between = start > 0 && end < text.length && /\S/.test(text[start - 1] ?? "") && /\S/.test(text[end] ?? "");
    out.push({ start, end, text: between ? ", " : "", tag: "audio-tag" });
  }
  return out;
}

export function audioTagsIn(text: string): string[] {
  return [...text.matchAll(TAG)].map((m) => m[1].toLowerCase());
}
