/**
 * Languages of the embedded engine and the mapping from an engine-agnostic VoiceProfile to an
 * eSpeak NG voice file (language rules + our voice attributes).
 */
import type { Age, Gender, VoiceProfile } from "../port.js";
import { hashSeed, prng, signed } from "../prng.js";

export interface EspeakLanguage {
  /** Our language id (ISO 639-1, plus region where eSpeak has a distinct voice). */
  id: string;
  name: string;
  /** accent label -> eSpeak voice file under espeak-ng-data/lang/ */
  accents: Record<string, string>;
  defaultAccent: string;
}

/** Languages eSpeak NG speaks acceptably (mature rules, complete phoneme sets). */
export const LANGUAGES: EspeakLanguage[] = [
  {
    id: "en", name: "English", defaultAccent: "american",
    accents: {
      american: "gmw/en-US", british: "gmw/en", scottish: "gmw/en-GB-scotland", caribbean: "gmw/en-029",
      received_pronunciation: "gmw/en-GB-x-rp", new_york: "gmw/en-US-nyc", west_midlands: "gmw/en-GB-x-gbcwmd", lancaster: "gmw/en-GB-x-gbclan",
    },
  },
  { id: "de", name: "German", defaultAccent: "standard", accents: { standard: "gmw/de" } },
  { id: "fr", name: "French", defaultAccent: "parisian", accents: { parisian: "roa/fr", standard: "roa/fr", belgian: "roa/fr-BE", swiss: "roa/fr-CH" } },
  { id: "es", name: "Spanish", defaultAccent: "castilian", accents: { castilian: "roa/es", standard: "roa/es", latin_american: "roa/es-419", mexican: "roa/es-419" } },
  { id: "it", name: "Italian", defaultAccent: "standard", accents: { standard: "roa/it" } },
  { id: "pt", name: "Portuguese", defaultAccent: "brazilian", accents: { brazilian: "roa/pt-BR", european: "roa/pt", standard: "roa/pt" } },
  { id: "pl", name: "Polish", defaultAccent: "standard", accents: { standard: "zlw/pl" } },
  { id: "nl", name: "Dutch", defaultAccent: "standard", accents: { standard: "gmw/nl" } },
  { id: "sv", name: "Swedish", defaultAccent: "standard", accents: { standard: "gmq/sv" } },
  { id: "da", name: "Danish", defaultAccent: "standard", accents: { standard: "gmq/da" } },
  { id: "no", name: "Norwegian", defaultAccent: "standard", accents: { standard: "gmq/nb" } },
  { id: "fi", name: "Finnish", defaultAccent: "standard", accents: { standard: "urj/fi" } },
  { id: "cs", name: "Czech", defaultAccent: "standard", accents: { standard: "zlw/cs" } },
  { id: "ro", name: "Romanian", defaultAccent: "standard", accents: { standard: "roa/ro" } },
  { id: "ru", name: "Russian", defaultAccent: "standard", accents: { standard: "zle/ru" } },
  { id: "tr", name: "Turkish", defaultAccent: "standard", accents: { standard: "trk/tr" } },
  { id: "hi", name: "Hindi", defaultAccent: "standard", accents: { standard: "inc/hi" } },
  { id: "id", name: "Indonesian", defaultAccent: "standard", accents: { standard: "poz/id" } },
];

const BY_ID = new Map(LANGUAGES.map((l) => [l.id, l]));

/** Region subtags that are really accents of a language we list. */
const REGION_ACCENTS: Record<string, string> = {
  "en-us": "american", "en-gb": "british", "en-029": "caribbean", "pt-br": "brazilian", "pt-pt": "european",
  "es-419": "latin_american", "es-mx": "mexican", "es-es": "castilian", "fr-fr": "parisian", "fr-be": "belgian", "fr-ch": "swiss",
  nb: "standard",
};

const normaliseAccent = (s: string) => s.trim().toLowerCase().replace(/[\s-]+/g, "_");

/** Resolves a language (and optional accent) to our table; unknown languages fall back to English. */
export function resolveLanguage(language: string, accent?: string): { language: EspeakLanguage; accent: string; file: string; supported: boolean } {
  const tag = language.trim().toLowerCase().replace(/_/g, "-");
  const primary = tag === "nb" ? "no" : tag.split("-")[0];
  const known = BY_ID.get(primary);
  const lang = known ?? BY_ID.get("en")!;
  const candidates = [accent && normaliseAccent(accent), REGION_ACCENTS[tag]].filter((a): a is string => !!a);
  const chosen = candidates.find((a) => a in lang.accents) ?? lang.defaultAccent;
  return { language: lang, accent: chosen, file: lang.accents[chosen], supported: !!known };
}

export function supportedLanguages(): Array<{ language_id: string; name: string }> {
  return LANGUAGES.map((l) => ({ language_id: l.id, name: l.name }));
}

/** Formant table row: frequency %, height %, width % (eSpeak voice-file `formant` keyword). */
type Formant = readonly [number, number, number];

interface VoiceBase {
  /** eSpeak `pitch` keyword: base and top of the range, Hz. */
  pitch: readonly [number, number];
  formants: readonly Formant[];
  flutter: number;
  roughness: number;
  echo?: readonly [number, number];
}

// Our own bases per gender and age, in the style of eSpeak's variant files: female formants sit
// 10-20% above male ones with softer, wider peaks; older voices lower and rougher.
const MALE: Formant[] = [[100, 100, 100], [100, 100, 100], [100, 95, 100], [100, 95, 100], [100, 90, 100], [100, 85, 100], [100, 80, 100], [100, 100, 100], [100, 100, 100]];
const FEMALE: Formant[] = [[105, 80, 150], [112, 80, 160], [118, 70, 150], [114, 70, 150], [116, 80, 150], [116, 80, 150], [110, 70, 150], [110, 70, 150], [110, 70, 150]];
const NEUTRAL: Formant[] = MALE.map((m, i) => [Math.round((m[0] + FEMALE[i][0]) / 2), Math.round((m[1] + FEMALE[i][1]) / 2), Math.round((m[2] + FEMALE[i][2]) / 2)]);

const shift = (rows: Formant[], pct: number): Formant[] => rows.map(([f, h, w]) => [Math.round(f * (1 + pct / 100)), h, w]);

const BASES: Record<Gender, Record<Age, VoiceBase>> = {
  male: {
    young: { pitch: [92, 135], formants: shift(MALE, 3), flutter: 4, roughness: 1 },
    middle_aged: { pitch: [82, 120], formants: MALE, flutter: 5, roughness: 2 },
    old: { pitch: [76, 112], formants: shift(MALE, -3), flutter: 14, roughness: 4, echo: [20, 8] },
  },
  female: {
    young: { pitch: [165, 245], formants: shift(FEMALE, 3), flutter: 4, roughness: 1 },
    middle_aged: { pitch: [150, 228], formants: FEMALE, flutter: 5, roughness: 2 },
    old: { pitch: [140, 205], formants: shift(FEMALE, -4), flutter: 16, roughness: 4, echo: [20, 8] },
  },
  neutral: {
    young: { pitch: [125, 185], formants: shift(NEUTRAL, 2), flutter: 4, roughness: 1 },
    middle_aged: { pitch: [115, 170], formants: NEUTRAL, flutter: 5, roughness: 2 },
    old: { pitch: [105, 155], formants: shift(NEUTRAL, -3), flutter: 14, roughness: 4, echo: [20, 8] },
  },
};

export interface VoiceShaping {
  /** Strength of the voice's own timbre (formant shift and identity pattern); similarity_boost drives it. */
  timbreStrength: number;
  /** Extra eSpeak flutter (pitch jitter) added by low stability. */
  extraFlutter: number;
}

/** Builds the eSpeak voice file: the language's rules, then our voice attributes. */
export function buildVoiceFile(langFile: string, profile: VoiceProfile, shaping: VoiceShaping): string {
  const base = BASES[profile.gender]?.[profile.age] ?? BASES.neutral.middle_aged;
  const rand = prng(hashSeed("voice-identity", profile.seed));
  const timbre = clamp(profile.timbre, -1, 1);
  // Negative timbre lowers every formant (a larger, darker vocal tract), up to ±12%.
  const tract = 1 + 0.12 * timbre * shaping.timbreStrength;
  const lines = langFile
    .split("\n")
    .filter((l) => !/^\s*(name|maintainer|status)\b/.test(l))
    .map((l) => l.replace(/\s+$/, ""));
  lines.unshift("name timbre");
  lines.push(`gender ${profile.gender === "female" ? "female" : "male"}`);
  lines.push(`pitch ${base.pitch[0]} ${base.pitch[1]}`);
  base.formants.forEach(([f, h, w], i) => {
    // A small per-voice pattern (±3%) keeps two voices with equal settings apart.
    const identity = 1 + 0.03 * signed(rand) * shaping.timbreStrength;
    lines.push(`formant ${i} ${Math.round(f * tract * identity)} ${h} ${w}`);
  });
  // Roughness (creak): eSpeak's roughness (0..7) and more pitch flutter, on top of the base's.
  const rough = clamp(profile.roughness ?? 0, 0, 1);
  lines.push(`flutter ${Math.round(base.flutter + shaping.extraFlutter + 20 * rough)}`);
  lines.push(`roughness ${Math.min(7, Math.round(base.roughness + 5 * rough))}`);
  if (base.echo) lines.push(`echo ${base.echo[0]} ${base.echo[1]}`);
  const breath = clamp(profile.breathiness ?? 0, 0, 1);
  if (breath > 0) {
    // eSpeak adds noise to the formant peaks: our breathiness is that noise level.
    const b = (k: number) => Math.round(breath * k);
    lines.push(`breath 0 ${b(6)} ${b(9)} ${b(9)} ${b(9)} ${b(9)} ${b(6)} ${b(8)}`);
    lines.push("breathw 150 150 200 200 400 400 600 600");
  }
  return lines.filter((l) => l.length > 0).join("\n") + "\n";
}

export function clamp(x: number, lo: number, hi: number): number {
  return Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : lo;
}

export interface VoiceLabels {
  language: string;
  accent?: string;
  gender: Gender | string;
  age: Age | string;
}

/** A reasonable profile for labels; the seed picks deterministic variations so premade voices differ. */
export function profileFromLabels(labels: VoiceLabels, seed: number): VoiceProfile {
  const rand = prng(hashSeed("profile", seed, labels.language, labels.accent ?? "", labels.gender, labels.age));
  const gender: Gender = labels.gender === "male" || labels.gender === "female" ? labels.gender : "neutral";
  const age: Age = labels.age === "young" || labels.age === "old" ? labels.age : "middle_aged";
  const { language, accent } = resolveLanguage(labels.language, labels.accent);
  const rateByAge: Record<Age, number> = { young: 178, middle_aged: 168, old: 152 };
  return {
    language: language.id,
    accent,
    gender,
    age,
    pitch: Math.round(50 + 12 * signed(rand)),
    pitchRange: Math.round(age === "old" ? 40 + 10 * rand() : 50 + 15 * signed(rand)),
    rate: Math.round(rateByAge[age] + 10 * signed(rand)),
    timbre: Math.round(0.5 * signed(rand) * 100) / 100,
    breathiness: age === "old" ? Math.round(rand() * 30) / 100 : Math.round(rand() * 15) / 100,
    seed: seed >>> 0,
  };
}
