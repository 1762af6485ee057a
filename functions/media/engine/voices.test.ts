import ESpeakNg from "espeak-ng";
import { describe, expect, it } from "vitest";
import { LANGUAGES, buildVoiceFile, profileFromLabels, resolveLanguage } from "./espeak/voices.js";
import type { VoiceProfile } from "./port.js";

describe("language table", () => {
  it("only names voice files that this eSpeak build lists in --voices", async () => {
    const out: string[] = [];
    await ESpeakNg({ arguments: ["--voices"], print: (s) => out.push(s), printErr: () => {} });
    // Columns: Pty Language Age/Gender VoiceName File Other (names use underscores, not spaces).
    const files = new Set(out.slice(1).map((l) => l.trim().split(/\s+/)[4]));
    for (const l of LANGUAGES) for (const file of Object.values(l.accents)) expect(files, `${l.id}: ${file}`).toContain(file);
    expect(process.exitCode ?? 0).toBe(0);
  });

  it("resolves regions and accents, and falls back to English for unknown languages", () => {
    expect(resolveLanguage("pt-BR")).toMatchObject({ accent: "brazilian", file: "roa/pt-BR", supported: true });
    expect(resolveLanguage("en", "British")).toMatchObject({ accent: "british", file: "gmw/en" });
    expect(resolveLanguage("es", "Latin American")).toMatchObject({ file: "roa/es-419" });
    expect(resolveLanguage("de", "klingon")).toMatchObject({ accent: "standard", file: "gmw/de" });
    expect(resolveLanguage("xx")).toMatchObject({ supported: false, file: "gmw/en-US" });
  });
});

describe("profileFromLabels", () => {
  it("is deterministic in the seed and keeps the labels", () => {
    const a = profileFromLabels({ language: "fr", accent: "parisian", gender: "female", age: "old" }, 5);
    expect(profileFromLabels({ language: "fr", accent: "parisian", gender: "female", age: "old" }, 5)).toEqual(a);
    expect(a).toMatchObject({ language: "fr", accent: "parisian", gender: "female", age: "old", seed: 5 });
    expect(profileFromLabels({ language: "fr", accent: "parisian", gender: "female", age: "old" }, 6)).not.toEqual(a);
  });

  it("stays within the documented ranges for many seeds", () => {
    for (let seed = 0; seed < 200; seed++) {
      const p = profileFromLabels({ language: "en", gender: seed % 2 ? "male" : "female", age: ["young", "middle_aged", "old"][seed % 3] }, seed);
      expect(p.pitch).toBeGreaterThanOrEqual(0);
      expect(p.pitch).toBeLessThanOrEqual(100);
      expect(p.pitchRange).toBeGreaterThanOrEqual(0);
      expect(p.pitchRange).toBeLessThanOrEqual(100);
      expect(p.rate).toBeGreaterThanOrEqual(130);
      expect(p.rate).toBeLessThanOrEqual(190);
      expect(Math.abs(p.timbre)).toBeLessThanOrEqual(1);
    }
  });

  it("maps unknown gender and age labels to neutral and middle_aged", () => {
    expect(profileFromLabels({ language: "de", gender: "nonbinary", age: "ageless" }, 1)).toMatchObject({ gender: "neutral", age: "middle_aged" });
  });
});

describe("voice file", () => {
  const base: VoiceProfile = { language: "de", gender: "male", age: "middle_aged", pitch: 50, pitchRange: 50, rate: 170, timbre: 0, seed: 1 };
  const formantFrequencies = (file: string) => file.split("\n").filter((l) => l.startsWith("formant")).map((l) => Number(l.split(/\s+/)[2]));
  const german = "name German\nlanguage de\ntunes s4 c1 q4 e1\n";

  it("keeps the language's rules and names the slot voice", () => {
    const f = buildVoiceFile(german, base, { timbreStrength: 1, extraFlutter: 0 });
    expect(f).toMatch(/^name timbre\n/);
    expect(f).toContain("language de");
    expect(f).toContain("tunes s4 c1 q4 e1");
    expect(f).not.toContain("name German");
  });

  it("lowers every formant for a dark timbre and raises them for a bright one, scaled by strength", () => {
    const dark = formantFrequencies(buildVoiceFile(german, { ...base, timbre: -1 }, { timbreStrength: 1, extraFlutter: 0 }));
    const bright = formantFrequencies(buildVoiceFile(german, { ...base, timbre: 1 }, { timbreStrength: 1, extraFlutter: 0 }));
    const faint = formantFrequencies(buildVoiceFile(german, { ...base, timbre: 1 }, { timbreStrength: 0.3, extraFlutter: 0 }));
    dark.forEach((d, i) => {
      expect(d).toBeLessThan(bright[i]);
      expect(faint[i]).toBeLessThan(bright[i]);
    });
  });

  it("adds breath noise only for breathy voices", () => {
    expect(buildVoiceFile(german, base, { timbreStrength: 1, extraFlutter: 0 })).not.toContain("breath ");
    expect(buildVoiceFile(german, { ...base, breathiness: 0.5 }, { timbreStrength: 1, extraFlutter: 0 })).toMatch(/^breath 0 3 /m);
  });
});
