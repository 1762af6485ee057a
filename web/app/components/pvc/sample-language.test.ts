import { describe, expect, it } from "vitest";
import { addedFileProblem, formErrors, languageError, pvcMessages, sampleLanguages, type LanguageItem } from "./wizard.js";

/** professional-voice-clone.md §5: the language rule of the form and rule 2 of the sample checks. */
describe("the samples' language", () => {
  const en = [{ language: "en" }, { language: "en" }];
  const item = (stage: LanguageItem["stage"], language: string): LanguageItem => ({ stage, language });

  it("collects the languages of samples and of files uploading or uploaded, not of failed ones or older samples", () => {
    expect([...sampleLanguages([...en, { language: null }, {}], [])]).toEqual(["en"]);
    expect([...sampleLanguages([], [item("pending", "de"), item("uploading", "fr"), item("processing", "it"), item("uploaded", "ko")])].sort()).toEqual(["de", "fr", "it", "ko"]);
    expect([...sampleLanguages([], [item("error", "de")])]).toEqual([]);
  });

  it("makes the form invalid when the selected language differs from a sample's or an upload's", () => {
    expect(languageError("en", en, [])).toBeNull();
    expect(languageError("de", en, [])).toBe("All audio samples must be in the same language");
    expect(languageError("en", [], [item("uploading", "de")])).toBe(pvcMessages.sameLanguage);
    // A file refused for its language does not hold the form.
    expect(languageError("en", en, [item("error", "de")])).toBeNull();
    // No samples: any language.
    expect(languageError("hr", [], [])).toBeNull();
    expect(formErrors({ name: "A", description: "", language: "de" }, { samples: en, items: [] })).toEqual({ language: pvcMessages.sameLanguage });
    expect(formErrors({ name: "A", description: "", language: "en" }, { samples: en, items: [] })).toEqual({});
  });

  it("gives a file added in another language the language-mismatch error, after the duration check", () => {
    const others = new Set(["en"]);
    expect(addedFileProblem("en", others, 12)).toBeNull(); // same language: the server checks the rest
    expect(addedFileProblem("de", new Set(), 12)).toBeNull(); // the first sample sets no rule
    expect(addedFileProblem("de", others, 45)).toEqual({ type: "error", code: "language-mismatch", message: pvcMessages.sameLanguage });
    expect(addedFileProblem("de", others, null)).toEqual({ type: "error", code: "language-mismatch", message: pvcMessages.sameLanguage });
    expect(addedFileProblem("de", others, 29.9)).toEqual({ type: "error", code: "min-duration", message: "At least 30s of audio is required" });
  });
});
