import { createHash } from "node:crypto";
import type { AppContext } from "../../platform/context.js";
import { blankFineTuning, blankVerification, type StoredVoiceProfile, type VoiceRecord } from "../../platform/stores/voices.js";
import type { LibraryListing } from "../../platform/stores/library.js";
import type { PublishVoiceBody } from "../../platform/contract/voices.js";
import { listingFields, publishedListing } from "./library.js";
import { updateListing } from "./listings.js";
import { makePreview } from "./previews.js";
import { publicOwnerId } from "./records.js";
import { embedMissingListings } from "./similar.js";
import { yieldToInteractive } from "../speech/slots.js";

/**
 * The voices a fresh install's library starts with: published by the "Timbre Community" account,
 * made by the project from engine profiles (no recordings of anyone). They are ordinary listings:
 * their counters start at zero and count real adds and use. Ids are derived from the names, so
 * they are the same on every installation.
 */
export const COMMUNITY_WORKSPACE_ID = "timbre-community";
export const COMMUNITY_USER_ID = "timbre-community";
export const COMMUNITY_OWNER_NAME = "Timbre Community";
export const COMMUNITY_PUBLIC_OWNER_ID = publicOwnerId(COMMUNITY_USER_ID);
const PUBLISHED_AT = 1_767_225_600; // 2026-01-01
const HQ_MODELS = ["eleven_multilingual_v2", "eleven_flash_v2_5", "eleven_turbo_v2_5", "eleven_v3"];

type Gender = "male" | "female" | "neutral";
type Age = "young" | "middle_aged" | "old";
interface CommunitySpec {
  name: string;
  language: string;
  accent: string;
  gender: Gender;
  age: Age;
  use_case: PublishVoiceBody["use_case"];
  descriptives: PublishVoiceBody["descriptives"];
  /** eSpeak-scale pitch 0..100, range 0..100, words per minute, timbre -1..1, breathiness 0..1 */
  voice: [pitch: number, range: number, rate: number, timbre: number, breathiness?: number];
  description: string;
  featured?: boolean;
}

const C = (
  name: string,
  language: string,
  accent: string,
  gender: Gender,
  age: Age,
  use_case: CommunitySpec["use_case"],
  descriptives: CommunitySpec["descriptives"],
  voice: CommunitySpec["voice"],
  description: string,
  featured = false,
): CommunitySpec => ({ name, language, accent, gender, age, use_case, descriptives, voice, description, featured });

export const COMMUNITY_VOICES: CommunitySpec[] = [
  C("Nora", "en", "american", "female", "young", "conversational", ["friendly", "bright"], [64, 58, 178, 0.2], "A bright, friendly voice for assistants and support lines.", true),
  C("Theodore", "en", "british", "male", "old", "narrative_story", ["wise", "deep"], [26, 38, 142, -0.5], "An unhurried British grandfather reading by the fire."),
  C("Jasmine", "en", "american", "female", "middle_aged", "advertisement", ["confident", "smooth"], [56, 52, 168, 0.05], "A smooth, assured voice for commercials and brand films.", true),
  C("Vinnie", "en", "new_york", "male", "middle_aged", "entertainment_tv", ["energetic", "sassy"], [44, 70, 185, 0.1], "A fast-talking New Yorker for game shows and comedy."),
  C("Imogen", "en", "received_pronunciation", "female", "middle_aged", "informative_educational", ["formal", "crisp"], [58, 45, 160, 0], "Crisp Received Pronunciation for lectures and museum guides."),
  C("Rowan", "en", "scottish", "neutral", "young", "characters_animation", ["playful", "expressive"], [52, 72, 182, 0.25], "A lively, androgynous Scottish voice for animated characters."),
  C("Ezekiel", "en", "caribbean", "male", "young", "social_media", ["relaxed", "warm"], [40, 60, 170, -0.1], "A relaxed, warm Caribbean voice for short videos."),
  C("Margaret", "en", "west_midlands", "female", "old", "narrative_story", ["gentle", "soothing"], [50, 40, 140, -0.2], "A gentle Midlands storyteller for bedtime tales."),
  C("Dex", "en", "american", "male", "young", "characters_animation", ["gravelly", "intense"], [30, 65, 175, -0.45], "A gravelly, intense voice for villains and action heroes."),
  C("Quinn", "en", "american", "neutral", "middle_aged", "informative_educational", ["calm", "clear"], [50, 45, 162, 0], "A calm, clear, gender-neutral explainer voice."),
  C("Bartholomew", "en", "lancaster", "male", "old", "entertainment_tv", ["raspy", "serious"], [28, 50, 148, -0.35], "A raspy northern English voice with gravitas."),
  C("Sadie", "en", "british", "female", "young", "social_media", ["cheerful", "upbeat"], [66, 68, 185, 0.25], "A cheerful, upbeat British voice for social clips.", true),
  C("Anxious Alfie", "en", "british", "male", "young", "characters_animation", ["anxious", "whispery"], [54, 75, 190, 0.3, 0.3], "A nervous, breathy young character voice."),
  C("Greta", "de", "standard", "female", "old", "narrative_story", ["warm", "gentle"], [52, 42, 142, -0.1], "Eine warme, ruhige Erzählerin für Märchen und Hörbücher."),
  C("Felix", "de", "standard", "male", "young", "social_media", ["energetic", "casual"], [46, 65, 182, 0.15], "Eine junge, lockere Stimme für Social Media."),
  C("Mira", "de", "standard", "female", "middle_aged", "advertisement", ["elegant", "confident"], [58, 50, 165, 0.05], "Eine elegante, selbstbewusste Werbestimme."),
  C("Anton", "de", "standard", "male", "middle_aged", "informative_educational", ["authoritative", "deep"], [33, 42, 155, -0.35], "Eine tiefe, souveräne Stimme für Dokumentationen.", true),
  C("Élodie", "fr", "parisian", "female", "young", "conversational", ["soft", "friendly"], [62, 55, 172, 0.1], "Une voix douce et chaleureuse pour les assistants."),
  C("Bastien", "fr", "belgian", "male", "middle_aged", "entertainment_tv", ["expressive", "playful"], [44, 72, 178, 0.05], "Une voix belge expressive pour le divertissement."),
  C("Colette", "fr", "swiss", "female", "old", "informative_educational", ["calm", "wise"], [52, 40, 145, -0.15], "Une voix suisse posée pour la formation."),
  C("Mathis", "fr", "parisian", "male", "young", "advertisement", ["smooth", "confident"], [42, 52, 170, -0.05], "Une voix jeune et assurée pour la publicité."),
  C("Valentina", "es", "latin_american", "female", "young", "social_media", ["upbeat", "bright"], [65, 66, 182, 0.2], "Una voz latina alegre para redes sociales.", true),
  C("Javier", "es", "castilian", "male", "middle_aged", "narrative_story", ["deep", "mature"], [32, 45, 152, -0.35], "Una voz castellana profunda para audiolibros."),
  C("Ximena", "es", "mexican", "female", "middle_aged", "conversational", ["warm", "friendly"], [58, 55, 168, 0.05], "Una voz mexicana cálida para atención al cliente."),
  C("Andrés", "es", "latin_american", "male", "old", "characters_animation", ["raspy", "dramatic"], [28, 62, 150, -0.45], "Una voz rasposa y dramática para personajes."),
  C("Paz", "es", "castilian", "neutral", "young", "informative_educational", ["clear", "relaxed"], [52, 50, 170, 0.05], "Una voz neutra y clara para tutoriales."),
  C("Chiara", "it", "standard", "female", "middle_aged", "narrative_story", ["elegant", "soothing"], [57, 48, 155, 0], "Una voce elegante e rilassante per la narrazione.", true),
  C("Lorenzo", "it", "standard", "male", "young", "entertainment_tv", ["energetic", "expressive"], [45, 72, 185, 0.15], "Una voce giovane ed energica per lo spettacolo."),
  C("Bruno", "it", "standard", "male", "old", "advertisement", ["husky", "warm"], [30, 48, 148, -0.4], "Una voce roca e calda per spot d'atmosfera."),
  C("Sofia", "it", "standard", "female", "young", "characters_animation", ["playful", "cheerful"], [66, 70, 180, 0.25], "Una voce allegra per personaggi animati."),
  C("Gabriela", "pt", "brazilian", "female", "young", "social_media", ["sassy", "energetic"], [64, 68, 184, 0.2], "Uma voz brasileira cheia de energia.", true),
  C("Rafael", "pt", "brazilian", "male", "middle_aged", "conversational", ["relaxed", "smooth"], [40, 52, 166, -0.1], "Uma voz tranquila para conversas e podcasts."),
  C("Inês", "pt", "european", "female", "old", "narrative_story", ["gentle", "wise"], [52, 42, 142, -0.15], "Uma voz europeia serena para contar histórias."),
  C("Duarte", "pt", "european", "male", "young", "informative_educational", ["crisp", "clear"], [46, 50, 172, 0.05], "Uma voz nítida para explicações."),
  C("Hanna", "pl", "standard", "female", "middle_aged", "advertisement", ["confident", "bright"], [59, 56, 170, 0.1], "Pewny siebie, jasny głos reklamowy."),
  C("Kacper", "pl", "standard", "male", "young", "characters_animation", ["playful", "intense"], [46, 70, 182, 0.15], "Żywiołowy głos do gier i animacji."),
  C("Wiesław", "pl", "standard", "male", "old", "narrative_story", ["deep", "calm"], [29, 40, 142, -0.4], "Głęboki, spokojny głos lektora."),
  C("Fleur", "nl", "standard", "female", "young", "conversational", ["casual", "cheerful"], [63, 60, 180, 0.2], "Een vrolijke, ontspannen stem voor gesprekken."),
  C("Joris", "nl", "standard", "male", "middle_aged", "informative_educational", ["serious", "formal"], [36, 42, 158, -0.25], "Een serieuze stem voor uitleg en nieuws."),
  C("Noor", "nl", "standard", "neutral", "old", "narrative_story", ["soft", "soothing"], [48, 40, 144, -0.1], "Een zachte, rustgevende vertelstem."),
  C("Astrid", "sv", "standard", "female", "middle_aged", "informative_educational", ["clear", "calm"], [57, 46, 160, 0], "En klar och lugn röst för utbildning.", true),
  C("Viktor", "sv", "standard", "male", "young", "entertainment_tv", ["upbeat", "casual"], [45, 64, 180, 0.1], "En glad och avslappnad röst för underhållning."),
  C("Ingrid", "sv", "standard", "female", "old", "characters_animation", ["whispery", "gentle"], [54, 45, 140, -0.05, 0.35], "En viskande, mild röst för sagofigurer."),
  C("Kavya", "hi", "standard", "female", "young", "social_media", ["bright", "cheerful"], [65, 62, 170, 0.2], "सोशल मीडिया के लिए एक चमकदार, खुशमिज़ाज आवाज़।"),
  C("Rohan", "hi", "standard", "male", "middle_aged", "informative_educational", ["confident", "clear"], [38, 46, 158, -0.2], "व्याख्या के लिए एक आत्मविश्वासी, स्पष्ट आवाज़।"),
  C("Meera", "hi", "standard", "female", "old", "narrative_story", ["wise", "soothing"], [52, 42, 142, -0.15], "कहानियों के लिए एक शांत, समझदार आवाज़।"),
];

export function communityVoiceId(name: string): string {
  const digest = createHash("sha256").update(`timbre-community:${name}`).digest();
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return Array.from(digest.subarray(0, 20), (b) => alphabet[b % 62]).join("");
}

export function communityVoiceRecords(): VoiceRecord[] {
  return COMMUNITY_VOICES.map((spec, i) => {
    const [pitch, pitchRange, rate, timbre, breathiness] = spec.voice;
    const profile: StoredVoiceProfile = {
      language: spec.language,
      accent: spec.accent,
      gender: spec.gender,
      age: spec.age,
      pitch,
      pitchRange,
      rate,
      timbre,
      ...(breathiness !== undefined ? { breathiness } : {}),
      seed: parseInt(createHash("sha256").update(`community:${spec.name}`).digest("hex").slice(0, 8), 16) % 1_000_000,
    };
    return {
      voice_id: communityVoiceId(spec.name),
      workspace_id: COMMUNITY_WORKSPACE_ID,
      owner_user_id: COMMUNITY_USER_ID,
      name: spec.name,
      description: spec.description,
      category: "generated",
      labels: { language: spec.language, accent: spec.accent, gender: spec.gender, age: spec.age, descriptive: spec.descriptives[0], use_case: spec.use_case },
      created_at_unix: PUBLISHED_AT + i,
      profile,
      version: 1,
      settings: null,
      preview_object_key: null,
      samples: [],
      is_legacy: false,
      high_quality_base_model_ids: HQ_MODELS,
      available_for_tiers: [],
      fine_tuning: blankFineTuning(spec.language),
      verification: blankVerification(spec.language),
      sharing: { public_owner_id: COMMUNITY_PUBLIC_OWNER_ID, original_voice_id: null, date_unix: PUBLISHED_AT + i, bookmarked: false },
      safety_control: null,
      is_mixed: false,
      engine_refs: {},
    };
  });
}

const OWNER = { workspaceId: COMMUNITY_WORKSPACE_ID, userId: COMMUNITY_USER_ID, publicOwnerId: COMMUNITY_PUBLIC_OWNER_ID, name: COMMUNITY_OWNER_NAME, madeByTimbre: true };

/** JSON with object keys sorted: DynamoDB returns map attributes in no particular order. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

/** What seeding decides on: everything but counters, dates and revisions. */
const seedShape = (l: Omit<LibraryListing, "rev">) =>
  stable([l.name, l.description, l.category, l.language, l.accent, l.locale, l.gender, l.age, l.use_case, l.descriptives, l.labels, l.profile, l.high_quality_base_model_ids, l.rate, l.notice_period, l.free_users_allowed, l.live_moderation_enabled, l.reader_app_enabled, l.featured, l.status, l.preview_object_key]);

/**
 * Writes the community voices and their listings; an existing listing keeps its counters, and a
 * voice whose profile is unchanged keeps its preview. Fast when nothing changed (reads only).
 */
export async function seedCommunityLibrary(ctx: AppContext): Promise<void> {
  const existing = new Map((await ctx.stores.voices.ofWorkspace(COMMUNITY_WORKSPACE_ID)).map((v) => [v.voice_id, v]));
  const listings = await ctx.stores.library.listings(COMMUNITY_VOICES.map((s) => communityVoiceId(s.name)));
  const records = communityVoiceRecords();
  await Promise.all(
    COMMUNITY_VOICES.map(async (spec, i) => {
      const fresh = records[i];
      const old = existing.get(fresh.voice_id);
      const preview = old && stable(old.profile) === stable(fresh.profile) ? old.preview_object_key : null;
      // A changed profile is a new version of the voice (history replays the exact one).
      const version = old ? old.version + (stable(old.profile) === stable(fresh.profile) ? 0 : 1) : 1;
      const record = { ...fresh, preview_object_key: preview, version };
      if (!old || stable(old) !== stable(record)) await ctx.stores.voices.put(record);
      const fields = listingFields(record, {
        use_case: spec.use_case,
        descriptives: spec.descriptives,
        notice_period: 730,
        rate: null,
        free_users_allowed: true,
        live_moderation_enabled: false,
        reader_app_enabled: false,
      });
      const current = listings.get(record.voice_id);
      const next = publishedListing(fields, OWNER, record.voice_id, preview, record.created_at_unix, current, spec.featured ?? false);
      if (current && seedShape(current) === seedShape(next)) return;
      await updateListing(ctx, record.voice_id, (now) => publishedListing(fields, OWNER, record.voice_id, preview, record.created_at_unix, now, spec.featured ?? false));
    }),
  );
}

/** Synthesises the previews the community voices lack (in the background at start-up). */
export async function generateCommunityPreviews(ctx: AppContext, signal?: AbortSignal): Promise<number> {
  const missing = (await ctx.stores.voices.ofWorkspace(COMMUNITY_WORKSPACE_ID)).filter((v) => !v.preview_object_key);
  let made = 0;
  for (const v of missing) {
    await yieldToInteractive(ctx, signal);
    if (signal?.aborted) break;
    const key = await makePreview(ctx, v, signal, { background: true });
    await ctx.stores.voices.patch(COMMUNITY_WORKSPACE_ID, v.voice_id, { preview_object_key: key });
    await updateListing(ctx, v.voice_id, (current) => (current ? { ...current, preview_object_key: key } : null));
    made++;
  }
  // Similar-voice search: every listed voice with a preview gets its embedding (on the analyzer's workers).
  if (!signal?.aborted) await embedMissingListings(ctx, signal);
  return made;
}
