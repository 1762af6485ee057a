import type { Caller } from "../../platform/domain/caller.js";
import type { VoiceAccess } from "./access.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";
import type { LibraryListing, LibraryListingSummary } from "../../platform/stores/library.js";
import type { CollectionRecord } from "../../platform/stores/collections.js";
import type { ResourceRole } from "../../platform/contract/dictionaries.js";
import { isLibraryCopy } from "./records.js";
import { usageWindows } from "./counters.js";
import { allowedToFineTune } from "../pvc/records.js";
import { isWorkspaceEngineVoice } from "../engines/speak.js";
import { sampleWire } from "../pvc/wire.js";

/** The wire shapes of contract §2: `Voice`, `LibraryVoiceResponse`, `UserVoiceCollectionResponseModel`. */
export interface VoiceWireContext {
  base: string;
  caller: Caller;
  nowUnix: number;
  /** Listings of the voices' library ties (own published voices and added ones), by listing id. */
  listings?: Map<string, LibraryListing>;
  /** voice id -> collection ids, in the caller's workspace. */
  collections?: Map<string, string[]>;
  /** voice id -> the caller's role on it (workspace sharing). */
  access?: Map<string, VoiceAccess | null>;
}

const NO_SOCIALS = { instagram_username: null, twitter_username: null, youtube_username: null, tiktok_username: null };

/** The sharing object of a voice the workspace holds: its publishing, or the listing it was added from. */
function sharingWire(v: VoiceRecord, listing: LibraryListing | undefined, nowUnix: number) {
  if (!v.sharing) return null;
  const copy = isLibraryCopy(v);
  const disabled = listing ? listing.disable_at_unix !== null && nowUnix >= listing.disable_at_unix : true;
  const status = copy ? (disabled ? "copied_disabled" : "copied") : listing?.status === "listed" ? "enabled" : "disabled";
  return {
    status,
    history_item_sample_id: null,
    date_unix: v.sharing.date_unix,
    whitelisted_emails: [],
    public_owner_id: v.sharing.public_owner_id,
    original_voice_id: v.sharing.original_voice_id,
    financial_rewards_enabled: false,
    free_users_allowed: listing?.free_users_allowed ?? true,
    live_moderation_enabled: listing?.live_moderation_enabled ?? false,
    rate: listing?.rate ?? null,
    fiat_rate: null,
    notice_period: listing?.notice_period ?? null,
    disable_at_unix: listing?.disable_at_unix ?? null,
    voice_mixing_allowed: false,
    featured: listing?.featured ?? false,
    category: listing?.category ?? v.category,
    reader_app_enabled: listing?.reader_app_enabled ?? false,
    image_url: null,
    ban_reason: null,
    liked_by_count: 0,
    cloned_by_count: listing?.cloned_by_count ?? 0,
    name: listing?.name ?? v.name,
    description: listing?.description ?? v.description,
    labels: listing?.labels ?? v.labels,
    review_status: "allowed",
    review_message: null,
    enabled_in_library: listing?.status === "listed",
    ...NO_SOCIALS,
    moderation_check: null,
    reader_restricted_on: null,
  };
}

export function voiceWire(v: VoiceRecord, w: VoiceWireContext) {
  const own = v.workspace_id === w.caller.workspaceId;
  const listingId = v.sharing ? (v.sharing.original_voice_id ?? v.voice_id) : null;
  const listing = listingId ? w.listings?.get(listingId) : undefined;
  const ft = v.fine_tuning;
  const ver = v.verification;
  return {
    voice_id: v.voice_id,
    name: v.name,
    samples: own
      ? v.samples.map((s) => sampleWire(v, s))
      : null,
    category: v.category,
    fine_tuning: {
      is_allowed_to_fine_tune: own && (v.category === "professional" ? allowedToFineTune(v) : ft.is_allowed_to_fine_tune),
      state: ft.state,
      verification_failures: ver.failures,
      verification_attempts_count: ver.attempts.length,
      manual_verification_requested: ft.manual_verification_requested,
      language: ft.language ?? v.labels.language ?? v.profile.language,
      progress: ft.progress,
      message: ft.message,
      dataset_duration_seconds: ft.dataset_duration_seconds,
      verification_attempts: ver.attempts.map(attemptWire),
      slice_ids: ft.slice_ids,
      // The SDK's ManualVerificationResponse, with Timbre's request id, status and rejection reason beside it.
      manual_verification: own && v.manual_verification ? v.manual_verification : null,
      max_verification_attempts: ver.max_attempts,
      next_max_verification_attempts_reset_unix_ms: ver.next_attempts_reset_unix_ms,
    },
    labels: v.labels,
    description: v.description,
    // A workspace engine's voice has one from the start: it is made on the first request.
    preview_url: v.preview_object_key || isWorkspaceEngineVoice(v) ? `${w.base}/v1/voices/${v.voice_id}/preview` : null,
    available_for_tiers: v.available_for_tiers,
    settings: v.settings,
    sharing: own ? sharingWire(v, listing, w.nowUnix) : null,
    high_quality_base_model_ids: v.high_quality_base_model_ids,
    verified_languages: [],
    collection_ids: w.collections?.get(v.voice_id) ?? [],
    safety_control: v.safety_control,
    voice_verification: {
      requires_verification: ver.requires_verification,
      is_verified: ver.is_verified,
      verification_failures: ver.failures,
      verification_attempts_count: ver.attempts.length,
      language: ver.language,
      verification_attempts: ver.attempts.map(attemptWire),
    },
    // The caller's role from workspace sharing (functions/capabilities/voices/access.ts); premade voices have none.
    permission_on_resource: own ? (w.access?.get(v.voice_id) ?? null) : null,
    is_owner: own && !isLibraryCopy(v) && v.owner_user_id === w.caller.userId,
    is_legacy: v.is_legacy,
    is_mixed: v.is_mixed,
    favorited_at_unix: null,
    created_at_unix: v.created_at_unix,
    is_bookmarked: isLibraryCopy(v) ? v.sharing!.bookmarked : false,
    is_added_by_user: own && isLibraryCopy(v),
    public_owner_id: v.sharing?.public_owner_id ?? null,
  };
}

function attemptWire(a: VoiceRecord["verification"]["attempts"][number]) {
  return {
    text: a.text,
    date_unix: a.date_unix,
    accepted: a.accepted,
    similarity: a.similarity,
    levenshtein_distance: a.levenshtein_distance,
    // Timbre: why an attempt failed (the wizard's 'Verification history'), and whether it is decided.
    reasons: a.reasons ?? [],
    status: a.status ?? (a.accepted ? "accepted" : "rejected"),
    recording: a.recording
      ? { recording_id: a.recording.recording_id, mime_type: a.recording.mime_type, size_bytes: a.recording.size_bytes, upload_date_unix: a.recording.upload_date_unix, transcription: a.recording.transcription }
      : null,
  };
}

/** LibraryVoiceResponse: every required field present, as the SDK insists. */
export function libraryVoiceWire(l: LibraryListingSummary, w: { base: string; nowUnix: number; addedByCaller: Map<string, string> }) {
  const usage = usageWindows(l, w.nowUnix);
  const preview = l.preview_object_key ? `${w.base}/v1/voices/${l.voice_id}/preview` : null;
  return {
    public_owner_id: l.public_owner_id,
    voice_id: l.voice_id,
    date_unix: l.date_unix,
    name: l.name,
    accent: l.accent ?? "",
    gender: l.gender,
    age: l.age,
    descriptive: l.descriptives[0] ?? "",
    use_case: l.use_case,
    category: l.category,
    language: l.language,
    locale: l.locale,
    description: l.description,
    preview_url: preview,
    usage_character_count_1y: usage.y1,
    usage_character_count_7d: usage.d7,
    // All generation here goes through the API.
    play_api_usage_character_count_1y: usage.y1,
    cloned_by_count: l.cloned_by_count,
    rate: l.rate,
    fiat_rate: null,
    free_users_allowed: l.free_users_allowed,
    live_moderation_enabled: l.live_moderation_enabled,
    featured: l.featured,
    verified_languages: [{ language: l.language, model_id: "eleven_multilingual_v2", accent: l.accent, locale: l.locale, preview_url: preview }],
    notice_period: l.notice_period,
    ...NO_SOCIALS,
    image_url: null,
    is_added_by_user: w.addedByCaller.has(l.voice_id),
    is_bookmarked: false,
    // Timbre's own: what else the library page shows.
    descriptives: l.descriptives,
    owner_name: l.owner_name,
    made_by_timbre: l.made_by_timbre,
  };
}

export function collectionWire(c: CollectionRecord, role: ResourceRole, voiceIds?: string[]) {
  return {
    collection_id: c.collection_id,
    title: c.title,
    icon: c.icon,
    permission_on_resource: role,
    created_at_unix: c.created_at_unix,
    ...(voiceIds ? { voice_ids: voiceIds } : {}),
  };
}
