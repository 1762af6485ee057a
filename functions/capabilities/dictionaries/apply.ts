import type { PhonemeSpan } from "../../media/engine/port.js";
import type { PronunciationRule } from "../../platform/contract/dictionaries.js";
import type { MappedText, Replacement } from "../speech/textmap.js";

/**
 * Finding and applying rules. Dictionaries come in priority order (the request's locators, then
 * the workspace's); inside one, rules keep their order. Where matches overlap, the earlier rule
 * wins and later ones keep out of its span ("first match wins"). With word boundaries a match
 * may not touch a letter, digit or mark on either side, so a rule for "nin" never changes
 * "nintendo".
 */
export interface CompiledRule {
  rule: PronunciationRule;
  /** Dictionary index * 1e6 + rule index: lower wins. */
  priority: number;
  lower: string;
}

export interface CompiledDictionary {
  size: number;
  /** Rules by input length, then by lower-cased input: at most one lookup per length and position. */
  byLength: Map<number, Map<string, CompiledRule[]>>;
}

const WORD = /[\p{L}\p{N}\p{M}_]/u;

export function compileRules(rules: readonly PronunciationRule[]): CompiledDictionary {
  const byLength = new Map<number, Map<string, CompiledRule[]>>();
  rules.forEach((rule, i) => {
    const c: CompiledRule = { rule, priority: i, lower: rule.string_to_replace.toLowerCase() };
    const n = rule.string_to_replace.length;
    let m = byLength.get(n);
    if (!m) byLength.set(n, (m = new Map()));
    const list = m.get(c.lower);
    if (list) list.push(c);
    else m.set(c.lower, [c]);
  });
  return { size: rules.length, byLength };
}

export interface RuleMatch {
  start: number;
  end: number;
  rule: PronunciationRule;
  /** Index of the dictionary in the list given to findMatches. */
  dictionary: number;
  priority: number;
}

function charBefore(text: string, i: number): string {
  if (i <= 0) return "";
  const lo = text.charCodeAt(i - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) return text.slice(i - 2, i);
  return text[i - 1];
}

function charAt(text: string, i: number): string {
  if (i >= text.length) return "";
  const cp = text.codePointAt(i)!;
  return String.fromCodePoint(cp);
}

/** `piece` is text[i, i + length) and already equals the rule's input ignoring case. */
function matchesAt(text: string, i: number, piece: string, c: CompiledRule): boolean {
  const s = c.rule.string_to_replace;
  if (c.rule.case_sensitive && piece !== s) return false;
  if (c.rule.word_boundaries) {
    if (WORD.test(charBefore(text, i))) return false;
    if (WORD.test(charAt(text, i + s.length))) return false;
  }
  return true;
}

/** Non-overlapping matches in text order. */
export function findMatches(text: string, dictionaries: readonly CompiledDictionary[]): RuleMatch[] {
  const candidates: RuleMatch[] = [];
  const lengths = [...new Set(dictionaries.flatMap((d) => [...d.byLength.keys()]))];
  for (let i = 0; i < text.length; i++) {
    for (const n of lengths) {
      if (i + n > text.length) continue;
      const piece = text.slice(i, i + n);
      const lower = piece.toLowerCase();
      dictionaries.forEach((d, di) => {
        for (const c of d.byLength.get(n)?.get(lower) ?? []) {
          if (matchesAt(text, i, piece, c)) candidates.push({ start: i, end: i + n, rule: c.rule, dictionary: di, priority: di * 1e6 + c.priority });
        }
      });
    }
  }
  candidates.sort((a, b) => a.priority - b.priority || a.start - b.start);
  const taken = new Uint8Array(text.length);
  const chosen: RuleMatch[] = [];
  for (const m of candidates) {
    let free = true;
    for (let k = m.start; k < m.end; k++) {
      if (taken[k]) {
        free = false;
        break;
      }
    }
    if (!free) continue;
    taken.fill(1, m.start, m.end);
    chosen.push(m);
  }
  return chosen.sort((a, b) => a.start - b.start);
}

export interface ApplyOptions {
  /** The model speaks phoneme spans; otherwise phoneme rules become respellings. */
  phonemes: boolean;
  /** Readable spelling of a phoneme rule, for models without phoneme input. */
  respell(rule: Extract<PronunciationRule, { type: "phoneme" }>): string;
  /** Whether the engine can speak a phoneme rule at all (and which symbols it skips). */
  speakable(rule: Extract<PronunciationRule, { type: "phoneme" }>): { ok: boolean; skipped: string[] };
}

export interface ApplyResult {
  text: MappedText;
  phonemeSpans: PhonemeSpan[];
  matches: RuleMatch[];
  /** Phoneme rules spoken as respellings, with the respelling used. */
  respelled: Array<{ rule: PronunciationRule; respelling: string; reason: "model" | "unspeakable" }>;
  /** Phoneme rules with symbols the engine skipped. */
  skippedSymbols: Array<{ rule: PronunciationRule; symbols: string[] }>;
}

/** Rewrites aliases, turns phoneme rules into spans (or respellings), keeping the map to the caller's text. */
export function applyRules(text: MappedText, dictionaries: readonly CompiledDictionary[], opts: ApplyOptions): ApplyResult {
  const matches = findMatches(text.text, dictionaries);
  const replacements: Replacement[] = [];
  const spans: PhonemeSpan[] = [];
  const respelled: ApplyResult["respelled"] = [];
  const skippedSymbols: ApplyResult["skippedSymbols"] = [];
  let delta = 0;
  for (const m of matches) {
    const r = m.rule;
    let replacement: string | null = null;
    if (r.type === "alias") replacement = r.alias;
    else {
      const speak = opts.phonemes ? opts.speakable(r) : { ok: false, skipped: [] };
      if (opts.phonemes && speak.ok) {
        spans.push({ start: m.start + delta, end: m.end + delta, phonemes: r.phoneme, alphabet: r.alphabet });
        if (speak.skipped.length && !skippedSymbols.some((s) => s.rule === r)) skippedSymbols.push({ rule: r, symbols: speak.skipped });
      } else {
        replacement = opts.respell(r) || r.string_to_replace;
        if (!respelled.some((x) => x.rule === r)) respelled.push({ rule: r, respelling: replacement, reason: opts.phonemes ? "unspeakable" : "model" });
      }
    }
    if (replacement !== null) {
      replacements.push({ start: m.start, end: m.end, text: replacement, tag: r.type === "alias" ? "alias" : "phoneme-respelling" });
      delta += replacement.length - (m.end - m.start);
    }
  }
  return { text: text.replace(replacements), phonemeSpans: spans, matches, respelled, skippedSymbols };
}
