/**
 * Reading a voice description: which language it is written in, and what it asks of the voice
 * (gender, age, language and accent, pitch, pace, energy, breathiness, timbre, roughness,
 * loudness, and the descriptive tags). Pure and linear in the prompt's length; every word is
 * looked up in ./lexicon.ts. A named real person or a language the engine does not speak is
 * reported, not guessed around: the caller refuses those prompts.
 */
import {
  AGE_TERMS,
  DESCRIPTIVE_ENTRIES,
  GENDER_TERMS,
  INTENSIFIERS,
  LANGUAGE_NAMES,
  NEGATORS,
  PROMPT_LANGUAGES,
  SOFTENERS,
  STOPWORDS,
  TRAIT_ENTRIES,
  UNSPOKEN_LANGUAGES,
  type Effect,
  type PromptLanguage,
} from "./lexicon.js";
import { namedPerson } from "./people.js";

export type Gender = "male" | "female" | "neutral";
export type Age = "young" | "middle_aged" | "old";

export interface PromptTraits {
  /** The language the description is written in. */
  promptLanguage: PromptLanguage;
  /** The voice's language: named in the prompt, else the prompt's own. */
  language: string;
  accent: string | null;
  gender: Gender | null;
  age: Age | null;
  /** Summed effects, each within -1..1 (breath, rough, nasal and soft within 0..1). */
  pitch: number;
  pace: number;
  energy: number;
  breath: number;
  timbre: number;
  rough: number;
  nasal: number;
  soft: number;
  loud: number;
  /** Descriptive tags the prompt used, in the order of contract/voices.ts DESCRIPTIVES. */
  descriptives: string[];
  /** Set when the prompt asks for a language the engine cannot speak. */
  unspokenLanguage: string | null;
  /** Set when the prompt asks to imitate a named real person. */
  namedPerson: string | null;
  /** How many words the reading used (0: nothing recognised; the voice is left to the seed). */
  matched: number;
}

interface Token {
  text: string;
  /** Offset of the token in the original prompt, for the name check. */
  start: number;
}

const WORD = /[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*/gu;

export function tokenize(s: string): Token[] {
  const out: Token[] = [];
  // Possessives read as the word itself ("woman's voice", "the men's choir").
  for (const m of s.toLocaleLowerCase("en").normalize("NFC").matchAll(WORD)) out.push({ text: m[0].replace(/’/g, "'").replace(/'s$|(?<=s)'$/, ""), start: m.index! });
  return out;
}

/**
 * A term matches a word exactly, or as a stem (`tief*`: up to five more letters, or seven after
 * a stem of five or more, so compounds such as "Männerstimme" count).
 */
function wordMatches(term: string, word: string): boolean {
  if (term.endsWith("*")) {
    const stem = term.slice(0, -1);
    return word.startsWith(stem) && word.length - stem.length <= (stem.length >= 5 ? 7 : 5);
  }
  return term === word;
}

/** Length in words of `term` when it matches at token `i`, else 0. */
function matchAt(tokens: Token[], i: number, term: string): number {
  const parts = term.split(/[\s]+/);
  if (i + parts.length > tokens.length) return 0;
  for (let k = 0; k < parts.length; k++) if (!wordMatches(parts[k], tokens[i + k].text)) return 0;
  return parts.length;
}

/** Which language a description is written in: Devanagari is Hindi; else the most function words. */
export function promptLanguageOf(tokens: Token[], raw: string): PromptLanguage {
  if (/[\u0900-\u097F]/.test(raw)) return "hi";
  let best: PromptLanguage = "en";
  let bestScore = 0;
  for (const lang of PROMPT_LANGUAGES) {
    const words = new Set(STOPWORDS[lang]);
    let score = 0;
    for (const t of tokens) if (words.has(t.text)) score++;
    // Letters only some languages use break ties (ł, ß, ñ, å...).
    if (lang === "pl" && /[łżźśćęą]/.test(raw)) score += 2;
    if (lang === "de" && /[ßäöü]/.test(raw)) score += 1;
    if (lang === "sv" && /[åäö]/.test(raw) && !/[ßü]/.test(raw)) score += 1;
    if (lang === "es" && /[ñ¿¡]/.test(raw)) score += 2;
    if (lang === "pt" && /[ãõç]/.test(raw)) score += 2;
    if (lang === "fr" && /[èêàçœ]/.test(raw)) score += 1;
    if (score > bestScore) {
      best = lang;
      bestScore = score;
    }
  }
  return best;
}

const clampUnit = (x: number) => Math.max(-1, Math.min(1, x));

/** Ages named by number: "in his 70s", "a 30-year-old", "sechzigjährige" is left to the words. */
function ageFromNumbers(prompt: string): Age | null {
  const m = prompt.match(/\b(\d{1,2})0\s?['’]?s\b/) ?? prompt.match(/\b(\d{1,3})[\s-]*(?:years?|yrs?|jahre?|ans|años|anni|anos|lat|jaar|år|साल)\b/i);
  if (!m) return null;
  const n = m[0].match(/0\s?['’]?s\b/) ? Number(m[1]) * 10 : Number(m[1]);
  if (!Number.isFinite(n) || n <= 0 || n > 120) return null;
  return n < 30 ? "young" : n < 56 ? "middle_aged" : "old";
}

export function parsePrompt(prompt: string): PromptTraits {
  const tokens = tokenize(prompt);
  const lang = promptLanguageOf(tokens, prompt);
  const langs: PromptLanguage[] = lang === "en" ? ["en"] : [lang, "en"];
  const termsOf = (t: Partial<Record<PromptLanguage, string[]>>, onlyOwn = false) => (onlyOwn ? (t[lang] ?? []) : langs.flatMap((l) => t[l] ?? []));

  const traits: PromptTraits = {
    promptLanguage: lang,
    language: lang,
    accent: null,
    gender: null,
    age: null,
    pitch: 0,
    pace: 0,
    energy: 0,
    breath: 0,
    timbre: 0,
    rough: 0,
    nasal: 0,
    soft: 0,
    loud: 0,
    descriptives: [],
    unspokenLanguage: null,
    namedPerson: namedPerson(prompt),
    matched: 0,
  };

  // Word classes the prompt's own language provides; places are also recognised in English.
  const scalarEntries = [...TRAIT_ENTRIES, ...DESCRIPTIVE_ENTRIES].map((e) => ({ e, terms: termsOf(e.terms, true) }));
  const negators = termsOf(NEGATORS, true);
  const intensifiers = termsOf(INTENSIFIERS, true);
  const softeners = termsOf(SOFTENERS, true);
  const genderVotes: Record<Gender, number> = { male: 0, female: 0, neutral: 0 };
  const ageVotes: Record<Age, number> = { young: 0, middle_aged: 0, old: 0 };
  let ageBias: "young" | "old" | null = null;
  const effects: Array<{ effect: Effect; scale: number }> = [];
  const descriptives = new Set<string>();
  let namedLanguage: { language: string; accent?: string } | null = null;

  let negatedUntil = -1;
  let scale = 1;
  for (let i = 0; i < tokens.length; ) {
    const matchAny = (terms: string[]) => {
      let best = 0;
      for (const t of terms) best = Math.max(best, matchAt(tokens, i, t));
      return best;
    };
    let n = matchAny(negators);
    if (n) {
      // "not too fast": the next word that means something (within three) does not count.
      negatedUntil = i + n + 3;
      i += n;
      continue;
    }
    n = matchAny(softeners);
    if (n) {
      scale = 0.5;
      i += n;
      continue;
    }
    n = matchAny(intensifiers);
    if (n) {
      scale = 1.5;
      i += n;
      continue;
    }
    const negated = i < negatedUntil;
    let used = 0;
    for (const place of LANGUAGE_NAMES) {
      const k = matchAny(termsOf(place.terms));
      // The longest name wins ("european portuguese" over "portuguese").
      if (k > used && !negated) {
        used = k;
        namedLanguage = { language: place.language, accent: place.accent };
      }
    }
    for (const unspoken of UNSPOKEN_LANGUAGES) {
      const k = matchAny(termsOf(unspoken.terms));
      if (k > used && !negated) {
        used = k;
        traits.unspokenLanguage ??= unspoken.name;
      }
    }
    for (const g of ["male", "female", "neutral"] as const) {
      const k = matchAny(termsOf(GENDER_TERMS[g], true));
      if (k && !negated) {
        genderVotes[g] += g === "neutral" ? 3 : 1;
        used = Math.max(used, k);
      }
    }
    for (const a of ["young", "middle_aged", "old"] as const) {
      const k = matchAny(termsOf(AGE_TERMS[a], true));
      if (k && !negated) {
        ageVotes[a] += a === "middle_aged" ? 2 : 1;
        used = Math.max(used, k);
      }
    }
    for (const { e, terms } of scalarEntries) {
      const k = matchAny(terms);
      if (!k) continue;
      used = Math.max(used, k);
      if (negated) continue;
      effects.push({ effect: e.effect, scale });
      if (e.effect.ageBias) ageBias = e.effect.ageBias;
      if (DESCRIPTIVE_ENTRIES.includes(e)) descriptives.add(e.id);
    }
    if (used) {
      traits.matched++;
      scale = 1;
      if (negated) negatedUntil = -1;
      i += used;
    } else i++;
  }

  for (const { effect, scale: s } of effects) {
    traits.pitch += (effect.pitch ?? 0) * s;
    traits.pace += (effect.pace ?? 0) * s;
    traits.energy += (effect.energy ?? 0) * s;
    traits.breath += (effect.breath ?? 0) * s;
    traits.timbre += (effect.timbre ?? 0) * s;
    traits.rough += (effect.rough ?? 0) * s;
    traits.nasal += (effect.nasal ?? 0) * s;
    traits.soft += (effect.soft ?? 0) * s;
    traits.loud += (effect.loud ?? 0) * s;
  }
  traits.pitch = clampUnit(traits.pitch);
  traits.pace = clampUnit(traits.pace);
  traits.energy = clampUnit(traits.energy);
  traits.timbre = clampUnit(traits.timbre);
  traits.loud = clampUnit(traits.loud);
  traits.breath = Math.max(0, Math.min(1, traits.breath));
  traits.rough = Math.max(0, Math.min(1, traits.rough));
  traits.nasal = Math.max(0, Math.min(1, traits.nasal));
  traits.soft = Math.max(0, Math.min(1, traits.soft));

  const topOf = <K extends string>(votes: Record<K, number>): K | null => {
    const entries = Object.entries(votes) as Array<[K, number]>;
    const max = Math.max(...entries.map(([, v]) => v));
    if (max <= 0) return null;
    const winners = entries.filter(([, v]) => v === max);
    return winners.length === 1 ? winners[0][0] : null;
  };
  traits.gender = topOf(genderVotes);
  traits.age = ageFromNumbers(prompt) ?? topOf(ageVotes) ?? (ageBias === "old" ? "old" : ageBias === "young" ? "young" : null);
  if (namedLanguage) {
    traits.language = namedLanguage.language;
    traits.accent = namedLanguage.accent ?? null;
    // A named language the engine speaks wins over a nationality it does not ("a Japanese woman speaking English").
    traits.unspokenLanguage = null;
  }
  traits.descriptives = DESCRIPTIVE_ENTRIES.map((e) => e.id).filter((id) => descriptives.has(id));
  return traits;
}
