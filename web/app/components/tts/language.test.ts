import { describe, expect, it } from "vitest";
import { languageMessages, languageToast, shouldCheckLanguage, wordCount } from "./language.js";
import type { Model, Voice } from "./wire.js";

const model = (model_id: string, name: string, langs: string[]): Model =>
  ({ model_id, name, can_do_text_to_speech: true, languages: langs.map((l) => ({ language_id: l, name: ({ en: "English", de: "German", fr: "French" } as Record<string, string>)[l] ?? l })) }) as unknown as Model;
const english = model("eleven_flash_v2", "Eleven Flash v2", ["en"]);
const multi = model("eleven_multilingual_v2", "Eleven Multilingual v2", ["en", "de", "fr"]);
const other = model("eleven_v2", "Eleven v2", ["en", "de"]);
const MODELS = [english, other, multi];
const voice = (language?: string) => ({ voice_id: "v", name: "Avery", labels: language ? { language } : {} }) as unknown as Voice;

describe("the prompt's language check", () => {
  it("runs only for prompts of at least five words", () => {
    expect(wordCount("Hello there, how are you")).toBe(5);
    expect(shouldCheckLanguage("Hello there, how are you")).toBe(true);
    expect(shouldCheckLanguage("Hello there, how are")).toBe(false);
    expect(shouldCheckLanguage("  don't   stop-me now ... ")).toBe(false);
    expect(shouldCheckLanguage("今日はいい天気")).toBe(true);
  });

  it("names a model that speaks the language when the chosen one does not, the default model first", () => {
    expect(languageToast(MODELS, english, "de", voice("en"))).toEqual({ kind: "error", message: languageMessages.unsupported("Eleven Flash v2", "German", "Eleven Multilingual v2") });
    expect(languageToast([english, other], english, "de-AT", null)?.message).toBe(languageMessages.unsupported("Eleven Flash v2", "German", "Eleven v2"));
    expect(languageToast([english], english, "de", null)?.message).toBe(languageMessages.unsupported("Eleven Flash v2", "German", null));
  });

  it("warns about poor results when the voice is made for another language", () => {
    expect(languageToast(MODELS, multi, "de", voice("en"))).toEqual({ kind: "info", message: languageMessages.poorResults("Avery", "German") });
    expect(languageToast(MODELS, multi, "en", voice("en"))).toBeNull();
    expect(languageToast(MODELS, multi, "de", voice())).toBeNull();
    expect(languageToast(MODELS, multi, undefined, voice("en"))).toBeNull();
  });
});
