import { createHash } from "node:crypto";
import { blankFineTuning, blankVerification, type StoredVoiceProfile, type VoiceRecord } from "../stores/voices.js";

/**
 * The premade voices every workspace sees. Ids are derived from the names so they are the
 * same on every installation (scripts and saved settings keep working across installs).
 */
interface PremadeSpec {
  name: string;
  description: string;
  labels: { language: string; accent: string; gender: "male" | "female"; age: "young" | "middle_aged" | "old"; descriptive: string; use_case: string };
  /** eSpeak-scale pitch 0..100, range 0..100, words per minute, spectral tilt -1..1 */
  voice: [pitch: number, range: number, rate: number, timbre: number];
  /**
   * English voices speak with flite (issue 25: far fewer word errors than eSpeak, measured in
   * functions/media/engine/README.md): its base voice. Pitch, range, rate and timbre are the same
   * numbers on both engines (the profile is engine-neutral).
   */
  flite?: { base: "slt" | "rms" | "awb" | "kal16" };
}

const P = (
  name: string,
  language: string,
  accent: string,
  gender: "male" | "female",
  age: "young" | "middle_aged" | "old",
  descriptive: string,
  use_case: string,
  voice: PremadeSpec["voice"],
  description: string,
): PremadeSpec => ({ name, description, labels: { language, accent, gender, age, descriptive, use_case }, voice });

/** Premade English voices on flite: several share a base, told apart by pitch, rate and timbre. */
const FLITE_BASES: Record<string, NonNullable<PremadeSpec["flite"]>> = {
  Avery: { base: "slt" },
  Marcus: { base: "rms" },
  Harriet: { base: "slt" },
  Oliver: { base: "awb" },
  Fiona: { base: "slt" },
  Desmond: { base: "kal16" },
  Riley: { base: "slt" },
};

export const PREMADE_VOICES: PremadeSpec[] = [
  P("Avery", "en", "american", "female", "young", "warm", "narrative_story", [62, 55, 170, 0.1], "A warm, bright American voice for audiobooks and stories."),
  P("Marcus", "en", "american", "male", "middle_aged", "deep", "informative_educational", [32, 40, 160, -0.4], "A deep, steady American narrator for explainers and documentaries."),
  P("Harriet", "en", "british", "female", "old", "calm", "narrative_story", [55, 45, 150, -0.1], "A calm, measured British storyteller."),
  P("Oliver", "en", "british", "male", "young", "friendly", "conversational", [45, 60, 175, 0.2], "A friendly young British voice for conversation and assistants."),
  P("Fiona", "en", "scottish", "female", "middle_aged", "confident", "social_media", [58, 60, 172, 0.15], "A confident Scottish voice with energy for social content."),
  P("Desmond", "en", "caribbean", "male", "old", "gravelly", "characters_animation", [28, 65, 145, -0.5], "A gravelly, characterful Caribbean voice."),
  P("Riley", "en", "american", "female", "young", "casual", "conversational", [50, 55, 180, 0], "A casual, androgynous American voice for chat and games."),
  P("Lena", "de", "standard", "female", "young", "clear", "informative_educational", [60, 50, 165, 0.1], "Eine klare junge Stimme für Erklärvideos."),
  P("Klaus", "de", "standard", "male", "old", "authoritative", "narrative_story", [30, 40, 145, -0.4], "Eine ruhige, tiefe Erzählerstimme."),
  P("Jonas", "de", "standard", "male", "middle_aged", "upbeat", "advertisement", [42, 65, 175, 0.1], "Eine lebhafte Stimme für Werbung."),
  P("Camille", "fr", "parisian", "female", "middle_aged", "elegant", "narrative_story", [57, 50, 160, 0], "Une voix élégante pour la narration."),
  P("Louis", "fr", "parisian", "male", "young", "playful", "characters_animation", [46, 70, 180, 0.25], "Une voix jeune et joueuse pour l'animation."),
  P("Margaux", "fr", "belgian", "female", "old", "gentle", "informative_educational", [54, 40, 150, -0.1], "Une voix douce et posée."),
  P("Lucía", "es", "castilian", "female", "young", "bright", "social_media", [63, 60, 175, 0.2], "Una voz brillante y cercana."),
  P("Mateo", "es", "latin_american", "male", "middle_aged", "warm", "conversational", [38, 50, 165, -0.2], "Una voz cálida para conversación."),
  P("Carmen", "es", "castilian", "female", "old", "wise", "narrative_story", [50, 45, 145, -0.2], "Una voz sabia para cuentos."),
  P("Giulia", "it", "standard", "female", "young", "expressive", "entertainment_tv", [61, 70, 175, 0.15], "Una voce espressiva per l'intrattenimento."),
  P("Marco", "it", "standard", "male", "middle_aged", "smooth", "advertisement", [40, 50, 160, -0.1], "Una voce morbida per la pubblicità."),
  P("Enzo", "it", "standard", "male", "old", "raspy", "characters_animation", [30, 55, 140, -0.5], "Una voce roca e caratteristica."),
  P("Beatriz", "pt", "brazilian", "female", "middle_aged", "friendly", "conversational", [58, 55, 170, 0.05], "Uma voz simpática e natural."),
  P("Tiago", "pt", "european", "male", "young", "energetic", "social_media", [44, 65, 180, 0.2], "Uma voz jovem e enérgica."),
  P("Zofia", "pl", "standard", "female", "young", "soft", "narrative_story", [60, 45, 160, 0], "Miękki, spokojny głos do narracji."),
  P("Piotr", "pl", "standard", "male", "middle_aged", "confident", "informative_educational", [36, 45, 160, -0.3], "Pewny siebie głos do materiałów edukacyjnych."),
  P("Sanne", "nl", "standard", "female", "middle_aged", "clear", "informative_educational", [56, 50, 165, 0.05], "Een heldere stem voor uitleg."),
  P("Daan", "nl", "standard", "male", "young", "casual", "conversational", [45, 55, 175, 0.1], "Een ontspannen jonge stem."),
  P("Ananya", "hi", "standard", "female", "young", "cheerful", "entertainment_tv", [64, 60, 165, 0.15], "एक प्रसन्न, युवा आवाज़।"),
  P("Arjun", "hi", "standard", "male", "middle_aged", "calm", "narrative_story", [38, 45, 155, -0.2], "एक शांत कथावाचक आवाज़।"),
  P("Elsa", "sv", "standard", "female", "old", "soothing", "narrative_story", [52, 40, 145, -0.1], "En lugn och mjuk berättarröst."),
].map((spec) => (FLITE_BASES[spec.name] ? { ...spec, flite: FLITE_BASES[spec.name] } : spec));

export function premadeVoiceId(name: string): string {
  const digest = createHash("sha256").update(`timbre-premade:${name}`).digest();
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return Array.from(digest.subarray(0, 20), (b) => alphabet[b % 62]).join("");
}

const SEED_EPOCH = 1_735_689_600; // 2025-01-01: premade voices predate every workspace

export function premadeVoiceRecords(): VoiceRecord[] {
  return PREMADE_VOICES.map((spec, i) => {
    const [pitch, pitchRange, rate, timbre] = spec.voice;
    const gender = spec.name === "Riley" ? "neutral" : spec.labels.gender;
    const profile: StoredVoiceProfile = {
      language: spec.labels.language,
      accent: spec.labels.accent,
      gender,
      age: spec.labels.age,
      pitch,
      pitchRange,
      rate,
      timbre,
      seed: parseInt(createHash("sha256").update(spec.name).digest("hex").slice(0, 8), 16) % 1_000_000,
      ...(spec.flite ? { engine: "flite" as const, engineVoice: spec.flite.base } : {}),
    };
    return {
      voice_id: premadeVoiceId(spec.name),
      workspace_id: null,
      owner_user_id: null,
      name: spec.name,
      description: spec.description,
      category: "premade",
      labels: { ...spec.labels, gender },
      created_at_unix: SEED_EPOCH + i,
      profile,
      ...systemVoiceFields(spec.labels.language),
    };
  });
}

/** The fields every voice the system provides (premade, Piper, remote) shares: unversioned, unshared, no samples. */
export function systemVoiceFields(language: string) {
  return {
    version: 1,
    settings: null,
    preview_object_key: null,
    samples: [],
    is_legacy: false,
    high_quality_base_model_ids: ["eleven_multilingual_v2", "eleven_flash_v2_5", "eleven_turbo_v2_5", "eleven_v3"],
    available_for_tiers: [],
    fine_tuning: blankFineTuning(language),
    verification: blankVerification(language),
    sharing: null,
    safety_control: null,
    is_mixed: false,
    engine_refs: {},
  } satisfies Partial<VoiceRecord>;
}
