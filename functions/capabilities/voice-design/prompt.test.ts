import { describe, expect, it } from "vitest";
import { parsePrompt } from "./prompt.js";
import { namedPerson } from "./people.js";
import { designProfiles, remixProfiles, strictness } from "./profiles.js";
import { PREVIEW_TEXTS, previewTextFor } from "./previewText.js";
import { DESCRIPTIVE_ENTRIES, PROMPT_LANGUAGES } from "./lexicon.js";
import { DESCRIPTIVES } from "../../platform/contract/voices.js";
import { PREVIEW_TEXT_MAX, PREVIEW_TEXT_MIN } from "../../platform/contract/voiceCreation.js";

describe("reading a voice description", () => {
  it("reads gender, age, accent, pitch and pace in English", () => {
    const t = parsePrompt("a deep, slow, elderly British man");
    expect(t).toMatchObject({ language: "en", accent: "british", gender: "male", age: "old", descriptives: ["deep"] });
    expect(t.pitch).toBeLessThan(-0.5);
    expect(t.pace).toBeLessThan(-0.5);
    const u = parsePrompt("a bright young American woman, fast and cheerful");
    expect(u).toMatchObject({ accent: "american", gender: "female", age: "young", descriptives: ["bright", "cheerful"] });
    expect(u.pitch).toBeGreaterThan(0.5);
    expect(u.pace).toBeGreaterThan(0.5);
    expect(u.timbre).toBeGreaterThan(0.3);
  });

  // The same request in each of the nine other languages voice design reads.
  const TRANSLATIONS: Array<[string, string]> = [
    ["de", "Eine tiefe, langsame Stimme eines alten Mannes"],
    ["fr", "La voix grave et lente d'un vieil homme"],
    ["es", "La voz grave y lenta de un hombre viejo"],
    ["it", "La voce profonda e lenta di un uomo anziano"],
    ["pt", "A voz grave e lenta de um homem idoso"],
    ["pl", "Głęboki, powolny głos starego mężczyzny"],
    ["nl", "De diepe, langzame stem van een oude man"],
    ["sv", "En djup och långsam röst från en gammal man"],
    ["hi", "एक बूढ़े आदमी की गहरी और धीमी आवाज़"],
  ];
  it.each(TRANSLATIONS)("reads the same deep, slow, old man in %s, and speaks that language", (lang, prompt) => {
    const t = parsePrompt(prompt);
    expect(t.promptLanguage).toBe(lang);
    expect(t.language).toBe(lang);
    expect(t.gender).toBe("male");
    expect(t.age).toBe("old");
    expect(t.pitch).toBeLessThan(-0.3);
    expect(t.pace).toBeLessThan(-0.3);
  });

  it("reads the opposite request in other languages too", () => {
    for (const prompt of ["Eine junge Frau, schnell und fröhlich, mit heller Stimme", "Une jeune femme rapide et joyeuse, voix aiguë", "Una mujer joven, rápida y alegre, con voz aguda"]) {
      const t = parsePrompt(prompt);
      expect(t.gender, prompt).toBe("female");
      expect(t.age, prompt).toBe("young");
      expect(t.pace, prompt).toBeGreaterThan(0.3);
      expect(t.pitch, prompt).toBeGreaterThan(0.3);
    }
  });

  it("names a voice language that differs from the prompt's, with its accent", () => {
    expect(parsePrompt("a calm woman speaking German")).toMatchObject({ promptLanguage: "en", language: "de" });
    expect(parsePrompt("a Scottish storyteller, gravelly and warm")).toMatchObject({ language: "en", accent: "scottish" });
    expect(parsePrompt("a cheerful Brazilian woman")).toMatchObject({ language: "pt", accent: "brazilian" });
    expect(parsePrompt("a Mexican man, friendly")).toMatchObject({ language: "es", accent: "mexican" });
  });

  it("reports languages the engine does not speak, unless a spoken language is named", () => {
    expect(parsePrompt("a young woman speaking Japanese").unspokenLanguage).toBe("Japanese");
    expect(parsePrompt("eine Frau, die Chinesisch spricht").unspokenLanguage).toBe("Chinese");
    expect(parsePrompt("a Korean man speaking English").unspokenLanguage).toBeNull();
  });

  it("ignores negated words and scales by intensifiers and softeners", () => {
    expect(parsePrompt("a woman, not fast, calm").pace).toBeLessThan(0);
    const very = parsePrompt("a very slow man").pace;
    const bit = parsePrompt("a slightly slow man").pace;
    const plain = parsePrompt("a slow man").pace;
    expect(very).toBeLessThan(plain);
    expect(bit).toBeGreaterThan(plain);
    expect(parsePrompt("ein etwas langsamer Mann").pace).toBeCloseTo(plain / 2, 5);
  });

  it("reads ages given as numbers", () => {
    expect(parsePrompt("a man in his 70s, gravelly").age).toBe("old");
    expect(parsePrompt("a 25-year-old woman").age).toBe("young");
    expect(parsePrompt("a woman in her forties").age).toBe("middle_aged");
  });

  it("knows all 33 descriptive tags, each with an effect, in every prompt language", () => {
    expect(DESCRIPTIVE_ENTRIES.map((e) => e.id)).toEqual([...DESCRIPTIVES]);
    for (const e of DESCRIPTIVE_ENTRIES) {
      expect(Object.values(e.effect).some((v) => v !== 0), e.id).toBe(true);
      for (const lang of PROMPT_LANGUAGES) expect(e.terms[lang]?.length, `${e.id} ${lang}`).toBeGreaterThan(0);
      expect(parsePrompt(`a voice that is ${e.terms.en![0]}`).descriptives, e.id).toContain(e.id);
    }
  });
});

describe("named real people", () => {
  it("finds famous names, surnames and imitation of a capitalised full name", () => {
    expect(namedPerson("sounds like Morgan Freeman")).toBe("morgan freeman");
    expect(namedPerson("the voice of obama giving a speech")).toBe("obama");
    expect(namedPerson("Stimme wie Angela Merkel")).toBe("angela merkel");
    expect(namedPerson("a narrator who sounds just like Priya Raman from the radio")).toBe("Priya Raman");
  });

  it("lets generic and fictional characters through", () => {
    for (const p of ["sounds like a pirate captain", "a voice like a British butler", "a wizard, old and wise", "the voice of a young Scottish nurse"]) {
      expect(namedPerson(p), p).toBeNull();
    }
  });
});

describe("three preview profiles", () => {
  const traits = parsePrompt("a deep, slow, elderly British man");
  const opts = { seed: 9, guidanceScale: 5, quality: 0.9, loudness: 0.5, promptStrength: 0.25 };

  it("are deterministic in the seed, distinct from each other, and follow the prompt", () => {
    const a = designProfiles(traits, opts);
    expect(designProfiles(traits, opts)).toEqual(a);
    expect(designProfiles(traits, { ...opts, seed: 10 })).not.toEqual(a);
    expect(a).toHaveLength(3);
    expect(new Set(a.map((v) => JSON.stringify(v.profile))).size).toBe(3);
    for (const v of a) {
      expect(v.profile).toMatchObject({ language: "en", accent: "british", gender: "male", age: "old" });
      expect(v.profile.pitch).toBeLessThan(45);
      expect(v.profile.rate).toBeLessThan(150);
    }
  });

  it("vary less as guidance_scale rises, and follow the prompt more strictly", () => {
    const loose = strictness(2, 0);
    const strict = strictness(10, 0);
    expect(strict.variety).toBeLessThan(loose.variety);
    expect(strict.strength).toBeGreaterThan(loose.strength);
    const spreadOf = (g: number) => {
      const p = designProfiles(traits, { ...opts, guidanceScale: g }).map((v) => v.profile.pitch);
      return Math.max(...p) - Math.min(...p);
    };
    expect(spreadOf(10)).toBeLessThan(spreadOf(2));
  });

  it("map loudness onto the output level and quality onto steadier speech", () => {
    const quiet = designProfiles(traits, { ...opts, loudness: -1 })[0];
    const loud = designProfiles(traits, { ...opts, loudness: 1 })[0];
    expect(loud.profile.levelDb!).toBeGreaterThan(quiet.profile.levelDb! + 20);
    expect(designProfiles(traits, { ...opts, quality: 1 })[0].settings.stability).toBeGreaterThan(designProfiles(traits, { ...opts, quality: -1 })[0].settings.stability);
  });

  it("give three voices of both genders when the prompt names none", () => {
    const g = designProfiles(parsePrompt("a friendly voice for a podcast"), opts).map((v) => v.profile.gender);
    expect(new Set(g)).toEqual(new Set(["male", "female"]));
  });

  it("remix moves the voice's own profile the way the description says", () => {
    const source = designProfiles(traits, opts)[0].profile;
    for (const v of remixProfiles(source, parsePrompt("make it faster and higher"), opts)) {
      expect(v.profile.rate).toBeGreaterThan(source.rate);
      expect(v.profile.gender).toBe(source.gender);
      expect(v.profile.seed).toBe(source.seed);
    }
  });
});

describe("preview text", () => {
  it("is within the text limits in every language and register", () => {
    for (const [lang, texts] of Object.entries(PREVIEW_TEXTS)) {
      for (const [register, text] of Object.entries(texts)) {
        expect([...text].length, `${lang} ${register}`).toBeGreaterThanOrEqual(PREVIEW_TEXT_MIN);
        expect([...text].length, `${lang} ${register}`).toBeLessThanOrEqual(PREVIEW_TEXT_MAX);
      }
    }
  });

  it("is in the voice's language and suits the description", () => {
    expect(previewTextFor(parsePrompt("a calm, soothing woman for meditation"), "x")).toBe(PREVIEW_TEXTS.en.calm);
    expect(previewTextFor(parsePrompt("ein fröhlicher, energischer junger Mann"), "x")).toBe(PREVIEW_TEXTS.de.bright);
  });
});
