import { z } from "zod";

/**
 * The /v1 shapes the Text to Speech page reads (only the fields it uses), shared by the route's
 * loader on the server and the page's own calls in the browser.
 */
export const VoiceSettingsWire = z.object({
  stability: z.number(),
  similarity_boost: z.number(),
  style: z.number(),
  use_speaker_boost: z.boolean(),
  speed: z.number(),
  /** Output gain in dB (docs/decisions/2026-11-29-volume-in-voice-settings.md); absent is 0. */
  volume: z.number().nullish().transform((v) => v ?? undefined),
  /** Per request only (the server never stores it). */
  remove_background_noise: z.boolean().nullish().transform((v) => v ?? undefined),
});
export type VoiceSettings = z.infer<typeof VoiceSettingsWire>;

export const VoiceWire = z.object({
  voice_id: z.string(),
  name: z.string(),
  category: z.string(),
  labels: z.record(z.string()).nullish().transform((l) => l ?? {}),
  description: z.string().nullish().transform((d) => d ?? null),
  preview_url: z.string().nullish().transform((u) => u ?? null),
  is_legacy: z.boolean().nullish().transform((b) => b ?? false),
  high_quality_base_model_ids: z.array(z.string()).nullish().transform((ids) => ids ?? []),
  settings: VoiceSettingsWire.nullish().transform((s) => s ?? null),
  /** What decides whether the voice can be used (components/voices/usability.ts). */
  safety_control: z.string().nullish().transform((s) => s ?? null),
  voice_verification: z
    .object({ requires_verification: z.boolean(), is_verified: z.boolean() })
    .nullish()
    .transform((v) => v ?? null),
  sharing: z
    .object({ status: z.string(), disable_at_unix: z.number().nullish().transform((d) => d ?? null) })
    .nullish()
    .transform((s) => s ?? null),
});
export type Voice = z.infer<typeof VoiceWire>;

export const VoicesPageWire = z.object({
  voices: z.array(VoiceWire),
  has_more: z.boolean(),
  next_page_token: z.string().nullish().transform((t) => t ?? null),
});

export const ModelWire = z.object({
  model_id: z.string(),
  name: z.string(),
  description: z.string(),
  can_do_text_to_speech: z.boolean(),
  can_do_voice_conversion: z.boolean(),
  can_use_style: z.boolean(),
  can_use_speaker_boost: z.boolean(),
  serves_pro_voices: z.boolean(),
  requires_alpha_access: z.boolean().nullish().transform((b) => b ?? false),
  maximum_text_length_per_request: z.number(),
  languages: z.array(z.object({ language_id: z.string(), name: z.string() })),
  model_rates: z.object({ character_cost_multiplier: z.number() }),
});
export type Model = z.infer<typeof ModelWire>;
export const ModelsWire = z.array(ModelWire);

export const HistoryItemWire = z.object({
  history_item_id: z.string(),
  request_id: z.string().nullish(),
  voice_id: z.string().nullish(),
  voice_name: z.string().nullish(),
  model_id: z.string().nullish(),
  // Speech to speech has no text (null on the wire).
  text: z
    .string()
    .nullish()
    .transform((t) => t ?? ""),
  source: z.string().nullish(),
  date_unix: z.number(),
  character_count_change_from: z.number(),
  character_count_change_to: z.number(),
  content_type: z.string(),
  dialogue: z.array(z.object({ text: z.string(), voice_id: z.string(), voice_name: z.string().nullish() })).nullish(),
  duration_secs: z.number().nullish(),
});
export type HistoryItem = z.infer<typeof HistoryItemWire>;

export const HistoryPageWire = z.object({
  history: z.array(HistoryItemWire),
  last_history_item_id: z.string().nullable(),
  has_more: z.boolean(),
});

export const EnhanceWire = z.object({ enhanced_blocks: z.array(z.object({ text: z.string(), voice_id: z.string().nullish() })) });
export const PreferenceWire = z.object({ status: z.string(), preference: z.enum(["a", "b"]).nullable() });

export const ApiTokenWire = z.object({ token: z.string(), expires_at: z.number() });
