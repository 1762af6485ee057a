import { codePointLength } from "../../platform/contract/text.js";
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";
import { blankFineTuning, blankVerification } from "../../platform/stores/voices.js";
import type { LibraryListing } from "../../platform/stores/library.js";
import { newId } from "../../platform/adapters/ids.js";
import { ApiError } from "../../platform/http/errors.js";
import { emitEvent } from "../../platform/events/index.js";
import { voiceMessages, type PublishVoiceBody } from "../../platform/contract/voices.js";
import { addActivity, addUsage, usageWindows, TREND_WEIGHT_ADD, TREND_WEIGHT_PUBLISH } from "./counters.js";
import { localeOf } from "./accents.js";
import { normaliseLabel } from "./libraryQuery.js";
import { makePreview } from "./previews.js";
import { embedListing, libraryEmbeddings } from "./similar.js";
import { updateListing } from "./listings.js";
import { assertVoiceAdmin, createVoice, listingIdOf, publicOwnerId, voiceNotFound } from "./records.js";

/**
 * The voice library: publishing one's own voice, removing it with a notice period, adding
 * someone else's to My Voices, and what happens when such a voice is used (its rate, its
 * counters, the end of its notice period).
 */
const DAY = 86_400;

export const notInLibrary = (id: string) => new ApiError(404, "voice_not_found", `A voice with the voice_id ${id} was not found in the Voice Library.`);
export const paidOnly = () => new ApiError(403, "paid_subscription_required", voiceMessages.paidOnly);

const nowUnix = (ctx: AppContext) => Math.floor(ctx.now() / 1000);

/** The public fields of a listing from the voice and the publisher's choices. */
export function listingFields(v: VoiceRecord, input: PublishVoiceBody) {
  const labels = { ...v.labels, ...(input.labels ?? {}) };
  const language = normaliseLabel(labels.language ?? v.profile.language);
  const accent = labels.accent ?? v.profile.accent ?? null;
  return {
    name: input.name ?? v.name,
    description: input.description ?? v.description,
    category: v.category,
    language,
    accent: accent ? normaliseLabel(accent) : null,
    locale: localeOf(language, accent ? normaliseLabel(accent) : null),
    gender: normaliseLabel(labels.gender ?? v.profile.gender),
    age: normaliseLabel(labels.age ?? v.profile.age),
    use_case: input.use_case,
    descriptives: input.descriptives,
    labels: { ...labels, use_case: input.use_case, descriptive: input.descriptives[0] },
    profile: v.profile,
    high_quality_base_model_ids: v.high_quality_base_model_ids,
    rate: input.rate ?? null,
    notice_period: input.notice_period,
    free_users_allowed: input.free_users_allowed,
    live_moderation_enabled: input.live_moderation_enabled,
    reader_app_enabled: input.reader_app_enabled,
  };
}

/** A listing as first published (or published again, keeping its counters and first date). */
export function publishedListing(
  fields: ReturnType<typeof listingFields>,
  owner: { workspaceId: string; userId: string; publicOwnerId: string; name: string | null; madeByTimbre: boolean },
  voiceId: string,
  preview: string | null,
  now: number,
  current: LibraryListing | undefined,
  featured = current?.featured ?? false,
): Omit<LibraryListing, "rev"> {
  return {
    voice_id: voiceId,
    owner_workspace_id: owner.workspaceId,
    owner_user_id: owner.userId,
    public_owner_id: owner.publicOwnerId,
    owner_name: owner.name,
    made_by_timbre: owner.madeByTimbre,
    status: "listed",
    date_unix: current?.date_unix ?? now,
    updated_at_unix: now,
    ...fields,
    preview_object_key: preview,
    // The embedding describes the preview: it stays while the preview does.
    embedding: current && current.preview_object_key === preview ? (current.embedding ?? null) : null,
    embedding_version: current && current.preview_object_key === preview ? (current.embedding_version ?? null) : null,
    disable_at_unix: null,
    featured,
    cloned_by_count: current?.cloned_by_count ?? 0,
    usage_days: current?.usage_days ?? {},
    usage_months: current?.usage_months ?? {},
    usage_character_count_1y: current?.usage_character_count_1y ?? 0,
    trend: current?.trend ?? addActivity(null, TREND_WEIGHT_PUBLISH, now),
  };
}

/** Publishes one of the workspace's voices (or changes how it is published). */
export async function publishVoice(ctx: AppContext, caller: Caller, voiceId: string, input: PublishVoiceBody): Promise<LibraryListing> {
  const v = await ctx.stores.voices.get(caller.workspaceId, voiceId);
  if (!v) throw voiceNotFound(voiceId);
  await assertVoiceAdmin(caller, v, "share");
  if (v.sharing?.original_voice_id) throw new ApiError(400, "voice_not_publishable", "A voice added from the Voice Library cannot be published again.");
  if (v.verification.requires_verification && !v.verification.is_verified) {
    throw new ApiError(400, "voice_not_verified", `The voice ${v.name} must be verified before it can be shared.`);
  }
  if (v.safety_control === "BAN" || v.safety_control === "ENTERPRISE_BAN") throw new ApiError(403, "detected_blocked_voice", `The voice ${v.name} is blocked and cannot be shared.`);
  const ownerUserId = v.owner_user_id ?? caller.userId;
  const ownerUser = ownerUserId === caller.userId ? await caller.user() : await ctx.stores.users.get(ownerUserId);
  // The library plays previews to anyone: a voice without one gets it now (in the engine's workers).
  let preview = v.preview_object_key;
  if (!preview) {
    preview = await makePreview(ctx, v);
    await ctx.stores.voices.patch(caller.workspaceId, voiceId, { preview_object_key: preview });
  }
  const fields = listingFields(v, input);
  const owner = { workspaceId: caller.workspaceId, userId: ownerUserId, publicOwnerId: publicOwnerId(ownerUserId), name: ownerUser?.first_name ?? null, madeByTimbre: false };
  const now = nowUnix(ctx);
  const listing = await updateListing(ctx, voiceId, (current) => {
    if (current && current.owner_workspace_id !== caller.workspaceId) throw voiceNotFound(voiceId);
    return publishedListing(fields, owner, voiceId, preview, now, current);
  });
  await ctx.stores.voices.patch(caller.workspaceId, voiceId, {
    sharing: { public_owner_id: owner.publicOwnerId, original_voice_id: null, date_unix: listing!.date_unix, bookmarked: false },
  });
  // Similar-voice search needs the voice's embedding: computed now, on the analyzer's workers
  // (a Lambda may be frozen after it answers). A failure leaves it to the next backfill.
  await embedListing(ctx, voiceId).catch((e: unknown) => ctx.log.warn("could not embed a published voice", { voice_id: voiceId, error: e }));
  return (await ctx.stores.library.listing(voiceId)) ?? listing!;
}

/**
 * Removes a voice from the library. Workspaces that added it keep it for the notice period and
 * are told so (a `voice_library_removal_notice` event each); then it stops working for them.
 */
export async function unpublishVoice(ctx: AppContext, ownerWorkspaceId: string, voiceId: string): Promise<LibraryListing | undefined> {
  const now = nowUnix(ctx);
  let removedNow = false;
  const listing = await updateListing(ctx, voiceId, (current) => {
    removedNow = !!current && current.owner_workspace_id === ownerWorkspaceId && current.status === "listed";
    if (!current || !removedNow) return null;
    return { ...current, status: "unpublished", updated_at_unix: now, disable_at_unix: now + current.notice_period * DAY };
  });
  if (!listing || !removedNow) return listing;
  libraryEmbeddings(ctx).delete(voiceId);
  const adders = await ctx.stores.library.adders(voiceId);
  // A popular voice has many adders: notify them a batch at a time.
  for (let i = 0; i < adders.length; i += 25) {
    await Promise.all(
      adders.slice(i, i + 25).map(async (adder) => {
        const copy = await ctx.stores.voices.get(adder.workspace_id, adder.voice_id);
        if (!copy) return;
        await emitEvent(ctx, adder.workspace_id, "voice_library_removal_notice", {
          voice_id: copy.voice_id,
          original_voice_id: voiceId,
          public_owner_id: listing.public_owner_id,
          name: copy.name,
          library_name: listing.name,
          notice_period_days: listing.notice_period,
          removed_at_unix: now,
          disable_at_unix: listing.disable_at_unix,
        });
      }),
    );
  }
  return listing;
}

export async function unpublishOwnVoice(ctx: AppContext, caller: Caller, voiceId: string): Promise<LibraryListing> {
  const v = await ctx.stores.voices.get(caller.workspaceId, voiceId);
  if (!v) throw voiceNotFound(voiceId);
  await assertVoiceAdmin(caller, v, "share");
  const listing = await ctx.stores.library.listing(voiceId);
  if (!listing || listing.owner_workspace_id !== caller.workspaceId || listing.status !== "listed") {
    throw new ApiError(400, "voice_not_shared", `The voice ${v.name} is not in the Voice Library.`);
  }
  return (await unpublishVoice(ctx, caller.workspaceId, voiceId))!;
}

/** POST /v1/voices/add/{public_user_id}/{voice_id}: a copy in the caller's workspace that refers to the listing. */
export async function addLibraryVoice(
  ctx: AppContext,
  caller: Caller,
  publicUserId: string,
  voiceId: string,
  input: { new_name: string; bookmarked?: boolean | null },
): Promise<string> {
  await caller.require("add_voice_from_voice_library");
  const listing = await ctx.stores.library.listing(voiceId);
  if (!listing || listing.status !== "listed" || listing.public_owner_id !== publicUserId) throw notInLibrary(voiceId);
  if (listing.owner_workspace_id === caller.workspaceId) throw new ApiError(400, "voice_already_owned", "This voice is already one of your voices.");
  const tier = await caller.tier();
  if (!listing.free_users_allowed && tier.id === "free") throw paidOnly();
  // Adding twice (a retry) answers the copy already made.
  const previous = await ctx.stores.library.adder(voiceId, caller.workspaceId);
  if (previous && (await ctx.stores.voices.get(caller.workspaceId, previous.voice_id))) return previous.voice_id;

  const now = nowUnix(ctx);
  const copy: VoiceRecord = {
    voice_id: newId(),
    workspace_id: caller.workspaceId,
    owner_user_id: caller.userId,
    name: input.new_name,
    description: listing.description,
    category: listing.category,
    labels: { ...listing.labels },
    created_at_unix: now,
    profile: listing.profile,
    version: 1,
    settings: null,
    preview_object_key: listing.preview_object_key,
    samples: [],
    is_legacy: false,
    high_quality_base_model_ids: listing.high_quality_base_model_ids,
    available_for_tiers: [],
    fine_tuning: blankFineTuning(listing.language),
    verification: blankVerification(listing.language),
    sharing: { public_owner_id: listing.public_owner_id, original_voice_id: voiceId, date_unix: now, bookmarked: input.bookmarked ?? false },
    safety_control: null,
    is_mixed: false,
    engine_refs: {},
  };
  await createVoice(ctx, tier, copy);
  await ctx.stores.library.putAdder(voiceId, { workspace_id: caller.workspaceId, voice_id: copy.voice_id, added_at_unix: now });
  await updateListing(ctx, voiceId, (current) =>
    current ? { ...current, cloned_by_count: current.cloned_by_count + 1, trend: addActivity(current.trend, TREND_WEIGHT_ADD, now) } : null,
  );
  await ctx.stores.ledger.bumpVoiceEdits(caller.workspaceId).catch(() => undefined);
  return copy.voice_id;
}

/**
 * What speech needs to know about a voice from the library before using it: refused after the
 * notice period or for a free plan when the owner allows paid plans only; its credit rate.
 */
export async function libraryTerms(ctx: AppContext, caller: Caller, v: VoiceRecord): Promise<{ rate: number }> {
  const original = v.sharing?.original_voice_id;
  if (!original) return { rate: 1 };
  const listing = await ctx.stores.library.listing(original);
  const now = nowUnix(ctx);
  // A listing never disappears; if it did, the voice has no terms left to be used under.
  const disableAt = listing ? listing.disable_at_unix : now;
  if (disableAt !== null && now >= disableAt) {
    const when = new Date(disableAt * 1000).toISOString().slice(0, 10);
    throw new ApiError(403, "voice_removed_from_library", voiceMessages.removedFromLibrary(v.name, when));
  }
  if (listing && !listing.free_users_allowed && (await caller.tier()).id === "free") throw paidOnly();
  return { rate: listing?.rate ?? 1 };
}

/** Counts characters generated with library voices (listings of copies and of published originals). */
export async function recordLibraryUsage(ctx: AppContext, parts: Array<{ voice: VoiceRecord; text: string }>): Promise<void> {
  const perListing = new Map<string, number>();
  for (const p of parts) {
    const id = listingIdOf(p.voice);
    if (id) perListing.set(id, (perListing.get(id) ?? 0) + codePointLength(p.text.trim()));
  }
  const now = nowUnix(ctx);
  for (const [id, characters] of perListing) {
    await updateListing(ctx, id, (current) => {
      if (!current || characters <= 0) return null;
      const usage = addUsage(current, characters, now);
      return { ...current, ...usage, usage_character_count_1y: usageWindows(usage, now).y1, trend: addActivity(current.trend, characters, now) };
    });
  }
}
