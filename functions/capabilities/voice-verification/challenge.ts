/**
 * What the user reads to verify a voice: six random words in the voice's language, new for every
 * attempt, and the decoys the recording is also aligned with (other words from the same list, so
 * a recording of anything else fits a decoy as well as the sentence). Randomness comes from
 * node:crypto for the sentence (a seeded source in tests) and from the attempt id for the decoys (replayable checks).
 */
import { cryptoUniform } from "../../platform/adapters/ids.js";
import { hashSeed, prng } from "../../media/engine/prng.js";

export const WORDS_PER_CHALLENGE = 6;
export const DECOYS = 4;

/** Forty everyday, easy-to-say words per language. */
const WORDS: Record<string, string[]> = {
  en: ["apple", "river", "yellow", "garden", "window", "silver", "orange", "mountain", "candle", "pencil", "rabbit", "sunset", "winter", "ocean", "basket", "lemon", "marble", "copper", "jacket", "forest", "thunder", "pepper", "castle", "harbour", "tiger", "bottle", "meadow", "violin", "blanket", "button", "coffee", "rocket", "saddle", "pillow", "tunnel", "island", "lantern", "carpet", "museum", "dolphin"],
  de: ["Apfel", "Fluss", "gelb", "Garten", "Fenster", "Silber", "Orange", "Berg", "Kerze", "Bleistift", "Hase", "Sonne", "Winter", "Ozean", "Korb", "Zitrone", "Marmor", "Kupfer", "Jacke", "Wald", "Donner", "Pfeffer", "Schloss", "Hafen", "Tiger", "Flasche", "Wiese", "Geige", "Decke", "Knopf", "Kaffee", "Rakete", "Sattel", "Kissen", "Tunnel", "Insel", "Laterne", "Teppich", "Museum", "Delfin"],
  fr: ["pomme", "rivière", "jaune", "jardin", "fenêtre", "argent", "orange", "montagne", "bougie", "crayon", "lapin", "soleil", "hiver", "océan", "panier", "citron", "marbre", "cuivre", "veste", "forêt", "tonnerre", "poivre", "château", "port", "tigre", "bouteille", "prairie", "violon", "couverture", "bouton", "café", "fusée", "selle", "oreiller", "tunnel", "île", "lanterne", "tapis", "musée", "dauphin"],
  es: ["manzana", "río", "amarillo", "jardín", "ventana", "plata", "naranja", "montaña", "vela", "lápiz", "conejo", "atardecer", "invierno", "océano", "cesta", "limón", "mármol", "cobre", "chaqueta", "bosque", "trueno", "pimienta", "castillo", "puerto", "tigre", "botella", "prado", "violín", "manta", "botón", "café", "cohete", "silla", "almohada", "túnel", "isla", "linterna", "alfombra", "museo", "delfín"],
  it: ["mela", "fiume", "giallo", "giardino", "finestra", "argento", "arancia", "montagna", "candela", "matita", "coniglio", "tramonto", "inverno", "oceano", "cestino", "limone", "marmo", "rame", "giacca", "foresta", "tuono", "pepe", "castello", "porto", "tigre", "bottiglia", "prato", "violino", "coperta", "bottone", "caffè", "razzo", "sella", "cuscino", "tunnel", "isola", "lanterna", "tappeto", "museo", "delfino"],
  pt: ["maçã", "rio", "amarelo", "jardim", "janela", "prata", "laranja", "montanha", "vela", "lápis", "coelho", "pôr do sol", "inverno", "oceano", "cesta", "limão", "mármore", "cobre", "jaqueta", "floresta", "trovão", "pimenta", "castelo", "porto", "tigre", "garrafa", "prado", "violino", "cobertor", "botão", "café", "foguete", "sela", "travesseiro", "túnel", "ilha", "lanterna", "tapete", "museu", "golfinho"],
  pl: ["jabłko", "rzeka", "żółty", "ogród", "okno", "srebro", "pomarańcza", "góra", "świeca", "ołówek", "królik", "zachód", "zima", "ocean", "koszyk", "cytryna", "marmur", "miedź", "kurtka", "las", "grzmot", "pieprz", "zamek", "port", "tygrys", "butelka", "łąka", "skrzypce", "koc", "guzik", "kawa", "rakieta", "siodło", "poduszka", "tunel", "wyspa", "latarnia", "dywan", "muzeum", "delfin"],
  nl: ["appel", "rivier", "geel", "tuin", "raam", "zilver", "sinaasappel", "berg", "kaars", "potlood", "konijn", "zonsondergang", "winter", "oceaan", "mand", "citroen", "marmer", "koper", "jas", "bos", "donder", "peper", "kasteel", "haven", "tijger", "fles", "weide", "viool", "deken", "knoop", "koffie", "raket", "zadel", "kussen", "tunnel", "eiland", "lantaarn", "tapijt", "museum", "dolfijn"],
  sv: ["äpple", "flod", "gul", "trädgård", "fönster", "silver", "apelsin", "berg", "ljus", "penna", "kanin", "solnedgång", "vinter", "hav", "korg", "citron", "marmor", "koppar", "jacka", "skog", "åska", "peppar", "slott", "hamn", "tiger", "flaska", "äng", "fiol", "filt", "knapp", "kaffe", "raket", "sadel", "kudde", "tunnel", "ö", "lykta", "matta", "museum", "delfin"],
  hi: ["सेब", "नदी", "पीला", "बगीचा", "खिड़की", "चाँदी", "संतरा", "पहाड़", "मोमबत्ती", "पेंसिल", "खरगोश", "सूर्यास्त", "सर्दी", "समुद्र", "टोकरी", "नींबू", "संगमरमर", "तांबा", "जैकेट", "जंगल", "बादल", "मिर्च", "किला", "बंदरगाह", "बाघ", "बोतल", "घास", "सितार", "कंबल", "बटन", "कॉफ़ी", "रॉकेट", "काठी", "तकिया", "सुरंग", "द्वीप", "लालटेन", "कालीन", "संग्रहालय", "डॉल्फ़िन"],
};

export function wordsFor(language: string): string[] {
  return WORDS[language] ?? WORDS.en;
}

/** The language the sentence is in: the voice's when we have words for it, else English. */
export function challengeLanguage(language: string | null | undefined): string {
  return language && WORDS[language] ? language : "en";
}


/**
 * A new sentence for an attempt. `random` is node:crypto's unless the context was built with a
 * seeded source (the embedded stack under test: the same sentences on every run, so a test's
 * outcome does not depend on which words it drew).
 */
export function newChallenge(language: string, random: () => number = cryptoUniform): string {
  const words = [...wordsFor(language)];
  const picked: string[] = [];
  for (let i = 0; i < WORDS_PER_CHALLENGE; i++) picked.push(words.splice(Math.floor(random() * words.length), 1)[0]);
  return format(picked);
}

/** Decoys for an attempt's sentence: other words of the list, seeded by the attempt id. */
export function decoysFor(text: string, language: string, attemptId: string): string[] {
  const used = new Set(parseWords(text).map((w) => w.toLocaleLowerCase()));
  const rest = wordsFor(language).filter((w) => !used.has(w.toLocaleLowerCase()));
  const rand = prng(hashSeed("verification-decoys", attemptId));
  return Array.from({ length: DECOYS }, () => {
    const pool = [...rest];
    const picked: string[] = [];
    for (let i = 0; i < WORDS_PER_CHALLENGE && pool.length; i++) picked.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]);
    return format(picked);
  });
}

function format(words: string[]): string {
  const s = words.join(", ");
  return s.charAt(0).toLocaleUpperCase() + s.slice(1) + ".";
}

const parseWords = (text: string) => text.replace(/[.]$/, "").split(/,\s*/);

/** Levenshtein distance between two texts (word-level sentences are short: quadratic is fine). */
export function levenshtein(a: string, b: string): number {
  const x = [...a.toLocaleLowerCase()];
  const y = [...b.toLocaleLowerCase()];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length];
}
