import { describe, expect, it } from "vitest";
import { MappedText } from "./textmap.js";
import { normalizationReplacements } from "./normalize.js";
import { projectTimes } from "./alignment.js";

const norm = (text: string, lang = "en", mode: "auto" | "on" | "off" = "auto") => MappedText.identity(text).replace(normalizationReplacements(text, lang, mode));

describe("text normalisation", () => {
  it("spells currency, dates, grouped numbers, units and abbreviations in English", () => {
    expect(norm("It costs $1,234.50 today.").text).toBe("It costs 1234 dollars and 50 cents today.");
    expect(norm("Born 2026-11-22 in town").text).toBe("Born November 22, 2026 in town");
    expect(norm("About 1,500,000 people").text).toBe("About 1500000 people");
    expect(norm("Drive 5 km, e.g. to Dr. Smith").text).toBe("Drive 5 kilometers, for example to Doctor Smith");
    expect(norm("£1 only").text).toBe("1 pound only");
  });

  it("uses each language's own words and separators", () => {
    expect(norm("Das kostet 12,50 € z.B. heute", "de").text).toBe("Das kostet 12 Euro und 50 Cent zum Beispiel heute");
    expect(norm("Le 2026-01-01 à 3 km", "fr").text).toBe("Le premier janvier 2026 à 3 kilomètres");
    expect(norm("Cuesta 1.000 € Sr. López", "es").text).toBe("Cuesta 1000 euros señor López");
  });

  it("changes nothing when normalisation is off or the language has no rules", () => {
    expect(norm("It costs $5", "en", "off").text).toBe("It costs $5");
    expect(norm("$5", "hi").text).toBe("$5");
  });

  it("never rewrites inside a word", () => {
    expect(norm("Drkm and etc.x").text).toBe("Drkm and etc.x");
  });
});

describe("mapped text", () => {
  it("projects spoken times back onto the original characters", () => {
    const m = norm("Pay $5 now");
    expect(m.text).toBe("Pay 5 dollars now");
    // One second per spoken character.
    const n = m.text.length;
    const times = projectTimes(m, {
      characters: m.text.split(""),
      character_start_times_seconds: Array.from({ length: n }, (_, i) => i),
      character_end_times_seconds: Array.from({ length: n }, (_, i) => i + 1),
    });
    expect(times.characters.join("")).toBe("Pay $5 now");
    // "Pay " is copied 1:1.
    expect(times.character_start_times_seconds.slice(0, 4)).toEqual([0, 1, 2, 3]);
    // "$5" (2 chars) shares the span of "5 dollars" (9 chars: 4..13).
    expect(times.character_start_times_seconds[4]).toBe(4);
    expect(times.character_end_times_seconds[5]).toBe(13);
    // " now" follows at the shifted positions.
    expect(times.character_start_times_seconds[6]).toBe(13);
    for (let i = 1; i < times.characters.length; i++) expect(times.character_start_times_seconds[i]).toBeGreaterThanOrEqual(times.character_start_times_seconds[i - 1]);
  });

  it("composes replacements, keeping a later one relative to the original", () => {
    const first = MappedText.identity("NASA on 2026-11-22").replace([{ start: 0, end: 4, text: "N A S A", tag: "alias" }]);
    const second = first.replace(normalizationReplacements(first.text, "en", "on"));
    expect(second.text).toBe("N A S A on November 22, 2026");
    expect(second.originalRange(0, 7)).toEqual({ start: 0, end: 4 });
    expect(second.originalRange(11, second.text.length)).toEqual({ start: 8, end: 18 });
  });
});
