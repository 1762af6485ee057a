import { z } from "zod";
import { maxChars } from "./text.js";
import { VoiceSettingsInput } from "../domain/voiceSettings.js";
import { OUTPUT_FORMATS, STREAMING_OUTPUT_FORMATS } from "../../media/audio/formats.js";
import { q } from "../http/validate.js";

/** Request shapes of the text-to-speech and text-to-dialogue endpoints (contract §4, §5). */
export const PronunciationDictionaryLocator = z.object({
  pronunciation_dictionary_id: z.string().min(1).max(64),
  version_id: z.string().max(64).nullish(),
});

const seed = z.number().int().min(0).max(4_294_967_295).nullish();
const requestIds = z.array(z.string().max(64)).max(3).nullish();
const normalization = z.enum(["auto", "on", "off"]).nullish();
const languageCode = z.string().regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/, "Language code must be ISO 639-1 (e.g. 'en')").nullish();

export const TextToSpeechBody = z.object({
  text: z.string({ required_error: "Field required" }).max(100_000),
  model_id: z.string().max(64).nullish(),
  language_code: languageCode,
  voice_settings: VoiceSettingsInput.nullish(),
  pronunciation_dictionary_locators: z.array(PronunciationDictionaryLocator).max(3, "You may have up to 3 pronunciation dictionary locators per request").nullish(),
  seed,
  previous_text: z.string().max(10_000).nullish(),
  next_text: z.string().max(10_000).nullish(),
  previous_request_ids: requestIds,
  next_request_ids: requestIds,
  use_pvc_as_ivc: z.boolean().nullish(),
  apply_text_normalization: normalization,
  apply_language_text_normalization: z.boolean().nullish(),
  audio_effects: z.unknown().nullish(),
});
export type TextToSpeechBody = z.infer<typeof TextToSpeechBody>;

export const DialogueBody = z.object({
  inputs: z
    .array(z.object({ text: z.string().max(100_000), voice_id: z.string().min(1).max(64) }))
    .min(1, "Provide at least one dialogue input")
    .refine((inputs) => new Set(inputs.map((i) => i.voice_id)).size <= 10, "A dialogue can use at most 10 different voices"),
  model_id: z.string().max(64).nullish(),
  language_code: languageCode,
  settings: z.object({ stability: z.number().min(0).max(1).nullish(), similarity: z.number().min(0).max(1).nullish(), volume: VoiceSettingsInput.shape.volume }).nullish(),
  pronunciation_dictionary_locators: z.array(PronunciationDictionaryLocator).max(3, "You may have up to 3 pronunciation dictionary locators per request").nullish(),
  seed,
  previous_text: maxChars(100, "A maximum of 100 characters can be sent").nullish(),
  future_text: maxChars(100, "A maximum of 100 characters can be sent").nullish(),
  previous_request_ids: requestIds,
  next_request_ids: requestIds,
  use_pvc_as_ivc: z.boolean().nullish(),
  apply_text_normalization: normalization,
  audio_effects: z.unknown().nullish(),
});
export type DialogueBody = z.infer<typeof DialogueBody>;

export const SpeechQuery = (streaming: boolean) =>
  z.object({
    output_format: z.enum((streaming ? STREAMING_OUTPUT_FORMATS : OUTPUT_FORMATS) as unknown as [string, ...string[]]).default("mp3_44100_128"),
    enable_logging: q.bool().default(true),
    optimize_streaming_latency: z.coerce.number().int().min(0).max(4).nullish(),
  });
