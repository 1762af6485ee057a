/**
 * The model catalogue. Model ids are the ones clients already use; capability flags tell the
 * truth about what the embedded engine does with each (see README "Models").
 */
export interface LanguageInfo {
  language_id: string;
  name: string;
}

export const ENGINE_LANGUAGES: LanguageInfo[] = [
  { language_id: "en", name: "English" },
  { language_id: "de", name: "German" },
  { language_id: "fr", name: "French" },
  { language_id: "es", name: "Spanish" },
  { language_id: "it", name: "Italian" },
  { language_id: "pt", name: "Portuguese" },
  { language_id: "pl", name: "Polish" },
  { language_id: "nl", name: "Dutch" },
  { language_id: "sv", name: "Swedish" },
  { language_id: "hi", name: "Hindi" },
];

export interface ModelInfo {
  model_id: string;
  name: string;
  description: string;
  can_be_finetuned: boolean;
  can_do_text_to_speech: boolean;
  can_do_voice_conversion: boolean;
  can_use_style: boolean;
  can_use_speaker_boost: boolean;
  serves_pro_voices: boolean;
  requires_alpha_access: boolean;
  maximum_text_length_per_request: number;
  character_cost_multiplier: number;
  languages: LanguageInfo[];
  concurrency_group: "standard" | "turbo";
  /** How the embedded engine treats the model. */
  engine: { quality: "standard" | "fast"; supportsPhonemes: boolean; legacy: boolean; audioTags?: boolean };
}

const english = ENGINE_LANGUAGES.filter((l) => l.language_id === "en");

function model(m: Omit<ModelInfo, "description"> & { description?: string }): ModelInfo {
  return { description: m.description ?? m.name, ...m };
}

export const MODELS: ModelInfo[] = [
  model({
    model_id: "eleven_multilingual_v2", name: "Eleven Multilingual v2",
    description: "Most life-like, emotionally rich model; full-rate synthesis with prosody smoothing.",
    can_be_finetuned: true, can_do_text_to_speech: true, can_do_voice_conversion: false, can_use_style: true,
    can_use_speaker_boost: true, serves_pro_voices: true, requires_alpha_access: false,
    maximum_text_length_per_request: 10_000, character_cost_multiplier: 1, languages: ENGINE_LANGUAGES,
    concurrency_group: "standard", engine: { quality: "standard", supportsPhonemes: false, legacy: false },
  }),
  model({
    model_id: "eleven_v3", name: "Eleven v3",
    description: "Most expressive model: wider pitch range and dialogue support.",
    can_be_finetuned: false, can_do_text_to_speech: true, can_do_voice_conversion: false, can_use_style: true,
    can_use_speaker_boost: true, serves_pro_voices: false, requires_alpha_access: false,
    maximum_text_length_per_request: 5_000, character_cost_multiplier: 1, languages: ENGINE_LANGUAGES,
    concurrency_group: "standard", engine: { quality: "standard", supportsPhonemes: false, legacy: false, audioTags: true },
  }),
  model({
    model_id: "eleven_flash_v2_5", name: "Eleven Flash v2.5",
    description: "Ultra-low latency: a faster, lower-sample-rate synthesis path at half the cost.",
    can_be_finetuned: true, can_do_text_to_speech: true, can_do_voice_conversion: false, can_use_style: false,
    can_use_speaker_boost: false, serves_pro_voices: true, requires_alpha_access: false,
    maximum_text_length_per_request: 40_000, character_cost_multiplier: 0.5, languages: ENGINE_LANGUAGES,
    concurrency_group: "turbo", engine: { quality: "fast", supportsPhonemes: false, legacy: false },
  }),
  model({
    model_id: "eleven_turbo_v2_5", name: "Eleven Turbo v2.5",
    description: "Balance of quality and speed at half the cost.",
    can_be_finetuned: true, can_do_text_to_speech: true, can_do_voice_conversion: false, can_use_style: false,
    can_use_speaker_boost: true, serves_pro_voices: true, requires_alpha_access: false,
    maximum_text_length_per_request: 40_000, character_cost_multiplier: 0.5, languages: ENGINE_LANGUAGES,
    concurrency_group: "turbo", engine: { quality: "fast", supportsPhonemes: false, legacy: false },
  }),
  model({
    model_id: "eleven_flash_v2", name: "Eleven Flash v2",
    description: "English-only low-latency model; supports phoneme pronunciation rules.",
    can_be_finetuned: true, can_do_text_to_speech: true, can_do_voice_conversion: false, can_use_style: false,
    can_use_speaker_boost: false, serves_pro_voices: true, requires_alpha_access: false,
    maximum_text_length_per_request: 30_000, character_cost_multiplier: 0.5, languages: english,
    concurrency_group: "turbo", engine: { quality: "fast", supportsPhonemes: true, legacy: false },
  }),
  model({
    model_id: "eleven_turbo_v2", name: "Eleven Turbo v2",
    description: "English-only balanced model; supports phoneme pronunciation rules.",
    can_be_finetuned: true, can_do_text_to_speech: true, can_do_voice_conversion: false, can_use_style: false,
    can_use_speaker_boost: true, serves_pro_voices: true, requires_alpha_access: false,
    maximum_text_length_per_request: 30_000, character_cost_multiplier: 0.5, languages: english,
    concurrency_group: "turbo", engine: { quality: "fast", supportsPhonemes: true, legacy: false },
  }),
  model({
    model_id: "eleven_monolingual_v1", name: "Eleven English v1",
    description: "Legacy English-only model; supports phoneme pronunciation rules.",
    can_be_finetuned: true, can_do_text_to_speech: true, can_do_voice_conversion: false, can_use_style: false,
    can_use_speaker_boost: true, serves_pro_voices: false, requires_alpha_access: false,
    maximum_text_length_per_request: 10_000, character_cost_multiplier: 1, languages: english,
    concurrency_group: "standard", engine: { quality: "standard", supportsPhonemes: true, legacy: true },
  }),
  model({
    model_id: "eleven_multilingual_v1", name: "Eleven Multilingual v1",
    description: "Legacy multilingual model.",
    can_be_finetuned: false, can_do_text_to_speech: true, can_do_voice_conversion: false, can_use_style: false,
    can_use_speaker_boost: true, serves_pro_voices: false, requires_alpha_access: false,
    maximum_text_length_per_request: 10_000, character_cost_multiplier: 1, languages: ENGINE_LANGUAGES,
    concurrency_group: "standard", engine: { quality: "standard", supportsPhonemes: false, legacy: true },
  }),
  // The two remaining ids the app shell knows (app-shell.md §4): legacy text-to-speech models,
  // served so saved settings and scripts that name them keep working.
  model({
    model_id: "eleven_v2", name: "Eleven v2",
    description: "Legacy multilingual model of the second generation.",
    can_be_finetuned: false, can_do_text_to_speech: true, can_do_voice_conversion: false, can_use_style: true,
    can_use_speaker_boost: true, serves_pro_voices: false, requires_alpha_access: false,
    maximum_text_length_per_request: 10_000, character_cost_multiplier: 1, languages: ENGINE_LANGUAGES,
    concurrency_group: "standard", engine: { quality: "standard", supportsPhonemes: false, legacy: true },
  }),
  model({
    model_id: "eleven_english_v2", name: "Eleven English v2",
    description: "Legacy English-only model of the second generation; supports phoneme pronunciation rules.",
    can_be_finetuned: false, can_do_text_to_speech: true, can_do_voice_conversion: false, can_use_style: true,
    can_use_speaker_boost: true, serves_pro_voices: false, requires_alpha_access: false,
    maximum_text_length_per_request: 10_000, character_cost_multiplier: 1, languages: english,
    concurrency_group: "standard", engine: { quality: "standard", supportsPhonemes: true, legacy: true },
  }),
  model({
    model_id: "eleven_multilingual_sts_v2", name: "Eleven Multilingual v2 (speech to speech)",
    description: "Voice conversion into any voice, multilingual.",
    can_be_finetuned: true, can_do_text_to_speech: false, can_do_voice_conversion: true, can_use_style: true,
    can_use_speaker_boost: true, serves_pro_voices: true, requires_alpha_access: false,
    maximum_text_length_per_request: 10_000, character_cost_multiplier: 1, languages: ENGINE_LANGUAGES,
    concurrency_group: "standard", engine: { quality: "standard", supportsPhonemes: false, legacy: false },
  }),
  model({
    model_id: "eleven_english_sts_v2", name: "Eleven English v2 (speech to speech)",
    description: "Voice conversion into any voice, English.",
    can_be_finetuned: true, can_do_text_to_speech: false, can_do_voice_conversion: true, can_use_style: true,
    can_use_speaker_boost: true, serves_pro_voices: true, requires_alpha_access: false,
    maximum_text_length_per_request: 10_000, character_cost_multiplier: 1, languages: english,
    concurrency_group: "standard", engine: { quality: "standard", supportsPhonemes: false, legacy: false },
  }),
];

export const DEFAULT_TTS_MODEL_ID = "eleven_multilingual_v2";

export function findModel(id: string): ModelInfo | undefined {
  return MODELS.find((m) => m.model_id === id);
}
