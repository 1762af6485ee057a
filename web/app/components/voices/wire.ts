import { z } from "zod";
import { VoiceSettingsWire, VoiceWire } from "../tts/wire.js";

/**
 * The /v1 shapes the Voices pages read (only the fields they use), parsed in the browser and in
 * the loaders alike.
 */
const nullable = <T extends z.ZodTypeAny>(t: T) => t.nullish().transform((v) => v ?? null);

export const LibraryVoiceWire = z.object({
  public_owner_id: z.string(),
  voice_id: z.string(),
  date_unix: z.number(),
  name: z.string(),
  accent: z.string(),
  gender: z.string(),
  age: z.string(),
  descriptive: z.string(),
  use_case: z.string(),
  category: z.string(),
  language: nullable(z.string()),
  locale: nullable(z.string()),
  description: nullable(z.string()),
  preview_url: nullable(z.string()),
  usage_character_count_1y: z.number(),
  usage_character_count_7d: z.number(),
  cloned_by_count: z.number(),
  rate: nullable(z.number()),
  free_users_allowed: z.boolean(),
  live_moderation_enabled: z.boolean(),
  featured: z.boolean(),
  notice_period: nullable(z.number()),
  is_added_by_user: nullable(z.boolean()).transform((b) => b ?? false),
  descriptives: nullable(z.array(z.string())).transform((d) => d ?? []),
  owner_name: nullable(z.string()),
  made_by_timbre: nullable(z.boolean()).transform((b) => b ?? false),
  /** Present on similar-voice answers: cosine similarity to the query. */
  similarity: nullable(z.number()),
});
export type LibraryVoice = z.infer<typeof LibraryVoiceWire>;

export const LibraryPageWire = z.object({
  voices: z.array(LibraryVoiceWire),
  has_more: z.boolean(),
  last_sort_id: nullable(z.string()),
});

export const AddVoiceWire = z.object({ voice_id: z.string() });
export const StatusWire = z.object({ status: z.string() });

const SampleWire = z.object({
  sample_id: z.string(),
  file_name: z.string(),
  mime_type: nullable(z.string()),
  size_bytes: nullable(z.number()),
  duration_secs: nullable(z.number()),
});

const SharingWire = z.object({
  status: z.string(),
  public_owner_id: nullable(z.string()),
  original_voice_id: nullable(z.string()),
  free_users_allowed: z.boolean(),
  live_moderation_enabled: z.boolean(),
  rate: nullable(z.number()),
  notice_period: nullable(z.number()),
  disable_at_unix: nullable(z.number()),
  enabled_in_library: nullable(z.boolean()),
  labels: nullable(z.record(z.string())),
  description: nullable(z.string()),
  name: nullable(z.string()),
});

/** A voice of My Voices with everything the detail panel shows. */
export const MyVoiceWire = VoiceWire.extend({
  samples: nullable(z.array(SampleWire)).transform((s) => s ?? []),
  created_at_unix: nullable(z.number()),
  is_owner: nullable(z.boolean()).transform((b) => b ?? false),
  is_added_by_user: nullable(z.boolean()).transform((b) => b ?? false),
  permission_on_resource: nullable(z.string()),
  collection_ids: nullable(z.array(z.string())).transform((c) => c ?? []),
  sharing: nullable(SharingWire),
  settings: nullable(VoiceSettingsWire),
});
export type MyVoice = z.infer<typeof MyVoiceWire>;

export const MyVoicesPageWire = z.object({
  voices: z.array(MyVoiceWire),
  has_more: z.boolean(),
  total_count: nullable(z.number()),
  next_page_token: nullable(z.string()),
});

export const CollectionWire = z.object({
  collection_id: z.string(),
  title: z.string(),
  icon: z.string(),
  permission_on_resource: nullable(z.string()),
  created_at_unix: nullable(z.number()),
  voice_ids: nullable(z.array(z.string())),
});
export type Collection = z.infer<typeof CollectionWire>;
export const CollectionsWire = z.object({ collections: z.array(CollectionWire) });

export const AccentsWire = z.object({ accents: z.array(z.object({ accent: z.string(), language: nullable(z.string()) }).passthrough()) });

/** What the Add a new voice dialog decides on (voice-creation.md §3 Subscription, §6). */
export const VoiceSlotsWire = z.object({
  tier: z.string(),
  voice_limit: z.number(),
  voice_slots_used: z.number(),
  professional_voice_limit: z.number(),
  professional_voice_slots_used: z.number(),
  can_use_instant_voice_cloning: z.boolean(),
  can_use_professional_voice_cloning: z.boolean(),
});
export type VoiceSlots = z.infer<typeof VoiceSlotsWire>;
