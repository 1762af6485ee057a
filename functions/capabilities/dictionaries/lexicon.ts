import {
  DEFAULT_CASE_SENSITIVE,
  DEFAULT_WORD_BOUNDARIES,
  MAX_RULES_PER_DICTIONARY,
  RULE_INPUT_MAX,
  RULE_OUTPUT_MAX,
  dictionaryMessages,
  ruleFromRequest,
  type PronunciationRule,
  type RuleRequest,
} from "../../platform/contract/dictionaries.js";
import { XML_NAMESPACE, XmlError, attribute, childElements, decodeXmlBytes, escapeXml, lineIndex, ownText, parseXml, type XmlElement } from "./xml.js";
import { xsampaToIpa } from "./phonetics.js";
import { codePointLength } from "../../platform/contract/text.js";

/**
 * Lexicon files: W3C PLS 1.0 (read and written) and a plain-text format (read). Both become
 * the same rules the API stores. Import problems are collected with their line numbers and the
 * whole file is refused, so no rule is dropped silently.
 */
export const PLS_NAMESPACE = "http://www.w3.org/2005/01/pronunciation-lexicon";
/** Our own attributes for the per-rule flags PLS has no words for; other readers ignore them. */
export const TIMBRE_PLS_NAMESPACE = "urn:timbre:pls:rules:1";

export class LexiconError extends Error {
  override name = "LexiconError";
  constructor(
    message: string,
    readonly kind: "unsafe" | "invalid" | "type" = "invalid",
  ) {
    super(message);
  }
}

export interface Lexicon {
  rules: PronunciationRule[];
  /** xml:lang of a PLS file. */
  language: string | null;
}

const MAX_PROBLEMS_SHOWN = 5;

/** Problems of an import: the first few are kept word for word, the rest only counted. */
class Problems {
  readonly shown: string[] = [];
  count = 0;
  add(message: () => string): void {
    if (this.count++ < MAX_PROBLEMS_SHOWN) this.shown.push(message());
  }
  failIfAny(): void {
    if (!this.count) return;
    const more = this.count > MAX_PROBLEMS_SHOWN ? ` (and ${this.count - MAX_PROBLEMS_SHOWN} more)` : "";
    throw new LexiconError(`The lexicon could not be imported: ${this.shown.join("; ")}${more}.`);
  }
}

const tooManyRules = (n: string | number) => new LexiconError(`The lexicon has ${n} rules; a dictionary can hold at most ${MAX_RULES_PER_DICTIONARY}.`);

function toRule(req: RuleRequest): PronunciationRule | string {
  const r = ruleFromRequest(req, xsampaToIpa);
  return "rule" in r ? r.rule : r.error;
}

function validateRequest(candidate: Record<string, unknown>): RuleRequest | string {
  const input = String(candidate.string_to_replace ?? "").trim();
  if (!input) return dictionaryMessages.inputRequired;
  if (codePointLength(input) > RULE_INPUT_MAX) return `${dictionaryMessages.inputTooLong} ("${input.slice(0, 20)}…")`;
  const out = String(candidate.type === "alias" ? candidate.alias : candidate.phoneme ?? "").trim();
  if (!out) return `${dictionaryMessages.outputRequired} for "${input}"`;
  if (codePointLength(out) > RULE_OUTPUT_MAX) return `${dictionaryMessages.outputTooLong} for "${input}"`;
  return { ...candidate, string_to_replace: input, ...(candidate.type === "alias" ? { alias: out } : { phoneme: out }) } as RuleRequest;
}

const isPls = (el: XmlElement, local: string) => el.local === local && (el.ns === PLS_NAMESPACE || el.ns === null);
const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

function flag(el: XmlElement, name: string, fallback: boolean): boolean {
  const v = attribute(el, name, TIMBRE_PLS_NAMESPACE);
  return v === undefined ? fallback : v.trim().toLowerCase() === "true";
}

/** Reads a PLS document. Every lexeme gives one rule per grapheme, with its preferred pronunciation. */
export function readPls(text: string): Lexicon {
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch (e) {
    if (e instanceof XmlError) throw new LexiconError(`The lexicon file was refused: ${e.message}.`, e.kind === "doctype" || e.kind === "entity" || e.kind === "limit" ? "unsafe" : "invalid");
    throw e;
  }
  if (!isPls(root, "lexicon")) throw new LexiconError("The lexicon file was refused: its root element must be <lexicon> (W3C PLS 1.0).");
  const lexiconAlphabet = attribute(root, "alphabet") ?? "ipa";
  const language = attribute(root, "lang", XML_NAMESPACE) ?? null;
  const lexemes = childElements(root).filter((el) => isPls(el, "lexeme")); // not <meta>, <metadata> or foreign elements
  // Every lexeme gives at least one rule: more lexemes than rules allowed is refused unread.
  if (lexemes.length > MAX_RULES_PER_DICTIONARY) throw tooManyRules(`${lexemes.length} lexemes and so at least as many`);
  const rules: PronunciationRule[] = [];
  const problems = new Problems();
  const lineOf = lineIndex(text);
  for (const lexeme of lexemes) {
    const at = () => `line ${lineOf(lexeme.offset)}`;
    const children = childElements(lexeme);
    const graphemes = children.filter((c) => isPls(c, "grapheme")).map((g) => collapse(ownText(g))).filter(Boolean);
    const prons = children.filter((c) => isPls(c, "alias") || isPls(c, "phoneme"));
    if (!graphemes.length) {
      problems.add(() => `${at()}: a lexeme has no grapheme`);
      continue;
    }
    if (!prons.length) {
      problems.add(() => `${at()}: "${graphemes[0]}" has no alias or phoneme`);
      continue;
    }
    const chosen = prons.find((p) => attribute(p, "prefer") === "true") ?? prons[0];
    const flags = { case_sensitive: flag(lexeme, "case-sensitive", DEFAULT_CASE_SENSITIVE), word_boundaries: flag(lexeme, "word-boundaries", DEFAULT_WORD_BOUNDARIES) };
    for (const grapheme of graphemes) {
      const candidate: Record<string, unknown> =
        chosen.local === "alias"
          ? { type: "alias", string_to_replace: grapheme, alias: collapse(ownText(chosen)), ...flags }
          : { type: "phoneme", string_to_replace: grapheme, phoneme: collapse(ownText(chosen)), alphabet: attribute(chosen, "alphabet") ?? lexiconAlphabet, ...flags };
      const req = validateRequest(candidate);
      const rule = typeof req === "string" ? req : toRule(req);
      if (typeof rule === "string") problems.add(() => `${at()}: ${rule === dictionaryMessages.alphabet ? `the alphabet "${candidate.alphabet}" is not supported (use ipa, x-sampa or cmu-arpabet)` : rule}`);
      else rules.push(rule);
      if (rules.length > MAX_RULES_PER_DICTIONARY) throw tooManyRules(`more than ${MAX_RULES_PER_DICTIONARY}`);
    }
  }
  problems.failIfAny();
  return { rules, language };
}

/**
 * The plain-text format, one rule per line:
 *   word = alias text          an alias rule
 *   word /təˈmeɪtoʊ/           an IPA phoneme rule (also "word = /…/")
 *   word = arpabet: T AH0 M EY1 T OW2
 *   word = x-sampa: t@"meItoU
 * Blank lines and lines starting with # are ignored.
 */
export function readText(text: string): Lexicon {
  const rules: PronunciationRule[] = [];
  const problems = new Problems();
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    let input: string;
    let output: string;
    const eq = line.indexOf("=");
    const slash = /^(.*?)\s+(\/.*\/)$/.exec(line);
    if (eq > 0) {
      input = line.slice(0, eq).trim();
      output = line.slice(eq + 1).trim();
    } else if (slash) {
      input = slash[1].trim();
      output = slash[2].trim();
    } else {
      problems.add(() => `line ${i + 1}: expected "word = alias" or "word /phonemes/"`);
      return;
    }
    const phon = /^(ipa|arpabet|cmu-arpabet|x-sampa)\s*:\s*(.*)$/i.exec(output);
    const candidate: Record<string, unknown> = phon
      ? { type: "phoneme", string_to_replace: input, phoneme: phon[2], alphabet: phon[1] }
      : output.length >= 2 && output.startsWith("/") && output.endsWith("/")
        ? { type: "phoneme", string_to_replace: input, phoneme: output, alphabet: "ipa" }
        : { type: "alias", string_to_replace: input, alias: output };
    const req = validateRequest(candidate);
    const rule = typeof req === "string" ? req : toRule(req);
    if (typeof rule === "string") problems.add(() => `line ${i + 1}: ${rule}`);
    else rules.push(rule);
    if (rules.length > MAX_RULES_PER_DICTIONARY) throw tooManyRules(`more than ${MAX_RULES_PER_DICTIONARY}`);
  });
  problems.failIfAny();
  if (rules.length > MAX_RULES_PER_DICTIONARY) throw tooManyRules(rules.length);
  return { rules, language: null };
}

/** A lexicon upload by file name (.pls, .xml, .txt); a name without extension ("blob") is sniffed. */
export function readLexiconFile(fileName: string, bytes: Uint8Array): Lexicon {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName.trim())?.[1]?.toLowerCase();
  if (ext && !["pls", "xml", "txt"].includes(ext)) throw new LexiconError(dictionaryMessages.fileType, "type");
  let text: string;
  try {
    text = decodeXmlBytes(bytes);
  } catch (e) {
    throw new LexiconError(`The lexicon file was refused: ${(e as Error).message}`);
  }
  const looksXml = /^\s*</.test(text);
  // A .txt that holds XML is a PLS saved under the wrong name.
  if (ext === "pls" || ext === "xml" || looksXml) return readPls(text);
  return readText(text);
}

/* ---------- Writing ---------- */

function mainAlphabet(rules: PronunciationRule[]): "ipa" | "cmu-arpabet" {
  let ipa = 0;
  let arpa = 0;
  for (const r of rules) if (r.type === "phoneme") (r.alphabet === "ipa" ? ipa++ : arpa++);
  return arpa > ipa ? "cmu-arpabet" : "ipa";
}

/** A PLS 1.0 document of the rules: one lexeme per rule, in rule order. */
export function writePls(rules: PronunciationRule[], language: string | null = null): string {
  const alphabet = mainAlphabet(rules);
  const needsFlags = rules.some((r) => r.case_sensitive !== DEFAULT_CASE_SENSITIVE || r.word_boundaries !== DEFAULT_WORD_BOUNDARIES);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<lexicon version="1.0"`,
    `    xmlns="${PLS_NAMESPACE}"`,
    `    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`,
    `    xsi:schemaLocation="${PLS_NAMESPACE} http://www.w3.org/TR/2007/CR-pronunciation-lexicon-20071212/pls.xsd"`,
    ...(needsFlags ? [`    xmlns:timbre="${TIMBRE_PLS_NAMESPACE}"`] : []),
    `    alphabet="${alphabet}" xml:lang="${escapeXml(language ?? "en-US")}">`,
  ];
  for (const r of rules) {
    const attrs = [
      r.case_sensitive !== DEFAULT_CASE_SENSITIVE ? ` timbre:case-sensitive="${r.case_sensitive}"` : "",
      r.word_boundaries !== DEFAULT_WORD_BOUNDARIES ? ` timbre:word-boundaries="${r.word_boundaries}"` : "",
    ].join("");
    lines.push(`  <lexeme${attrs}>`, `    <grapheme>${escapeXml(r.string_to_replace)}</grapheme>`);
    if (r.type === "alias") lines.push(`    <alias>${escapeXml(r.alias)}</alias>`);
    else lines.push(`    <phoneme${r.alphabet !== alphabet ? ` alphabet="${r.alphabet}"` : ""}>${escapeXml(r.phoneme)}</phoneme>`);
    lines.push(`  </lexeme>`);
  }
  lines.push(`</lexicon>`, "");
  return lines.join("\n");
}
