/**
 * IPA and CMU ARPAbet to flite's English phone set (the CMU lexicon's: ARPAbet in lower case,
 * vowels with stress 0 or 1), for the lexicon addenda that speak phoneme spans (synth.ts).
 * Symbols outside the tables are dropped and reported.
 */

// Longest IPA sequences first so diphthongs and affricates win over their parts.
const IPA: ReadonlyArray<readonly [string, string[]]> = [
  ["t͡ʃ", ["ch"]], ["d͡ʒ", ["jh"]], ["tʃ", ["ch"]], ["dʒ", ["jh"]], ["ʧ", ["ch"]], ["ʤ", ["jh"]],
  ["ɑːɹ", ["aa", "r"]], ["ɔːɹ", ["ao", "r"]], ["ɛəɹ", ["eh", "r"]],
  ["eɪ", ["ey"]], ["aɪ", ["ay"]], ["ɔɪ", ["oy"]], ["aʊ", ["aw"]], ["oʊ", ["ow"]], ["əʊ", ["ow"]],
  ["ɪə", ["ih", "r"]], ["eə", ["eh", "r"]], ["ɛə", ["eh", "r"]], ["ʊə", ["uh", "r"]],
  ["ɪɹ", ["ih", "r"]], ["ɛɹ", ["eh", "r"]], ["ʊɹ", ["uh", "r"]], ["ɑɹ", ["aa", "r"]], ["ɔɹ", ["ao", "r"]],
  ["iː", ["iy"]], ["uː", ["uw"]], ["ɑː", ["aa"]], ["ɔː", ["ao"]], ["ɜː", ["er"]], ["i:", ["iy"]], ["u:", ["uw"]],
  ["ɝ", ["er"]], ["ɚ", ["er"]], ["ɜ", ["er"]],
  ["i", ["iy"]], ["ɪ", ["ih"]], ["e", ["ey"]], ["ɛ", ["eh"]], ["æ", ["ae"]], ["a", ["aa"]], ["ɐ", ["ah"]], ["ɑ", ["aa"]], ["ɒ", ["aa"]],
  ["ɔ", ["ao"]], ["o", ["ow"]], ["ʊ", ["uh"]], ["u", ["uw"]], ["ʌ", ["ah"]], ["ə", ["ax"]], ["ɨ", ["ih"]], ["y", ["uw"]], ["ø", ["er"]], ["œ", ["er"]],
  ["p", ["p"]], ["b", ["b"]], ["t", ["t"]], ["d", ["d"]], ["k", ["k"]], ["ɡ", ["g"]], ["g", ["g"]], ["f", ["f"]], ["v", ["v"]],
  ["θ", ["th"]], ["ð", ["dh"]], ["s", ["s"]], ["z", ["z"]], ["ʃ", ["sh"]], ["ʒ", ["zh"]], ["h", ["hh"]], ["x", ["k"]], ["ç", ["hh"]],
  ["m", ["m"]], ["n", ["n"]], ["ŋ", ["ng"]], ["ɲ", ["n", "y"]], ["l", ["l"]], ["ɫ", ["l"]], ["ɹ", ["r"]], ["r", ["r"]], ["ɾ", ["t"]],
  ["w", ["w"]], ["ʍ", ["w"]], ["j", ["y"]], ["ʔ", []],
];
const IPA_IGNORED = new Set([".", "‿", "̩", "͡", "̃", "ʰ", "ʲ", "(", ")", "/", "[", "]", "ː"]);
const VOWELS = new Set(["aa", "ae", "ah", "ao", "aw", "ax", "ay", "eh", "er", "ey", "ih", "iy", "ow", "oy", "uh", "uw"]);
const CONSONANTS = new Set(["b", "ch", "d", "dh", "f", "g", "hh", "jh", "k", "l", "m", "n", "ng", "p", "r", "s", "sh", "t", "th", "v", "w", "y", "z", "zh"]);

export interface FliteConversion {
  /** Phones with stress digits on vowels, e.g. ["t", "ax0", "m", "ey1", "t", "ow0"]. */
  phones: string[];
  unknown: string[];
}

export function ipaToFlite(ipa: string): FliteConversion {
  const s = ipa.normalize("NFC").replace(/g/g, "ɡ");
  const phones: string[] = [];
  const unknown: string[] = [];
  let stress = false;
  for (let i = 0; i < s.length; ) {
    const c = s[i];
    if (c === "ˈ" || c === "ˌ") {
      stress = true;
      i++;
      continue;
    }
    const hit = IPA.find(([k]) => s.startsWith(k, i));
    if (hit) {
      for (const p of hit[1]) {
        if (VOWELS.has(p)) {
          phones.push(`${p === "ax" && stress ? "ah" : p}${stress ? 1 : 0}`);
          stress = false;
        } else phones.push(p);
      }
      i += hit[0].length;
    } else {
      if (!/\s/.test(c) && !IPA_IGNORED.has(c)) unknown.push(c);
      i++;
    }
  }
  return { phones, unknown };
}

export function arpabetToFlite(arpabet: string): FliteConversion {
  const phones: string[] = [];
  const unknown: string[] = [];
  for (const token of arpabet.trim().split(/\s+/)) {
    if (!token || token === "|" || token === "/") continue;
    const m = /^([A-Za-z]+)([012])?$/.exec(token);
    const sym = m?.[1].toLowerCase();
    if (m && sym && VOWELS.has(sym)) phones.push(`${sym}${m[2] === "1" || m[2] === "2" ? 1 : 0}`);
    else if (m && sym && CONSONANTS.has(sym)) phones.push(sym);
    else unknown.push(token);
  }
  return { phones, unknown };
}

export function toFlitePhones(phonemes: string, alphabet: "ipa" | "cmu-arpabet"): FliteConversion {
  return alphabet === "ipa" ? ipaToFlite(phonemes) : arpabetToFlite(phonemes);
}
