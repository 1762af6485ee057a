import type { Model, Voice } from "./wire.js";
import { DEFAULT_MODEL_FOR_TASK } from "./models.js";

/**
 * The prompt's language check (speech-generation.md §5, §8): prompts of at least five words are
 * sent to language detection when generated; a model that does not speak the detected language gets
 * the unsupported-language toast with a model that does, and a voice made for another language the
 * warning about poor results. The toast lasts 10 s (§9).
 */
export const LANGUAGE_CHECK_MIN_WORDS = 5;
export const LANGUAGE_TOAST_MS = 10_000;

export const languageMessages = {
  unsupported: (model: string, language: string, suggested: string | null) =>
    suggested ? `${model} does not support ${language}. Try ${suggested}, which does.` : `${model} does not support ${language}.`,
  poorResults: (voice: string, language: string) => `${voice} is a voice for another language: it may give poor results in ${language}.`,
} as const;

/** Words as a reader counts them: runs of letters or digits (a CJK prompt without spaces counts its characters). */
export function wordCount(text: string): number {
  const words = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  const cjk = text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ?? 0;
  return Math.max(words.length, cjk);
}

export function shouldCheckLanguage(text: string): boolean {
  return wordCount(text) >= LANGUAGE_CHECK_MIN_WORDS;
}

/** The base language of a code ("en-GB" -> "en"). */
const base = (code: string) => code.toLowerCase().split(/[-_]/)[0];
const speaks = (m: Model, language: string) => m.languages.some((l) => base(l.language_id) === base(language));

function languageName(models: readonly Model[], code: string): string {
  for (const m of models) for (const l of m.languages) if (base(l.language_id) === base(code)) return l.name;
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(base(code)) ?? code;
  } catch {
    return code;
  }
}

export interface LanguageToast {
  kind: "error" | "info";
  message: string;
}

/**
 * What to tell the user once the prompt's language is known, or null. `voice` is the single
 * speaker's voice (none for dialogue, whose lines have several).
 */
export function languageToast(models: readonly Model[], model: Model, detected: string | undefined, voice: Voice | null): LanguageToast | null {
  if (!detected) return null;
  const name = languageName(models, detected);
  if (!speaks(model, detected)) {
    const tts = models.filter((m) => m.can_do_text_to_speech && m.model_id !== model.model_id && speaks(m, detected));
    const suggested = tts.find((m) => m.model_id === DEFAULT_MODEL_FOR_TASK.tts) ?? tts[0] ?? null;
    return { kind: "error", message: languageMessages.unsupported(model.name, name, suggested?.name ?? null) };
  }
  const voiceLanguage = voice?.labels.language;
  if (voice && voiceLanguage && base(voiceLanguage) !== base(detected)) return { kind: "info", message: languageMessages.poorResults(voice.name, name) };
  return null;
}
