/**
 * Phonetic alphabets around the dictionaries: X-SAMPA to IPA (lexicons from other systems),
 * ARPAbet to IPA, and a readable English respelling of IPA ("təˈmeɪtoʊ" -> "tuh-may-toh") for
 * models that cannot speak phonemes.
 */

// Longest symbols first; backslash and backtick variants before their base letters.
const XSAMPA: ReadonlyArray<readonly [string, string]> = [
  ["r\\`", "ɻ"], ["G\\_<", "ʛ"], ["J\\_<", "ʄ"], ["b_<", "ɓ"], ["d_<", "ɗ"], ["g_<", "ɠ"],
  ["_h", "ʰ"], ["_j", "ʲ"], ["_w", "ʷ"], ["_~", "̃"], ["_=", "̩"], ["_0", "̥"], ["_d", "̪"], ["_G", "ˠ"], ["_?\\", "ˤ"], ["_>", "ʼ"],
  ["r\\", "ɹ"], ["h\\", "ɦ"], ["j\\", "ʝ"], ["x\\", "ɧ"], ["?\\", "ʕ"], ["@\\", "ɘ"], ["3\\", "ɞ"], ["I\\", "ᵻ"], ["U\\", "ᵿ"],
  ["M\\", "ɰ"], ["N\\", "ɴ"], ["O\\", "ʘ"], ["R\\", "ʀ"], ["G\\", "ɢ"], ["B\\", "ʙ"], ["H\\", "ʜ"], ["J\\", "ɟ"], ["K\\", "ɮ"],
  ["L\\", "ʟ"], ["p\\", "ɸ"], ["v\\", "ʋ"], ["X\\", "ħ"], ["l\\", "ɺ"], [":\\", "ˑ"], ["<\\", "ʢ"], [">\\", "ʡ"], ["!\\", "ǃ"], ["|\\", "ǀ"],
  ["s`", "ʂ"], ["z`", "ʐ"], ["t`", "ʈ"], ["d`", "ɖ"], ["n`", "ɳ"], ["l`", "ɭ"], ["r`", "ɽ"],
  ["a", "a"], ["b", "b"], ["c", "c"], ["d", "d"], ["e", "e"], ["f", "f"], ["g", "ɡ"], ["h", "h"], ["i", "i"], ["j", "j"], ["k", "k"],
  ["l", "l"], ["m", "m"], ["n", "n"], ["o", "o"], ["p", "p"], ["q", "q"], ["r", "r"], ["s", "s"], ["t", "t"], ["u", "u"], ["v", "v"],
  ["w", "w"], ["x", "x"], ["y", "y"], ["z", "z"],
  ["A", "ɑ"], ["B", "β"], ["C", "ç"], ["D", "ð"], ["E", "ɛ"], ["F", "ɱ"], ["G", "ɣ"], ["H", "ɥ"], ["I", "ɪ"], ["J", "ɲ"], ["K", "ɬ"],
  ["L", "ʎ"], ["M", "ɯ"], ["N", "ŋ"], ["O", "ɔ"], ["P", "ʋ"], ["Q", "ɒ"], ["R", "ʁ"], ["S", "ʃ"], ["T", "θ"], ["U", "ʊ"], ["V", "ʌ"],
  ["W", "ʍ"], ["X", "χ"], ["Y", "ʏ"], ["Z", "ʒ"],
  ["@", "ə"], ["{", "æ"], ["}", "ʉ"], ["1", "ɨ"], ["2", "ø"], ["3", "ɜ"], ["4", "ɾ"], ["5", "ɫ"], ["6", "ɐ"], ["7", "ɤ"], ["8", "ɵ"],
  ["9", "œ"], ["&", "ɶ"], ["?", "ʔ"], ['"', "ˈ"], ["%", "ˌ"], [":", "ː"], [".", "."], ["=", "̩"], ["~", "̃"], ["^", "ꜛ"],
];

/** X-SAMPA to IPA; separators (spaces, '-') between symbols disappear, unknown characters are kept. */
export function xsampaToIpa(xsampa: string): string {
  let out = "";
  for (let i = 0; i < xsampa.length; ) {
    const c = xsampa[i];
    if (c === " " || c === "-" || c === "\t") {
      i++;
      continue;
    }
    const hit = XSAMPA.find(([k]) => xsampa.startsWith(k, i));
    if (hit) {
      out += hit[1];
      i += hit[0].length;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const ARPABET_IPA: Record<string, string> = {
  AA: "ɑ", AE: "æ", AH: "ʌ", AO: "ɔ", AW: "aʊ", AY: "aɪ", EH: "ɛ", ER: "ɝ", EY: "eɪ", IH: "ɪ", IY: "i", OW: "oʊ", OY: "ɔɪ", UH: "ʊ", UW: "u",
  B: "b", CH: "tʃ", D: "d", DH: "ð", F: "f", G: "ɡ", HH: "h", JH: "dʒ", K: "k", L: "l", M: "m", N: "n", NG: "ŋ", P: "p", R: "ɹ",
  S: "s", SH: "ʃ", T: "t", TH: "θ", V: "v", W: "w", Y: "j", Z: "z", ZH: "ʒ",
};
const VOWELS = new Set(["AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"]);

/** ARPAbet to IPA; a stress mark goes before the consonant that starts the stressed syllable. */
export function arpabetToIpa(arpabet: string): string {
  const parts: Array<{ ipa: string; vowel: boolean }> = [];
  for (const token of arpabet.trim().split(/\s+/)) {
    const m = /^([A-Za-z]+)([012])?$/.exec(token);
    const sym = m?.[1].toUpperCase();
    if (!m || !sym || !(sym in ARPABET_IPA)) continue;
    const vowel = VOWELS.has(sym);
    let ipa = m[2] === "0" && sym === "AH" ? "ə" : m[2] === "0" && sym === "ER" ? "ɚ" : ARPABET_IPA[sym];
    const mark = m[2] === "1" ? "ˈ" : m[2] === "2" ? "ˌ" : "";
    if (mark) {
      const prev = parts.at(-1);
      const before = parts.at(-2);
      if (prev && !prev.vowel && (!before || before.vowel)) prev.ipa = mark + prev.ipa;
      else ipa = mark + ipa;
    }
    parts.push({ ipa, vowel });
  }
  return parts.map((p) => p.ipa).join("");
}

// Longest IPA sequences first; each maps to English spelling that reads close to the sound.
const RESPELL: ReadonlyArray<readonly [string, string]> = [
  ["t͡ʃ", "ch"], ["d͡ʒ", "j"], ["tʃ", "ch"], ["dʒ", "j"], ["ʧ", "ch"], ["ʤ", "j"],
  ["ɑːɹ", "ar"], ["ɔːɹ", "or"], ["ɛəɹ", "air"], ["ɪəɹ", "eer"],
  ["eɪ", "ay"], ["aɪ", "igh"], ["ɔɪ", "oy"], ["aʊ", "ow"], ["oʊ", "oh"], ["əʊ", "oh"], ["ɪə", "eer"], ["eə", "air"], ["ɛə", "air"], ["ʊə", "oor"],
  ["ɪɹ", "eer"], ["ɛɹ", "air"], ["ʊɹ", "oor"], ["ɑɹ", "ar"], ["ɔɹ", "or"],
  ["iː", "ee"], ["uː", "oo"], ["ɑː", "ah"], ["ɔː", "aw"], ["ɜː", "ur"],
  ["ɝ", "ur"], ["ɚ", "er"], ["ɜ", "ur"],
  ["i", "ee"], ["ɪ", "ih"], ["e", "eh"], ["ɛ", "eh"], ["æ", "a"], ["a", "ah"], ["ɐ", "uh"], ["ɑ", "ah"], ["ɒ", "o"], ["ɔ", "aw"], ["o", "oh"],
  ["ʊ", "uu"], ["u", "oo"], ["ʌ", "uh"], ["ə", "uh"], ["ɨ", "ih"], ["y", "ew"], ["ø", "er"], ["œ", "er"], ["ɯ", "oo"], ["ʉ", "oo"],
  ["p", "p"], ["b", "b"], ["t", "t"], ["d", "d"], ["k", "k"], ["ɡ", "g"], ["g", "g"], ["f", "f"], ["v", "v"], ["θ", "th"], ["ð", "th"],
  ["s", "s"], ["z", "z"], ["ʃ", "sh"], ["ʒ", "zh"], ["h", "h"], ["x", "kh"], ["χ", "kh"], ["ç", "h"], ["m", "m"], ["n", "n"], ["ŋ", "ng"],
  ["ɲ", "ny"], ["l", "l"], ["ɫ", "l"], ["ɹ", "r"], ["r", "r"], ["ʁ", "r"], ["ɾ", "t"], ["w", "w"], ["ʍ", "wh"], ["j", "y"], ["ʔ", ""], ["β", "v"], ["ɣ", "g"],
];
const SYLLABLE_BREAK = new Set(["ˈ", "ˌ", ".", "'", ","]);
const VOWEL_START = /^[iɪeɛæaɐɑɒɔoʊuʌəɨyøœɯʉɜɝɚ]/;

interface Unit {
  text: string;
  vowel: boolean;
  /** A stress mark or dot stood before it. */
  marked: boolean;
}

/** Syllable breaks inside a word: V-CV, VC-CV (and at every stress mark or dot). */
function syllables(units: Unit[]): string {
  const breaks = new Set<number>();
  units.forEach((u, i) => {
    if (u.marked && i > 0) breaks.add(i);
  });
  const vowels = units.map((u, i) => (u.vowel ? i : -1)).filter((i) => i >= 0);
  for (let k = 1; k < vowels.length; k++) {
    const a = vowels[k - 1];
    const b = vowels[k];
    if ([...breaks].some((x) => x > a && x <= b)) continue;
    const consonants = b - a - 1;
    breaks.add(consonants <= 1 ? a + 1 : a + 2);
  }
  return units.map((u, i) => (breaks.has(i) ? "-" : "") + u.text).join("");
}

/**
 * A readable spelling of IPA for engines without phoneme input: syllables joined by hyphens,
 * lower case ("təˈmeɪtoʊ" -> "tuh-may-toh"). An approximation, by design.
 */
export function respellIpa(ipa: string): string {
  const s = ipa.normalize("NFC").replace(/^\/|\/$/g, "");
  const words: Unit[][] = [[]];
  let marked = false;
  for (let i = 0; i < s.length; ) {
    const c = s[i];
    if (/\s/.test(c)) {
      if (words.at(-1)!.length) words.push([]);
      marked = false;
      i++;
      continue;
    }
    if (SYLLABLE_BREAK.has(c)) {
      marked = true;
      i++;
      continue;
    }
    const hit = RESPELL.find(([k]) => s.startsWith(k, i));
    if (hit) {
      if (hit[1]) words.at(-1)!.push({ text: hit[1], vowel: VOWEL_START.test(hit[0]), marked });
      marked = false;
      i += hit[0].length;
    } else i++; // length marks, diacritics and symbols without a spelling
  }
  return words
    .filter((w) => w.length)
    .map(syllables)
    .join(" ");
}

export const respellArpabet = (arpabet: string) => respellIpa(arpabetToIpa(arpabet));
