import { z } from "zod";
import { codePointLength } from "./text.js";

/**
 * Pronunciation dictionaries on the wire (contract §8) and in the editor (app-shell.md §5):
 * limits, the spec's messages, rule schemas and the editor's rule checks. zod only, so the
 * web validates in the browser with exactly what the API checks.
 */
export const RULE_INPUT_MAX = 50;
export const RULE_OUTPUT_MAX = 100;
export const LEXICON_MAX_BYTES = 1.5 * 1048576;
export const LEXICON_EXTENSIONS = [".pls", ".xml", ".txt"] as const;
export const MAX_RULES_PER_DICTIONARY = 10_000;
export const MAX_LOCATORS = 3;
export const DICTIONARY_NAME_MAX = 255;
export const DEFAULT_DICTIONARY_NAME = "Dictionary";
export const LIST_PAGE_SIZE = 100;
export const SEARCH_DEBOUNCE_MS = 200;
export const LIST_ROW_ESTIMATE_PX = 40;
export const RULE_ROW_PX = 35;
/** Defaults of the hosted service when a rule leaves the flags out. */
export const DEFAULT_CASE_SENSITIVE = true;
export const DEFAULT_WORD_BOUNDARIES = true;
/** The english-only models that speak phonemes (app-shell.md §5). */
export const PHONEME_MODEL_IDS = ["eleven_monolingual_v1", "eleven_flash_v2", "eleven_turbo_v2"] as const;

export const dictionaryMessages = {
  nameRequired: "Dictionary name is required",
  inputRequired: "Input is required",
  inputTooLong: "Input is too long",
  outputRequired: "Output is required",
  outputTooLong: "Output is too long",
  ipaSlashes: "Output must start and end with /",
  phonemesNeedEnglishModel: "Phonemes require an english-only model",
  editorRoleRequired: "Editor role required for saving changes",
  duplicateRule: "Rule is already defined",
  fileTooLarge: "File size exceeds the 1.5MB limit",
  selectVoice: "Please select a voice",
  viewerCannotSave: "Workspace viewers cannot save changes to pronunciation dictionaries. Please contact a workspace admin.",
  noResults: "No results",
  noRulesForSearch: "No rules were found with the current search filter.",
  noRules: "No rules",
  loadError: "There was an unexpected error loading this dictionary.",
  backToDictionaries: "Back to dictionaries",
  notFound: "Dictionary not found",
  fetchFailed: "Failed to fetch pronunciation dictionary",
  createFailed: "We were unable to create the pronunciation dictionary.",
  uploadFailed: "We were unable to upload the pronunciation dictionary.",
  previewFailed: "Failed to preview pronunciation rule. Please try again.",
  workspaceUpdateFailed: "Unexpected error updating workspace",
  metadataFailed: "Error while fetching pronunciation dictionary metadata",
  unableToRetrieve: (id: string) => `Unable to retrieve pronunciation dictionary with id: ${id}`,
  /** voice-creation.md §8: a download that is not a PLS document. */
  invalidResponseType: "Invalid response type received",
  fileType: "Only .pls, .xml and .txt lexicon files are accepted.",
  alphabet: "Alphabet must be 'ipa' or 'cmu-arpabet'",
};

export const RESOURCE_ROLES = ["admin", "editor", "commenter", "viewer"] as const;
export type ResourceRole = (typeof RESOURCE_ROLES)[number];
export const canEdit = (role: ResourceRole | null | undefined) => role === "admin" || role === "editor";

export type Alphabet = "ipa" | "cmu-arpabet";

export interface AliasRule {
  type: "alias";
  string_to_replace: string;
  alias: string;
  case_sensitive: boolean;
  word_boundaries: boolean;
}
export interface PhonemeRule {
  type: "phoneme";
  string_to_replace: string;
  /** IPA without surrounding slashes, or space-separated ARPAbet. */
  phoneme: string;
  alphabet: Alphabet;
  case_sensitive: boolean;
  word_boundaries: boolean;
}
export type PronunciationRule = AliasRule | PhonemeRule;

export const ARPABET_PHONES = [
  "AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW",
  "B", "CH", "D", "DH", "F", "G", "HH", "JH", "K", "L", "M", "N", "NG", "P", "R", "S", "SH", "T", "TH", "V", "W", "Y", "Z", "ZH",
] as const;
const ARPABET_SET = new Set<string>(ARPABET_PHONES);

/** ARPAbet tokens that are not phones (stress digits 0-2 allowed on any phone). */
export function unknownArpabet(phoneme: string): string[] {
  return phoneme
    .trim()
    .split(/\s+/)
    .filter((t) => t && !ARPABET_SET.has(t.toUpperCase().replace(/[012]$/, "")));
}

/** "/təˈmeɪtoʊ/" and "təˈmeɪtoʊ" are the same IPA; we store it without slashes. */
export const stripSlashes = (s: string) => s.trim().replace(/^\/+/, "").replace(/\/+$/, "").trim();

export function normalizeAlphabet(a: string): Alphabet | "x-sampa" | null {
  const v = a.trim().toLowerCase();
  if (v === "ipa") return "ipa";
  if (v === "cmu-arpabet" || v === "arpabet" || v === "x-cmu-arpabet" || v === "cmu") return "cmu-arpabet";
  if (v === "x-sampa" || v === "xsampa" || v === "sampa") return "x-sampa";
  return null;
}

const input = z
  .string({ required_error: dictionaryMessages.inputRequired, invalid_type_error: dictionaryMessages.inputRequired })
  .trim()
  .min(1, dictionaryMessages.inputRequired)
  .refine((s) => codePointLength(s) <= RULE_INPUT_MAX, dictionaryMessages.inputTooLong);
const output = z
  .string({ required_error: dictionaryMessages.outputRequired, invalid_type_error: dictionaryMessages.outputRequired })
  .trim()
  .min(1, dictionaryMessages.outputRequired)
  .refine((s) => codePointLength(s) <= RULE_OUTPUT_MAX, dictionaryMessages.outputTooLong);
const flags = { case_sensitive: z.boolean().nullish(), word_boundaries: z.boolean().nullish() };

/** A rule as clients send it (PronunciationDictionaryAliasRuleRequestModel / ...PhonemeRuleRequestModel). */
export const RuleRequest = z.discriminatedUnion("type", [
  z.object({ type: z.literal("alias"), string_to_replace: input, alias: output, ...flags }),
  z.object({ type: z.literal("phoneme"), string_to_replace: input, phoneme: output, alphabet: z.string().max(32), ...flags }),
]);
export type RuleRequest = z.infer<typeof RuleRequest>;

/**
 * The stored form of a request rule: defaults filled, IPA without slashes, alphabet checked.
 * X-SAMPA is accepted by the server only (converted there); here it is an error.
 */
export function ruleFromRequest(r: RuleRequest, convertXSampa?: (s: string) => string): { rule: PronunciationRule } | { error: string; field: "phoneme" | "alphabet" } {
  const base = {
    string_to_replace: r.string_to_replace,
    case_sensitive: r.case_sensitive ?? DEFAULT_CASE_SENSITIVE,
    word_boundaries: r.word_boundaries ?? DEFAULT_WORD_BOUNDARIES,
  };
  if (r.type === "alias") return { rule: { type: "alias", ...base, alias: r.alias } };
  const alphabet = normalizeAlphabet(r.alphabet);
  if (!alphabet || (alphabet === "x-sampa" && !convertXSampa)) return { error: dictionaryMessages.alphabet, field: "alphabet" };
  let phoneme = alphabet === "cmu-arpabet" ? r.phoneme.trim().replace(/\s+/g, " ") : stripSlashes(r.phoneme);
  if (alphabet === "x-sampa") phoneme = convertXSampa!(phoneme);
  if (!phoneme) return { error: dictionaryMessages.outputRequired, field: "phoneme" };
  if (codePointLength(phoneme) > RULE_OUTPUT_MAX) return { error: dictionaryMessages.outputTooLong, field: "phoneme" };
  if (alphabet === "cmu-arpabet") {
    const bad = unknownArpabet(phoneme);
    if (bad.length) return { error: `Unknown ARPAbet symbols: ${bad.slice(0, 5).join(", ")}`, field: "phoneme" };
  }
  return { rule: { type: "phoneme", ...base, phoneme, alphabet: alphabet === "x-sampa" ? "ipa" : alphabet } };
}

export const WORKSPACE_ACCESS = z.enum(RESOURCE_ROLES);

export const CreateFromRulesBody = z.object({
  name: z.string({ required_error: dictionaryMessages.nameRequired }).trim().min(1, dictionaryMessages.nameRequired).max(DICTIONARY_NAME_MAX),
  rules: z.array(RuleRequest).max(MAX_RULES_PER_DICTIONARY, `A dictionary can hold at most ${MAX_RULES_PER_DICTIONARY} rules`),
  description: z.string().max(1000).nullish(),
  workspace_access: WORKSPACE_ACCESS.nullish(),
});

export const UpdateDictionaryBody = z.object({
  name: z.string().trim().min(1, dictionaryMessages.nameRequired).max(DICTIONARY_NAME_MAX).nullish(),
  archived: z.boolean().nullish(),
});

export const RulesBody = z.object({ rules: z.array(RuleRequest).max(MAX_RULES_PER_DICTIONARY, `A dictionary can hold at most ${MAX_RULES_PER_DICTIONARY} rules`) });
export const RemoveRulesBody = z.object({ rule_strings: z.array(z.string().max(RULE_INPUT_MAX * 4)).max(MAX_RULES_PER_DICTIONARY) });

export const PreviewBody = z.object({
  rule: RuleRequest,
  voice_id: z.string({ required_error: dictionaryMessages.selectVoice }).min(1, dictionaryMessages.selectVoice).max(64),
  model_id: z.string().max(64).nullish(),
});

/* ---------- The editor: one rule row, its checks and alerts ---------- */

/** A rule row in the editor; `output` is the alias, or the phoneme (IPA written /like this/). */
export interface EditorRule {
  key: string;
  type: "alias" | "phoneme";
  string_to_replace: string;
  output: string;
  alphabet: Alphabet;
  case_sensitive: boolean;
  word_boundaries: boolean;
}

export type AlertLevel = "error" | "warning" | "change" | "static";
export interface RuleAlert {
  level: AlertLevel;
  messages: string[];
}

export function editorRuleFrom(rule: PronunciationRule, key: string): EditorRule {
  return {
    key,
    type: rule.type,
    string_to_replace: rule.string_to_replace,
    output: rule.type === "alias" ? rule.alias : rule.alphabet === "ipa" ? `/${rule.phoneme}/` : rule.phoneme,
    alphabet: rule.type === "phoneme" ? rule.alphabet : "ipa",
    case_sensitive: rule.case_sensitive,
    word_boundaries: rule.word_boundaries,
  };
}

/** The request form of an editor row (slashes stay: the API strips them). */
export function requestFromEditorRule(r: EditorRule): RuleRequest {
  const flags = { case_sensitive: r.case_sensitive, word_boundaries: r.word_boundaries };
  return r.type === "alias"
    ? { type: "alias", string_to_replace: r.string_to_replace.trim(), alias: r.output.trim(), ...flags }
    : { type: "phoneme", string_to_replace: r.string_to_replace.trim(), phoneme: r.output.trim(), alphabet: r.alphabet, ...flags };
}

/** Field errors of one row, in the spec's words. */
export function ruleErrors(r: EditorRule): { input?: string; output?: string } {
  const out: { input?: string; output?: string } = {};
  const i = r.string_to_replace.trim();
  if (!i) out.input = dictionaryMessages.inputRequired;
  else if (codePointLength(i) > RULE_INPUT_MAX) out.input = dictionaryMessages.inputTooLong;
  const o = r.output.trim();
  if (!o) out.output = dictionaryMessages.outputRequired;
  else if (codePointLength(o) > RULE_OUTPUT_MAX) out.output = dictionaryMessages.outputTooLong;
  else if (r.type === "phoneme" && r.alphabet === "ipa" && !(o.length >= 2 && o.startsWith("/") && o.endsWith("/"))) out.output = dictionaryMessages.ipaSlashes;
  else if (r.type === "phoneme" && r.alphabet === "cmu-arpabet" && unknownArpabet(o).length) out.output = `Unknown ARPAbet symbols: ${unknownArpabet(o).slice(0, 5).join(", ")}`;
  return out;
}

const sameRule = (a: EditorRule, b: EditorRule) =>
  a.type === b.type && a.string_to_replace === b.string_to_replace && a.output === b.output && a.alphabet === b.alphabet && a.case_sensitive === b.case_sensitive && a.word_boundaries === b.word_boundaries;

/**
 * Each row's alert, highest level first: error (invalid), warning (duplicate input, phonemes on
 * a model that cannot speak them), change (new or edited since the loaded version), static.
 */
export function ruleAlerts(rules: EditorRule[], saved: Map<string, EditorRule>, baseModelId: string | null): Map<string, RuleAlert> {
  const counts = new Map<string, number>();
  for (const r of rules) {
    const k = r.string_to_replace.trim();
    if (k) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const phonemesOk = !baseModelId || (PHONEME_MODEL_IDS as readonly string[]).includes(baseModelId);
  const out = new Map<string, RuleAlert>();
  for (const r of rules) {
    const errors = Object.values(ruleErrors(r)).filter((m): m is string => !!m);
    if (errors.length) {
      out.set(r.key, { level: "error", messages: errors });
      continue;
    }
    const warnings: string[] = [];
    if ((counts.get(r.string_to_replace.trim()) ?? 0) > 1) warnings.push(dictionaryMessages.duplicateRule);
    if (r.type === "phoneme" && !phonemesOk) warnings.push(dictionaryMessages.phonemesNeedEnglishModel);
    if (warnings.length) {
      out.set(r.key, { level: "warning", messages: warnings });
      continue;
    }
    const before = saved.get(r.key);
    if (!before || !sameRule(before, r)) out.set(r.key, { level: "change", messages: [before ? "Edited" : "New rule"] });
    else out.set(r.key, { level: "static", messages: [] });
  }
  return out;
}

/** The dictionary-level alert: the highest level among the rows, plus removed rows and the role. */
export function dictionaryAlert(rules: EditorRule[], alerts: Map<string, RuleAlert>, saved: Map<string, EditorRule>, role: ResourceRole | null): { level: AlertLevel; message: string | null } {
  const counts: Record<AlertLevel, number> = { error: 0, warning: 0, change: 0, static: 0 };
  for (const a of alerts.values()) counts[a.level]++;
  const keys = new Set(rules.map((r) => r.key));
  const removed = [...saved.keys()].filter((k) => !keys.has(k)).length;
  const changed = counts.change + removed;
  if (counts.error) return { level: "error", message: `${counts.error} ${counts.error === 1 ? "rule has" : "rules have"} errors` };
  if (changed && !canEdit(role)) return { level: "warning", message: dictionaryMessages.editorRoleRequired };
  if (counts.warning) return { level: "warning", message: `${counts.warning} ${counts.warning === 1 ? "rule has" : "rules have"} warnings` };
  if (changed) return { level: "change", message: `${changed} unsaved ${changed === 1 ? "change" : "changes"}` };
  return { level: "static", message: null };
}

/** Save is enabled only with changes, no errors, and the editor or admin role (app-shell.md §4). */
export function canSave(rules: EditorRule[], alerts: Map<string, RuleAlert>, saved: Map<string, EditorRule>, role: ResourceRole | null): boolean {
  if (!canEdit(role)) return false;
  let changed = [...saved.keys()].some((k) => !rules.some((r) => r.key === k));
  for (const a of alerts.values()) {
    if (a.level === "error") return false;
    if (a.level === "change") changed = true;
  }
  if (!changed) {
    // A warned row may still be an edit.
    changed = rules.some((r) => {
      const before = saved.get(r.key);
      return !before || !sameRule(before, r);
    });
  }
  return changed;
}

/** Case-insensitive substring search on names (app-shell.md §5). */
export const matchesSearch = (name: string, search: string) => name.toLowerCase().includes(search.trim().toLowerCase());
