import type { Replacement } from "./textmap.js";

/**
 * Text normalisation for what eSpeak NG reads badly on its own: currency amounts, ISO dates,
 * grouped thousands, common abbreviations and units. eSpeak already speaks plain numbers,
 * ordinals and times in its languages, so those are left to it. Returns replacements in the
 * input's coordinates (applied through MappedText, so alignment still maps to the original).
 */
export type NormalizationMode = "auto" | "on" | "off";

interface LanguageRules {
  months: string[];
  date: (d: number, month: string, y: number) => string;
  currency: Record<string, [one: string, many: string, cent: string, cents: string]>;
  and: string;
  thousands: "," | "." | " ";
  abbreviations: Record<string, string>;
  units: Record<string, string>;
}

const EN: LanguageRules = {
  months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
  date: (d, m, y) => `${m} ${d}, ${y}`,
  currency: { $: ["dollar", "dollars", "cent", "cents"], "€": ["euro", "euros", "cent", "cents"], "£": ["pound", "pounds", "penny", "pence"], "¥": ["yen", "yen", "sen", "sen"] },
  and: "and",
  thousands: ",",
  abbreviations: {
    "Dr.": "Doctor", "Mr.": "Mister", "Mrs.": "Missus", "Ms.": "Miz", "Prof.": "Professor", "Jr.": "Junior", "Sr.": "Senior",
    "e.g.": "for example", "i.e.": "that is", "etc.": "et cetera", "vs.": "versus", "approx.": "approximately", "Inc.": "Incorporated",
    "Ltd.": "Limited", "Co.": "Company", "Dept.": "Department", "Ave.": "Avenue", "Mt.": "Mount", "Jan.": "January", "Feb.": "February",
    "Aug.": "August", "Sept.": "September", "Oct.": "October", "Nov.": "November", "Dec.": "December",
  },
  units: { km: "kilometers", kg: "kilograms", cm: "centimeters", mm: "millimeters", mg: "milligrams", ml: "milliliters", "km/h": "kilometers per hour", mph: "miles per hour", "°C": "degrees Celsius", "°F": "degrees Fahrenheit", GB: "gigabytes", MB: "megabytes", kHz: "kilohertz", Hz: "hertz" },
};

const DE: LanguageRules = {
  months: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
  date: (d, m, y) => `${d}. ${m} ${y}`,
  currency: { $: ["Dollar", "Dollar", "Cent", "Cent"], "€": ["Euro", "Euro", "Cent", "Cent"], "£": ["Pfund", "Pfund", "Penny", "Pence"], "¥": ["Yen", "Yen", "Sen", "Sen"] },
  and: "und",
  thousands: ".",
  abbreviations: { "z.B.": "zum Beispiel", "z. B.": "zum Beispiel", "bzw.": "beziehungsweise", "usw.": "und so weiter", "ca.": "circa", "Nr.": "Nummer", "Dr.": "Doktor", "Prof.": "Professor", "d.h.": "das heißt", "u.a.": "unter anderem", "Str.": "Straße" },
  units: { km: "Kilometer", kg: "Kilogramm", cm: "Zentimeter", mm: "Millimeter", "km/h": "Kilometer pro Stunde", "°C": "Grad Celsius" },
};

const FR: LanguageRules = {
  months: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
  date: (d, m, y) => `${d === 1 ? "premier" : d} ${m} ${y}`,
  currency: { $: ["dollar", "dollars", "cent", "cents"], "€": ["euro", "euros", "centime", "centimes"], "£": ["livre", "livres", "penny", "pence"], "¥": ["yen", "yens", "sen", "sen"] },
  and: "et",
  thousands: " ",
  abbreviations: { "M.": "Monsieur", "Mme": "Madame", "Mlle": "Mademoiselle", "etc.": "et cetera", "Dr": "Docteur", "av.": "avenue", "bd": "boulevard" },
  units: { km: "kilomètres", kg: "kilogrammes", cm: "centimètres", "km/h": "kilomètres heure", "°C": "degrés Celsius" },
};

const ES: LanguageRules = {
  months: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
  date: (d, m, y) => `${d} de ${m} de ${y}`,
  currency: { $: ["dólar", "dólares", "centavo", "centavos"], "€": ["euro", "euros", "céntimo", "céntimos"], "£": ["libra", "libras", "penique", "peniques"], "¥": ["yen", "yenes", "sen", "sen"] },
  and: "con",
  thousands: ".",
  abbreviations: { "Sr.": "señor", "Sra.": "señora", "Srta.": "señorita", "Dr.": "doctor", "Dra.": "doctora", "etc.": "etcétera", "p.ej.": "por ejemplo", "Ud.": "usted" },
  units: { km: "kilómetros", kg: "kilogramos", cm: "centímetros", "km/h": "kilómetros por hora", "°C": "grados Celsius" },
};

const IT: LanguageRules = {
  months: ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"],
  date: (d, m, y) => `${d === 1 ? "primo" : d} ${m} ${y}`,
  currency: { $: ["dollaro", "dollari", "centesimo", "centesimi"], "€": ["euro", "euro", "centesimo", "centesimi"], "£": ["sterlina", "sterline", "penny", "pence"], "¥": ["yen", "yen", "sen", "sen"] },
  and: "e",
  thousands: ".",
  abbreviations: { "Sig.": "signor", "Sig.ra": "signora", "Dott.": "dottor", "ecc.": "eccetera", "es.": "esempio" },
  units: { km: "chilometri", kg: "chilogrammi", cm: "centimetri", "km/h": "chilometri orari", "°C": "gradi Celsius" },
};

const PT: LanguageRules = {
  months: ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"],
  date: (d, m, y) => `${d} de ${m} de ${y}`,
  currency: { $: ["dólar", "dólares", "centavo", "centavos"], "€": ["euro", "euros", "cêntimo", "cêntimos"], "£": ["libra", "libras", "pêni", "pence"], "R$": ["real", "reais", "centavo", "centavos"] },
  and: "e",
  thousands: ".",
  abbreviations: { "Sr.": "senhor", "Sra.": "senhora", "Dr.": "doutor", "Dra.": "doutora", "etc.": "et cetera" },
  units: { km: "quilômetros", kg: "quilogramas", cm: "centímetros", "km/h": "quilômetros por hora", "°C": "graus Celsius" },
};

const NL: LanguageRules = {
  months: ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"],
  date: (d, m, y) => `${d} ${m} ${y}`,
  currency: { $: ["dollar", "dollar", "cent", "cent"], "€": ["euro", "euro", "cent", "cent"], "£": ["pond", "pond", "penny", "pence"] },
  and: "en",
  thousands: ".",
  abbreviations: { "bijv.": "bijvoorbeeld", "d.w.z.": "dat wil zeggen", "enz.": "enzovoort", "dhr.": "de heer", "mevr.": "mevrouw" },
  units: { km: "kilometer", kg: "kilogram", cm: "centimeter", "km/u": "kilometer per uur", "°C": "graden Celsius" },
};

const PL: LanguageRules = {
  months: ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września", "października", "listopada", "grudnia"],
  date: (d, m, y) => `${d} ${m} ${y}`,
  currency: { $: ["dolar", "dolarów", "cent", "centów"], "€": ["euro", "euro", "cent", "centów"], zł: ["złoty", "złotych", "grosz", "groszy"] },
  and: "i",
  thousands: " ",
  abbreviations: { "np.": "na przykład", "itd.": "i tak dalej", "itp.": "i tym podobne", "ul.": "ulica", "dr": "doktor", "prof.": "profesor" },
  units: { km: "kilometrów", kg: "kilogramów", cm: "centymetrów", "km/h": "kilometrów na godzinę", "°C": "stopni Celsjusza" },
};

const SV: LanguageRules = {
  months: ["januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober", "november", "december"],
  date: (d, m, y) => `${d} ${m} ${y}`,
  currency: { $: ["dollar", "dollar", "cent", "cent"], "€": ["euro", "euro", "cent", "cent"], kr: ["krona", "kronor", "öre", "öre"] },
  and: "och",
  thousands: " ",
  abbreviations: { "t.ex.": "till exempel", "bl.a.": "bland annat", "osv.": "och så vidare", "ca": "cirka" },
  units: { km: "kilometer", kg: "kilogram", cm: "centimeter", "km/h": "kilometer i timmen", "°C": "grader Celsius" },
};

const RULES: Record<string, LanguageRules> = { en: EN, de: DE, fr: FR, es: ES, it: IT, pt: PT, nl: NL, pl: PL, sv: SV };

export function rulesFor(language: string): LanguageRules | undefined {
  return RULES[language.toLowerCase().split(/[-_]/)[0]];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** Replacements that normalise `text` for `language`; none for languages without rules or mode "off". */
export function normalizationReplacements(text: string, language: string, mode: NormalizationMode): Replacement[] {
  if (mode === "off") return [];
  const rules = rulesFor(language);
  if (!rules) return [];
  const found: Replacement[] = [];
  const taken = (a: number, b: number) => found.some((r) => a < r.end && b > r.start);
  const add = (start: number, end: number, out: string) => {
    if (!taken(start, end)) found.push({ start, end, text: out, tag: "normalize" });
  };

  // ISO dates: 2026-11-22
  for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31) add(m.index!, m.index! + m[0].length, rules.date(d, rules.months[mo - 1], y));
  }

  // Currency: symbol before (en style "$1,234.50") or after ("12,50 €"), with the language's separators.
  const symbols = Object.keys(rules.currency).sort((a, b) => b.length - a.length).map(escape).join("|");
  const dec = rules.thousands === "," ? "\\." : ",";
  const grp = rules.thousands === " " ? "[  ]" : escape(rules.thousands);
  const amount = `(\\d{1,3}(?:${grp}\\d{3})+|\\d+)(?:${dec}(\\d{2}))?`;
  const spell = (symbol: string, whole: string, cents: string | undefined) => {
    const [one, many, cent, centsWord] = rules.currency[symbol];
    const n = whole.replace(new RegExp(grp, "g"), "");
    const major = `${n} ${n === "1" ? one : many}`;
    if (!cents || cents === "00") return major;
    const c = String(Number(cents));
    return `${major} ${rules.and} ${c} ${c === "1" ? cent : centsWord}`;
  };
  for (const m of text.matchAll(new RegExp(`(${symbols})\\s?${amount}`, "g"))) add(m.index!, m.index! + m[0].length, spell(m[1], m[2], m[3]));
  for (const m of text.matchAll(new RegExp(`${amount}\\s?(${symbols})(?![\\p{L}])`, "gu"))) add(m.index!, m.index! + m[0].length, spell(m[3], m[1], m[2]));

  // Grouped thousands outside currency: "1,234,567" -> "1234567" (eSpeak reads the plain number).
  for (const m of text.matchAll(new RegExp(`(?<![\\d${dec}])\\d{1,3}(?:${grp}\\d{3})+(?![\\d])`, "g"))) {
    add(m.index!, m.index! + m[0].length, m[0].replace(new RegExp(grp, "g"), ""));
  }

  // Units after a number: "5 km" -> "5 kilometers"
  const units = Object.keys(rules.units).sort((a, b) => b.length - a.length).map(escape).join("|");
  for (const m of text.matchAll(new RegExp(`(?<=\\d\\s?)(${units})(?![\\p{L}/])`, "gu"))) add(m.index!, m.index! + m[0].length, rules.units[m[1]]);

  // Abbreviations as whole tokens.
  const abbrs = Object.keys(rules.abbreviations).sort((a, b) => b.length - a.length).map(escape).join("|");
  for (const m of text.matchAll(new RegExp(`(?<![\\p{L}.])(${abbrs})(?=\\s|$|[,;:!?)])`, "gu"))) add(m.index!, m.index! + m[0].length, rules.abbreviations[m[1]]);

  return found.sort((a, b) => a.start - b.start);
}
