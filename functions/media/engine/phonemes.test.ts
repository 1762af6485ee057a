import ESpeakNg from "espeak-ng";
import { describe, expect, it } from "vitest";
import { arpabetToEspeak, ipaToEspeak } from "./espeak/phonemes.js";

/** eSpeak's own IPA rendering of phoneme input (one word each): the referee for our conversion table. */
async function espeakIpa(words: string[]): Promise<string[]> {
  const out: string[] = [];
  const text = words.map((w) => `[[${w}]]`).join(" ");
  await ESpeakNg({ arguments: ["-q", "--ipa", "-v", "en-us", text], print: (s) => out.push(s), printErr: () => {} });
  return out.join(" ").trim().split(/\s+/);
}

const stripStress = (s: string) => s.replace(/[ˈˌ]/g, "");

describe("IPA to eSpeak", () => {
  it.each([
    ["həˈloʊ", "h@'loU"],
    ["θɪŋk", "TINk"],
    ["ˈtʃɜːtʃ", "'tS3:tS"],
    ["d͡ʒʌdʒ", "dZVdZ"],
    ["ˈvɪʒən", "'vIZ@n"],
    ["ˌʌndɚˈstænd", ",Vnd3'stand"],
  ])("converts %s to %s", (ipa, espeak) => {
    expect(ipaToEspeak(ipa)).toEqual({ espeak, unknown: [] });
  });

  it("reports symbols it cannot map and drops them", () => {
    expect(ipaToEspeak("hɐʘlo")).toEqual({ espeak: "ha#lo", unknown: ["ʘ"] });
  });

  it("round-trips through eSpeak's own IPA output (segments identical, stress placement aside)", async () => {
    const words = ["həˈloʊ", "ˈwɔːtɚ", "ˈtʃɜːtʃ", "ˈhæpi", "ˈbaɪ", "ˈbɔɪ", "ˈnaʊ", "ʃiːp", "ˈsɪŋɪŋ", "ˈvɪʒən", "ɡʊd", "ðə", "ˈjɛloʊ"];
    const back = await espeakIpa(words.map((w) => ipaToEspeak(w).espeak));
    // eSpeak writes the American flap for t between vowels; that is its phonology, not our table.
    expect(back.map((b) => stripStress(b).replace("ɾ", "t"))).toEqual(words.map(stripStress));
  });
});

describe("ARPAbet to eSpeak", () => {
  it("maps phones and puts stress marks before stressed vowels", () => {
    expect(arpabetToEspeak("T AH0 M EY1 T OW2")).toEqual({ espeak: "t@m'eIt,oU", unknown: [] });
    expect(arpabetToEspeak("hh ah0 l ow1")).toEqual({ espeak: "h@l'oU", unknown: [] });
  });

  it("reports unknown tokens", () => {
    expect(arpabetToEspeak("K AE1 XX T")).toEqual({ espeak: "k'at", unknown: ["XX"] });
  });

  it("round-trips through eSpeak's IPA output", async () => {
    const back = await espeakIpa(["W ER1 L D", "HH AH0 L OW1"].map((a) => arpabetToEspeak(a).espeak));
    expect(back.map(stripStress)).toEqual(["wɜːld", "həloʊ"]);
  });
});
