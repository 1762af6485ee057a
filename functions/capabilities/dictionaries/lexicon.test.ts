import { describe, expect, it } from "vitest";
import { LexiconError, readLexiconFile, readPls, readText, writePls } from "./lexicon.js";
import { arpabetToIpa, respellArpabet, respellIpa, xsampaToIpa } from "./phonetics.js";
import type { PronunciationRule } from "../../platform/contract/dictionaries.js";

const rule = (r: Partial<PronunciationRule> & Pick<PronunciationRule, "type" | "string_to_replace">): PronunciationRule =>
  ({ case_sensitive: true, word_boundaries: true, ...r }) as PronunciationRule;

describe("PLS", () => {
  it("reads a lexeme with several graphemes, the lexicon's alphabet, per-phoneme alphabets, slashes and x-sampa", () => {
    const lex = readPls(`<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="x-sampa" xml:lang="en-GB">
      <lexeme><grapheme>colour</grapheme><grapheme>color</grapheme><phoneme>"kVl@</phoneme></lexeme>
      <lexeme><grapheme>Thames</grapheme><phoneme alphabet="ipa">/tɛmz/</phoneme></lexeme>
      <lexeme><grapheme>data</grapheme><phoneme alphabet="cmu-arpabet">D EY1 T AH0</phoneme></lexeme>
      <lexeme><grapheme>BBC</grapheme><alias>British Broadcasting Corporation</alias></lexeme>
    </lexicon>`);
    expect(lex.language).toBe("en-GB");
    expect(lex.rules).toEqual([
      rule({ type: "phoneme", string_to_replace: "colour", phoneme: "ˈkʌlə", alphabet: "ipa" }),
      rule({ type: "phoneme", string_to_replace: "color", phoneme: "ˈkʌlə", alphabet: "ipa" }),
      rule({ type: "phoneme", string_to_replace: "Thames", phoneme: "tɛmz", alphabet: "ipa" }),
      rule({ type: "phoneme", string_to_replace: "data", phoneme: "D EY1 T AH0", alphabet: "cmu-arpabet" }),
      rule({ type: "alias", string_to_replace: "BBC", alias: "British Broadcasting Corporation" }),
    ]);
  });

  it("takes the preferred pronunciation of a lexeme, else the first", () => {
    const lex = readPls(`<lexicon alphabet="ipa"><lexeme><grapheme>read</grapheme><phoneme>riːd</phoneme><phoneme prefer="true">rɛd</phoneme></lexeme></lexicon>`);
    expect(lex.rules[0]).toMatchObject({ phoneme: "rɛd" });
  });

  it("export then import gives the same rules, flags included", () => {
    const rules: PronunciationRule[] = [
      rule({ type: "alias", string_to_replace: "R&D", alias: "research <and> development" }),
      rule({ type: "phoneme", string_to_replace: "tomato", phoneme: "təˈmeɪtoʊ", alphabet: "ipa", case_sensitive: false }),
      rule({ type: "phoneme", string_to_replace: "data", phoneme: "D EY1 T AH0", alphabet: "cmu-arpabet", word_boundaries: false }),
    ];
    const pls = writePls(rules, "en-US");
    expect(pls).toContain('xmlns:timbre="urn:timbre:pls:rules:1"');
    expect(readPls(pls)).toEqual({ rules, language: "en-US" });
    // Only default flags: plain PLS with nothing of ours.
    expect(writePls([rules[0]])).not.toContain("timbre");
  });

  it("refuses a file with problems, naming their lines, rather than dropping rules", () => {
    const e = (() => {
      try {
        readPls(`<lexicon alphabet="ipa">\n<lexeme><grapheme>ok</grapheme><alias>fine</alias></lexeme>\n<lexeme><alias>orphan</alias></lexeme>\n<lexeme><grapheme>x</grapheme><phoneme alphabet="sapi">x</phoneme></lexeme>\n</lexicon>`);
      } catch (x) {
        return x as LexiconError;
      }
    })();
    expect(e).toBeInstanceOf(LexiconError);
    expect(e!.message).toContain("line 3: a lexeme has no grapheme");
    expect(e!.message).toContain('line 4: the alphabet "sapi" is not supported');
    expect(() => readPls("<speak/>")).toThrow(/root element must be <lexicon>/);
    expect(() => readPls(`<lexicon><lexeme><grapheme>${"x".repeat(51)}</grapheme><alias>y</alias></lexeme></lexicon>`)).toThrow(/Input is too long/);
  });
});

describe("text lexicons", () => {
  it("reads 'word = alias', 'word /ipa/', 'word = arpabet: …' and 'word = x-sampa: …', skipping comments", () => {
    expect(readText("# names\n\nK8s = Kubernetes\nnginx /ˈɛndʒɪnˈɛks/\nGIF = arpabet: JH IH1 F\nThames = x-sampa: tEmz\nWHO = /huː/\n").rules).toEqual([
      rule({ type: "alias", string_to_replace: "K8s", alias: "Kubernetes" }),
      rule({ type: "phoneme", string_to_replace: "nginx", phoneme: "ˈɛndʒɪnˈɛks", alphabet: "ipa" }),
      rule({ type: "phoneme", string_to_replace: "GIF", phoneme: "JH IH1 F", alphabet: "cmu-arpabet" }),
      rule({ type: "phoneme", string_to_replace: "Thames", phoneme: "tɛmz", alphabet: "ipa" }),
      rule({ type: "phoneme", string_to_replace: "WHO", phoneme: "huː", alphabet: "ipa" }),
    ]);
  });

  it("refuses lines it cannot read, and file types other than .pls, .xml and .txt", () => {
    expect(() => readText("ok = fine\njust words\n")).toThrow(/line 2/);
    expect(() => readLexiconFile("rules.csv", new TextEncoder().encode("a,b"))).toThrow(/Only .pls, .xml and .txt/);
    expect(readLexiconFile("blob", new TextEncoder().encode("<lexicon><lexeme><grapheme>a</grapheme><alias>b</alias></lexeme></lexicon>")).rules).toHaveLength(1);
    expect(readLexiconFile("saved-as.txt", new TextEncoder().encode("<lexicon><lexeme><grapheme>a</grapheme><alias>b</alias></lexeme></lexicon>")).rules).toHaveLength(1);
  });
});

describe("phonetic alphabets", () => {
  it("converts X-SAMPA and ARPAbet to IPA", () => {
    expect(xsampaToIpa('t@"meItoU')).toBe("təˈmeɪtoʊ");
    expect(xsampaToIpa("r\\`{N_h")).toBe("ɻæŋʰ");
    expect(arpabetToIpa("T AH0 M EY1 T OW2")).toBe("təˈmeɪˌtoʊ");
  });

  it("respells phonemes readably for models without phoneme input", () => {
    expect(respellIpa("/təˈmeɪtoʊ/")).toBe("tuh-may-toh");
    expect(respellIpa("ˈnaɪki")).toBe("nigh-kee");
    expect(respellArpabet("T AH0 M EY1 T OW2")).toBe("tuh-may-toh");
    expect(respellIpa("ˈkwɪnoʊ ˈæpl")).toBe("kwih-noh apl");
  });
});

describe("hostile lexicons", () => {
  const head = '<?xml version="1.0"?><lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en">\n';
  const pls = (body: string) => new TextEncoder().encode(`${head}${body}</lexicon>`);

  it("refuses more lexemes than a dictionary can hold rules, before reading any of them", () => {
    const e = (() => {
      try {
        readLexiconFile("x.pls", pls("<lexeme/>\n".repeat(80_000)));
      } catch (err) {
        return err as LexiconError;
      }
    })();
    expect(e).toBeInstanceOf(LexiconError);
    expect(e!.message).toContain("80000 lexemes");
  });

  it("reports thousands of invalid lexemes with their lines in linear time", () => {
    const invalid = (n: number) => pls("<lexeme><grapheme>abc</grapheme></lexeme>\n".repeat(n));
    const time = (bytes: Uint8Array) => {
      const t0 = performance.now();
      expect(() => readLexiconFile("x.pls", bytes)).toThrow(/line 2: "abc" has no alias or phoneme; line 3: .*\(and \d+ more\)/);
      return performance.now() - t0;
    };
    time(invalid(500)); // warm up
    const [a, b] = [invalid(1_000), invalid(8_000)];
    // Interleaved, best of five: a busy machine's pauses hit both sizes alike.
    let small = Infinity;
    let large = Infinity;
    for (let k = 0; k < 5; k++) {
      small = Math.min(small, time(a));
      large = Math.min(large, time(b));
    }
    // 8x the lexemes: ~8x the time when linear, ~64x with the old per-problem line scan.
    expect(large / small).toBeLessThan(24);
  });
});
