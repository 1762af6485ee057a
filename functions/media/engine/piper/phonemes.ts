/**
 * Text to Piper's phoneme ids, following Piper's own rules (piper-phonemize): eSpeak NG's IPA per
 * clause, the clause's closing punctuation kept as a phoneme and a space after a clause that does
 * not end the text; phonemes are code points; ids are BOS "^", then each phoneme's ids followed
 * by the pad "_", then EOS "$". Phonemes the map lacks are dropped and counted.
 */
import { MAX_LINE_BYTES } from "../espeak/runtime.js";

export interface Clause {
  /** UTF-16 offsets into the chunk's text, end exclusive (punctuation and spaces after it included). */
  start: number;
  end: number;
  /** What eSpeak reads (without the closing punctuation). */
  text: string;
  /** The closing punctuation Piper keeps (",", ".", "!", "?", ";", ":"), or "". */
  punctuation: string;
}

const CLAUSE_END = /[.,;:!?…]+["'”’)\]]*(\s+|$)/g;

/** Splits a chunk into clauses at , ; : . ! ? (Piper's eSpeak clause terminators). */
export function splitClauses(text: string): Clause[] {
  const out: Clause[] = [];
  let from = 0;
  const push = (end: number, mark: string) => {
    const piece = text.slice(from, end);
    const spoken = piece.replace(/[.,;:!?…"'”’)\]\s]+$/u, "");
    // Anything eSpeak may read aloud ("&", "%", digits, letters) makes a clause; bare punctuation does not.
    if (/[^\s\p{P}]|[&%@#]/u.test(spoken)) out.push({ start: from, end, text: spoken, punctuation: mark });
    else if (out.length) out[out.length - 1].end = end;
    from = end;
  };
  for (const m of text.matchAll(CLAUSE_END)) {
    const end = m.index! + m[0].length;
    const c = m[0].trim()[0];
    push(end, c === "…" ? "." : c);
  }
  if (from < text.length) push(text.length, "");
  if (out.length) out[out.length - 1].end = text.length;
  return out;
}

/** The phoneme string of each clause, as Piper joins them. */
export function clausePhonemes(clauses: readonly Clause[], ipa: readonly string[]): string[] {
  return clauses.map((c, i) => `${ipa[i] ?? ""}${c.punctuation}${i < clauses.length - 1 ? " " : ""}`);
}

export interface PhonemeIds {
  ids: number[];
  /** For each id, the index of the phoneme (code point of the joined phonemes) it speaks, or -1 (BOS, pad, EOS). */
  phonemeAt: number[];
  /** Code points the map had no id for. */
  missing: string[];
}

export function phonemesToIds(phonemes: string, map: ReadonlyMap<string, number[]>): PhonemeIds {
  const ids: number[] = [];
  const phonemeAt: number[] = [];
  const missing: string[] = [];
  const pad = map.get("_")!;
  const add = (xs: number[], at: number) => {
    for (const x of xs) {
      ids.push(x);
      phonemeAt.push(at);
    }
  };
  add(map.get("^")!, -1);
  add(pad, -1);
  let k = 0;
  for (const p of phonemes.normalize("NFD")) {
    const got = map.get(p);
    if (got) {
      add(got, k);
      add(pad, -1);
    } else missing.push(p);
    k++;
  }
  add(map.get("$")!, -1);
  return { ids, phonemeAt, missing };
}

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Bytes of escaped text per eSpeak line (its lines hold MAX_LINE_BYTES with the markup). */
const LINE_TEXT_BYTES = MAX_LINE_BYTES - 64;
const utf8 = new TextEncoder();

/** A clause as eSpeak lines: whole when it fits, else cut between words (a word longer than a line is cut). */
/** (Escaped for the SSML line.) */
export function linesOf(clause: string): string[] {
  const escaped = (s: string) => utf8.encode(escapeXml(s)).length;
  if (escaped(clause) <= LINE_TEXT_BYTES) return [escapeXml(clause)];
  const out: string[] = [];
  let line = "";
  for (const word of clause.split(/(?<=\s)/)) {
    if (line && escaped(line + word) > LINE_TEXT_BYTES) {
      out.push(line);
      line = "";
    }
    let w = word;
    while (escaped(w) > LINE_TEXT_BYTES) {
      let n = Math.floor(LINE_TEXT_BYTES / 6);
      if (/[\uD800-\uDBFF]/.test(w[n - 1])) n--;
      out.push(w.slice(0, n));
      w = w.slice(n);
    }
    line += w;
  }
  if (line.trim()) out.push(line);
  return out.map(escapeXml);
}

