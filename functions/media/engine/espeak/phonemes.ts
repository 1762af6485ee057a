/**
 * IPA and CMU ARPAbet to eSpeak NG phoneme mnemonics, for `[[...]]` phoneme input. Targets
 * eSpeak's English phoneme table (most symbols are shared by its other languages). Symbols
 * outside the tables are dropped; README "Phoneme input" lists the coverage.
 */

// Longest IPA sequences first so diphthongs and affricates win over their parts.
const IPA: ReadonlyArray<readonly [string, string]> = [
  ["t͡ʃ", "tS"], ["d͡ʒ", "dZ"], ["tʃ", "tS"], ["dʒ", "dZ"], ["ʧ", "tS"], ["ʤ", "dZ"],
  ["ɑːɹ", "A@"], ["ɔːɹ", "O@"], ["ɛəɹ", "e@"],
  ["eɪ", "eI"], ["aɪ", "aI"], ["ɔɪ", "OI"], ["aʊ", "aU"], ["oʊ", "oU"], ["əʊ", "@U"],
  ["ɪə", "i@"], ["eə", "e@"], ["ɛə", "e@"], ["ʊə", "U@"],
  ["ɪɹ", "i@"], ["ɛɹ", "e@"], ["ʊɹ", "U@"], ["ɑɹ", "A@"], ["ɔɹ", "O@"],
  ["iː", "i:"], ["uː", "u:"], ["ɑː", "A:"], ["ɔː", "O:"], ["ɜː", "3:"], ["i:", "i:"], ["u:", "u:"],
  ["ɝ", "3:"], ["ɚ", "3"], ["ɜ", "3:"],
  ["i", "i"], ["ɪ", "I"], ["e", "e"], ["ɛ", "E"], ["æ", "a"], ["a", "a"], ["ɐ", "a#"], ["ɑ", "A:"], ["ɒ", "0"],
  ["ɔ", "O:"], ["o", "o"], ["ʊ", "U"], ["u", "u:"], ["ʌ", "V"], ["ə", "@"], ["ɨ", "I#"], ["y", "y"], ["ø", "Y"], ["œ", "W"],
  ["p", "p"], ["b", "b"], ["t", "t"], ["d", "d"], ["k", "k"], ["ɡ", "g"], ["g", "g"], ["f", "f"], ["v", "v"],
  ["θ", "T"], ["ð", "D"], ["s", "s"], ["z", "z"], ["ʃ", "S"], ["ʒ", "Z"], ["h", "h"], ["x", "x"], ["ç", "C"],
  ["m", "m"], ["n", "n"], ["ŋ", "N"], ["ɲ", "n^"], ["l", "l"], ["ɫ", "l"], ["ɹ", "r"], ["r", "r"], ["ɾ", "t#"],
  ["w", "w"], ["ʍ", "w"], ["j", "j"], ["ʔ", "?"],
  ["ˈ", "'"], ["ˌ", ","], ["ː", ":"],
];

const IPA_IGNORED = new Set([".", "‿", "̩", "͡", "̃", "ʰ", "ʲ", "(", ")", "/", "[", "]"]);

export interface Conversion {
  espeak: string;
  /** Input symbols that had no mapping and were dropped. */
  unknown: string[];
}

export function ipaToEspeak(ipa: string): Conversion {
  const s = ipa.normalize("NFC").replace(/g/g, "ɡ");
  let out = "";
  const unknown: string[] = [];
  for (let i = 0; i < s.length; ) {
    const c = s[i];
    if (/\s/.test(c)) {
      out += " ";
      i++;
      continue;
    }
    const hit = IPA.find(([k]) => s.startsWith(k, i));
    if (hit) {
      // A bare length mark after a vowel that already carries one adds nothing.
      if (!(hit[1] === ":" && out.endsWith(":"))) out += hit[1];
      i += hit[0].length;
    } else {
      if (!IPA_IGNORED.has(c)) unknown.push(c);
      i++;
    }
  }
  return { espeak: out.replace(/\s+/g, " ").trim(), unknown };
}

const ARPABET: Record<string, string> = {
  AA: "A:", AE: "a", AH: "V", AO: "O:", AW: "aU", AY: "aI", EH: "E", ER: "3:", EY: "eI", IH: "I", IY: "i:", OW: "oU", OY: "OI", UH: "U", UW: "u:",
  B: "b", CH: "tS", D: "d", DH: "D", F: "f", G: "g", HH: "h", JH: "dZ", K: "k", L: "l", M: "m", N: "n", NG: "N", P: "p", R: "r",
  S: "s", SH: "S", T: "t", TH: "T", V: "v", W: "w", Y: "j", Z: "z", ZH: "Z",
};
/** Unstressed variants that English reduces. */
const ARPABET_UNSTRESSED: Record<string, string> = { AH: "@", ER: "3" };

export function arpabetToEspeak(arpabet: string): Conversion {
  let out = "";
  const unknown: string[] = [];
  for (const token of arpabet.trim().split(/\s+/)) {
    if (!token) continue;
    if (token === "|" || token === "/") {
      out += " ";
      continue;
    }
    const m = /^([A-Za-z]+)([012])?$/.exec(token);
    const sym = m?.[1].toUpperCase();
    if (!m || !sym || !(sym in ARPABET)) {
      unknown.push(token);
      continue;
    }
    const stress = m[2];
    if (stress === "1") out += "'";
    else if (stress === "2") out += ",";
    out += stress === "0" && ARPABET_UNSTRESSED[sym] ? ARPABET_UNSTRESSED[sym] : ARPABET[sym];
  }
  return { espeak: out.trim(), unknown };
}

export function toEspeakPhonemes(phonemes: string, alphabet: "ipa" | "cmu-arpabet"): Conversion {
  return alphabet === "ipa" ? ipaToEspeak(phonemes) : arpabetToEspeak(phonemes);
}
