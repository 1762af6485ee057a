/**
 * Which language a short text is in (the recorder's scripts and the sample language checks):
 * the writing system first (Hangul is Korean, kana Japanese, Han Chinese, Cyrillic Russian),
 * then, for Latin script, the language whose common short words and letters the text uses most.
 * Only the first 100 characters are read. Pure and small: a hundred characters against a few
 * hundred words, fine on the request loop.
 */
export const DETECT_MAX_CHARS = 100;

const WORDS: Record<string, string> = {
  en: "the and of to a in is it you that he was for on are with as i his they be at one have this from or had by but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more go see no way could people my than first been who its now find long down day did get come made may part over new after also back where just know take year good",
  es: "el la los las de del que y en un una es no por con para se su al lo como más pero sus le ya o fue este ha sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros",
  pt: "o a os as de do da dos das que e em um uma é não por com para se seu sua ao no na nos nas como mais mas foi ele ela isso isto também já quando muito sem sobre até há onde quem desde tudo nós eles elas você está estão ser ter fazer pelo pela num numa então depois ainda aqui agora sempre bem",
  fr: "le la les de des du que et en un une est il elle ne pas par pour avec se sur au aux ce cette qui dans plus mais son sa ses ou nous vous ils elles on été être avoir fait comme tout tous très bien aussi leur lui y a je tu me te mon ma mes ton ta donc alors où quand parce",
  de: "der die das den dem des und ist nicht ein eine einen einem einer zu in im mit von für auf auch es sich sie er wir ihr ich du als an bei aus nach wie was wenn aber oder noch nur so dass sind war wird werden hat haben kann schon sehr mehr man über vor zum zur durch",
  it: "il lo la i gli le di del della dei delle che e è in un una uno per con non si su sono come più ma anche al alla ai nel nella questo questa quello quella ha hanno era essere fare tutto tutti molto già ancora dove quando perché cosa io tu lui lei noi voi loro mi ti ci",
  hr: "i u je na se da za su od s sa kao što ali ne to iz o a li bi bio bila bilo smo ste sam si će ću mi ti on ona ono oni one ja vi ih ga joj njihov koji koja koje kad kada gdje ovdje sve samo još već tako jer nije nisu biti imati",
  nl: "de het een en van in is dat op te zijn voor met die niet aan er om ook als maar bij of uit dan nog wel naar kan tot hij zij we wij jij je ik ze dit deze zo al was werd worden heeft hebben door over meer",
  pl: "i w na z że się nie do to jest jak co ale po o od za tak jego jej już tylko przez dla być był była było są może ze a lub czy tym te ten ta tego bardzo gdy kiedy który która które oraz jeszcze",
  sv: "och i att det som en på är av för med till den har de inte om ett var jag han men så vi kan hon sig från ut vid när eller efter skulle då bara nu mycket också hade blev vara här",
};

/** Letters that only some Latin-script languages use. */
const LETTERS: Record<string, string> = {
  es: "ñ¿¡",
  pt: "ãõç",
  fr: "çœèêëàùûîï",
  de: "ßäöü",
  it: "àèìòù",
  hr: "čćđšž",
  pl: "ąęłńśźż",
  sv: "åäö",
  nl: "ĳ",
};

const LEXICON = new Map<string, Set<string>>(Object.entries(WORDS).map(([l, w]) => [l, new Set(w.split(" "))]));

export interface LanguageGuess {
  language: string;
  probability: number;
}

export function detectLanguages(text: string): LanguageGuess[] {
  const t = [...text].slice(0, DETECT_MAX_CHARS).join("");
  const counts = { hangul: 0, kana: 0, han: 0, cyrillic: 0, devanagari: 0, latin: 0 };
  for (const ch of t) {
    const c = ch.codePointAt(0)!;
    if ((c >= 0xac00 && c <= 0xd7af) || (c >= 0x1100 && c <= 0x11ff) || (c >= 0x3130 && c <= 0x318f)) counts.hangul++;
    else if (c >= 0x3040 && c <= 0x30ff) counts.kana++;
    else if (c >= 0x4e00 && c <= 0x9fff) counts.han++;
    else if (c >= 0x0400 && c <= 0x04ff) counts.cyrillic++;
    else if (c >= 0x0900 && c <= 0x097f) counts.devanagari++;
    else if (/\p{Script=Latin}/u.test(ch)) counts.latin++;
  }
  const letters = Object.values(counts).reduce((a, b) => a + b, 0);
  if (letters === 0) return [];
  if (counts.hangul / letters > 0.3) return [{ language: "ko", probability: round(counts.hangul / letters) }];
  if (counts.kana / letters > 0.1) return [{ language: "ja", probability: round((counts.kana + counts.han) / letters) }];
  if (counts.han / letters > 0.3) return [{ language: "zh", probability: round(counts.han / letters) }];
  if (counts.cyrillic / letters > 0.3) return [{ language: "ru", probability: round(counts.cyrillic / letters) }];
  if (counts.devanagari / letters > 0.3) return [{ language: "hi", probability: round(counts.devanagari / letters) }];

  const lower = t.toLowerCase();
  const words = lower.split(/[^\p{L}']+/u).filter(Boolean);
  const scores = new Map<string, number>();
  for (const [lang, lexicon] of LEXICON) {
    let s = 0;
    for (const w of words) if (lexicon.has(w)) s += 1;
    for (const ch of lower) if (LETTERS[lang]?.includes(ch)) s += 0.75;
    scores.set(lang, s);
  }
  const total = [...scores.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return [{ language: "en", probability: 0 }];
  return [...scores]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([language, s]) => ({ language, probability: round(s / total) }));
}

const round = (x: number) => Math.round(x * 1000) / 1000;
