import { z } from "zod";

/**
 * Voices, the voice library and collections on the wire (contract §2) and in the specs
 * (voice-creation.md §3, §8, §9; speech-generation.md §3, §5; app-shell.md §5): value sets,
 * limits, the spec's messages and the request schemas. zod only, so the web checks with exactly
 * what the API checks.
 */
export const GENDERS = ["male", "female", "neutral"] as const;
export const AGES = ["young", "middle_aged", "old"] as const;
export const USE_CASES = [
  "narrative_story",
  "conversational",
  "characters_animation",
  "social_media",
  "entertainment_tv",
  "advertisement",
  "informative_educational",
] as const;
/** 33 descriptive tags, "from anxious to wise" (the spec does not show the list; ours). */
export const DESCRIPTIVES = [
  "anxious", "authoritative", "bright", "calm", "casual", "cheerful", "clear", "confident", "crisp", "deep", "dramatic",
  "elegant", "energetic", "expressive", "formal", "friendly", "gentle", "gravelly", "husky", "intense", "mature",
  "playful", "raspy", "relaxed", "sassy", "serious", "smooth", "soft", "soothing", "upbeat", "warm", "whispery", "wise",
] as const;
export const NOTICE_PERIOD_DAYS = [30, 90, 180, 365, 730] as const;
export const LIBRARY_SORT_VALUES = ["trending", "created_date", "cloned_by_count", "usage_character_count_1y"] as const;
export const LIBRARY_CATEGORIES = ["professional", "famous", "high_quality", "generated", "cloned"] as const;
export const VOICE_CATEGORIES = ["premade", "cloned", "generated", "professional", "famous", "high_quality"] as const;
export const VOICE_TYPES = ["personal", "community", "default", "workspace", "non-default", "non-community", "saved"] as const;
export const FINE_TUNING_STATES = ["draft", "not_verified", "not_started", "queued", "fine_tuning", "fine_tuned", "failed", "delayed"] as const;

export const LIBRARY_PAGE_SIZE_DEFAULT = 30;
export const LIBRARY_PAGE_SIZE_MAX = 100;
/** Page numbers read every earlier page: deep pages are refused; use last_sort_id to go on. */
export const LIBRARY_MAX_OFFSET = 10_000;
export const VOICE_NAME_MAX = 100;
export const VOICE_DESCRIPTION_MAX = 500;
export const LABEL_VALUE_MAX = 50;
export const MAX_LABELS = 10;
export const MAX_DESCRIPTIVES = 3;
/** A custom rate multiplies the credit cost of every character spoken with the voice. */
export const RATE_MIN = 0.1;
export const RATE_MAX = 10;
export const COLLECTION_TITLE_MAX = 100;
export const COLLECTION_ICON_MAX = 64;
export const MAX_COLLECTIONS = 100;
export const MAX_VOICES_PER_COLLECTION = 500;
/** Instant clone samples (voice-creation.md §5, §9). */
export const SAMPLE_MAX_BYTES = 10 * 1024 * 1024;
export const SAMPLE_MIN_SECONDS = 5;
export const MAX_SAMPLES = 25;
export const SAMPLES_MAX_TOTAL_SECONDS = 45 * 60;

export const voiceMessages = {
  voiceLimitReached: (n: number) => `Voice limit of ${n} reached`,
  professionalVoiceLimitReached: (n: number) => `Professional voice limit of ${n} reached`,
  paidOnly: "You must be a paid subscriber to use this voice. Please upgrade your subscription to start using it.",
  addFailed: "Failed to add voice to my voices.",
  addErrorToast: "Error Adding Voice!",
  nameRequired: "Please give your voice a name",
  descriptionTooLong: "Description should be less than 500 characters",
  labelValuesRequired: "Please set values for each label",
  tooManySamples: "You can only upload 25 recordings",
  sampleTooShort: (name: string) => `File "${name}" is too short. Please choose a file with at least 5s of audio.`,
  sampleTooLarge: (mb: number) => `File exceeds the ${mb}mb limit.`,
  samplesTooLong: "Recordings must be less than 45 minutes long",
  sampleUnsupported: (name: string) => `File "${name}" is not supported. Please choose an audio file.`,
  sampleDurationUnknown: (name: string) => `The duration of "${name}" could not be determined. Please choose a WAV, MP3, OGG, FLAC or M4A file.`,
  removedFromLibrary: (name: string, when: string) =>
    `The voice ${name} was removed from the Voice Library by its owner and stopped working on ${when}. Please choose another voice.`,
};

/** Similar voices (contract §2, voice-creation.md §7, §8): bounds of the query and its messages. */
export const SIMILAR_TOP_K_DEFAULT = 10;
export const SIMILAR_TOP_K_MAX = 100;
export const SIMILARITY_THRESHOLD_MAX = 2;
/** A clip to search with is a voice reference: the spec bounds those at 20 MB and 300 s. */
export const SIMILAR_AUDIO_MAX_BYTES = 20 * 1024 * 1024;
export const SIMILAR_AUDIO_MAX_SECONDS = 300;

export const similarVoiceMessages = {
  /** voice-creation.md §8: a filter chosen while similar-voice results are shown. */
  filtersReset: "Filters are not supported with similar voice search. The similar voice search was reset.",
  audioRequired: "Please provide an audio file (audio_file) to find similar voices.",
  tooLarge: `File exceeds the ${SIMILAR_AUDIO_MAX_BYTES / 1024 / 1024}mb limit.`,
  tooLong: `The audio is too long: at most ${SIMILAR_AUDIO_MAX_SECONDS} seconds can be compared.`,
  unsupported: (name: string) => `File "${name}" is not supported. Please choose an audio file.`,
  noSpeech: "No speech was found in the audio. Please choose a clip of someone speaking.",
  noAudio: (name: string) => `The voice ${name} has no audio to compare yet.`,
  indexing: "The voice library is still being indexed after the server started, so similar voices cannot be searched yet. Please retry in a minute.",
} as const;

/** POST /v1/similar-voices-by-id (the spec names the path; the body is ours). */
export const SimilarVoicesByIdBody = z.object({
  voice_id: z.string().min(1).max(64),
  similarity_threshold: z.number().min(0).max(SIMILARITY_THRESHOLD_MAX).nullish(),
  top_k: z.number().int().min(1).max(SIMILAR_TOP_K_MAX).nullish(),
});

const nonBlank = (max: number, message: string) =>
  z
    .string()
    .max(max)
    .refine((s) => s.trim().length > 0, message)
    .transform((s) => s.trim());

/** POST /v1/voices/add/{public_user_id}/{voice_id} */
export const AddSharedVoiceBody = z.object({
  new_name: nonBlank(VOICE_NAME_MAX, voiceMessages.nameRequired),
  bookmarked: z.boolean().nullish(),
});

/** Labels as the edit form and the IVC form send them: a JSON object of short strings. */
export const VoiceLabels = z
  .record(z.string().max(LABEL_VALUE_MAX))
  .refine((l) => Object.keys(l).length <= MAX_LABELS, `At most ${MAX_LABELS} labels`)
  .refine((l) => Object.values(l).every((v) => v.trim().length > 0), voiceMessages.labelValuesRequired);

/** POST /v1/voices/{voice_id}/edit (multipart; labels arrive as a JSON string). */
export const EditVoiceFields = z.object({
  name: nonBlank(VOICE_NAME_MAX, voiceMessages.nameRequired),
  description: z.string().max(VOICE_DESCRIPTION_MAX, voiceMessages.descriptionTooLong).nullish(),
  labels: VoiceLabels.nullish(),
  remove_background_noise: z.boolean().default(false),
});

/** POST /v1/voices/{voice_id}/sharing: publish one of your voices to the library (or change how). */
export const PublishVoiceBody = z.object({
  name: nonBlank(VOICE_NAME_MAX, voiceMessages.nameRequired).nullish(),
  description: z.string().max(VOICE_DESCRIPTION_MAX, voiceMessages.descriptionTooLong).nullish(),
  labels: VoiceLabels.nullish(),
  use_case: z.enum(USE_CASES),
  descriptives: z.array(z.enum(DESCRIPTIVES)).min(1).max(MAX_DESCRIPTIVES),
  notice_period: z
    .number()
    .int()
    .refine((d) => (NOTICE_PERIOD_DAYS as readonly number[]).includes(d), `Notice period must be one of ${NOTICE_PERIOD_DAYS.join(", ")} days`),
  rate: z.number().min(RATE_MIN).max(RATE_MAX).multipleOf(0.01).nullish(),
  free_users_allowed: z.boolean().default(true),
  live_moderation_enabled: z.boolean().default(false),
  reader_app_enabled: z.boolean().default(false),
});
export type PublishVoiceBody = z.infer<typeof PublishVoiceBody>;

/** POST /v1/voices/collections */
export const CreateCollectionBody = z.object({
  title: nonBlank(COLLECTION_TITLE_MAX, "Title is required"),
  icon: nonBlank(COLLECTION_ICON_MAX, "Icon is required"),
});

/** PATCH /v1/voices/collections/{collection_id} */
export const UpdateCollectionBody = z.object({
  title: nonBlank(COLLECTION_TITLE_MAX, "Title is required").nullish(),
  icon: nonBlank(COLLECTION_ICON_MAX, "Icon is required").nullish(),
});
