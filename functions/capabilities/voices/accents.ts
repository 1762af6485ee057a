import { LANGUAGES } from "../../media/engine/espeak/voices.js";
import { ENGINE_LANGUAGES, findModel } from "../../platform/domain/models.js";

/**
 * Accents of the voice library (GET /v1/voices/accents): the accents the speech engine speaks in
 * the languages the models offer, with the accent value the shared-voices `accent` filter takes.
 */
export interface VoiceAccent {
  accent: string;
  language: string;
  code: string;
  name: string;
}

const title = (s: string) => s.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");

/** Locales of the accents (BCP 47), for `LibraryVoiceResponse.locale` and the `locale` filter. */
const LOCALES: Record<string, Record<string, string>> = {
  en: { american: "en-US", new_york: "en-US", british: "en-GB", received_pronunciation: "en-GB", scottish: "en-GB", west_midlands: "en-GB", lancaster: "en-GB", caribbean: "en-JM" },
  es: { castilian: "es-ES", standard: "es-ES", latin_american: "es-419", mexican: "es-MX" },
  pt: { brazilian: "pt-BR", european: "pt-PT", standard: "pt-PT" },
  fr: { parisian: "fr-FR", standard: "fr-FR", belgian: "fr-BE", swiss: "fr-CH" },
};
const DEFAULT_REGION: Record<string, string> = { de: "DE", it: "IT", pl: "PL", nl: "NL", sv: "SE", hi: "IN" };

export function localeOf(language: string, accent: string | null): string | null {
  const lang = language.toLowerCase();
  const byAccent = accent ? LOCALES[lang]?.[accent] : undefined;
  if (byAccent) return byAccent;
  return DEFAULT_REGION[lang] ? `${lang}-${DEFAULT_REGION[lang]}` : null;
}

export function libraryAccents(opts: { language?: string; modelId?: string } = {}): VoiceAccent[] {
  const model = opts.modelId ? findModel(opts.modelId) : undefined;
  const offered = new Set((model?.languages ?? ENGINE_LANGUAGES).map((l) => l.language_id));
  const out: VoiceAccent[] = [];
  for (const lang of LANGUAGES) {
    if (!offered.has(lang.id) || (opts.language && opts.language.toLowerCase() !== lang.id)) continue;
    for (const accent of Object.keys(lang.accents)) {
      out.push({ accent, language: lang.id, code: `${lang.id}-${accent}`, name: title(accent) });
    }
  }
  return out;
}
