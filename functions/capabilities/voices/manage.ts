import type { AppContext } from "../../platform/context.js";
import { accessibleVoice, voiceAccess, type VoiceAccess } from "./access.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";
import type { LibraryListing } from "../../platform/stores/library.js";
import { ApiError } from "../../platform/http/errors.js";
import type { MultipartFile } from "../../platform/http/multipart.js";
import { FINE_TUNING_STATES, VOICE_TYPES } from "../../platform/contract/voices.js";
import { assertCanManage, assertVoiceAdmin, fineTuningState, isLibraryCopy, listingIdOf, removeVoice, voiceNotFound } from "./records.js";
import { checkSamples, sampleNotFound, storeSamples } from "./samples.js";
import { unpublishVoice } from "./library.js";
import { normaliseLabel } from "./libraryQuery.js";
import type { VoiceWireContext } from "./wire.js";

/** My Voices: listing and searching what a workspace sees, editing, deleting, samples. */
export type VoiceType = (typeof VOICE_TYPES)[number];

/**
 * Premade voices and the workspace's own (created and added) that the caller has a role on: its
 * creator, workspace admins, and whoever it is shared with (functions/capabilities/voices/access.ts).
 */
export async function visibleVoices(ctx: AppContext, caller: Caller): Promise<VoiceRecord[]> {
  const [premade, own] = await Promise.all([ctx.stores.voices.premade(), ctx.stores.voices.ofWorkspace(caller.workspaceId)]);
  const allowed = await Promise.all(own.map(async (v) => ((await voiceAccess(caller, v)) ? v : null)));
  return [...premade, ...allowed.filter((v): v is VoiceRecord => v !== null)];
}

/** The workspace's collection memberships: lists read them beside the voices (one round trip less). */
export function workspaceMemberships(ctx: AppContext, caller: Caller) {
  return ctx.stores.collections.memberships(caller.workspaceId);
}

/** What the wire needs beside the records: their listings and collections. */
export async function wireContext(ctx: AppContext, caller: Caller, base: string, voices: VoiceRecord[], early?: { memberships: ReturnType<typeof workspaceMemberships> }): Promise<VoiceWireContext> {
  const ids = voices.map(listingIdOf).filter((id): id is string => id !== null);
  const [listings, memberships] = await Promise.all([ctx.stores.library.listings(ids), early?.memberships ?? workspaceMemberships(ctx, caller)]);
  const collections = new Map<string, string[]>();
  for (const m of memberships) collections.set(m.voice_id, [...(collections.get(m.voice_id) ?? []), m.collection_id]);
  const access = new Map<string, VoiceAccess | null>();
  for (const v of voices) access.set(v.voice_id, await voiceAccess(caller, v));
  return { base, caller, nowUnix: Math.floor(ctx.now() / 1000), listings, collections, access };
}

export function matchesType(v: VoiceRecord, type: VoiceType | undefined, caller: Caller): boolean {
  const premade = v.category === "premade";
  const community = isLibraryCopy(v);
  const personal = !premade && !community && v.owner_user_id === caller.userId;
  const workspace = !premade && !community && !personal;
  switch (type) {
    case undefined:
      return true;
    case "default":
      return premade;
    case "personal":
      return personal;
    case "workspace":
      return workspace;
    case "community":
    case "saved":
      return community;
    case "non-default":
      return !premade;
    case "non-community":
      return personal || workspace;
  }
}

export interface VoiceFilters {
  voice_type?: VoiceType;
  category?: string;
  high_quality?: boolean;
  fine_tuning_state?: (typeof FINE_TUNING_STATES)[number];
  collection_id?: string;
  gender?: string;
  age?: string;
  accent?: string;
  language?: string[];
  use_cases?: string[];
  voice_ids?: string[];
  search?: string;
  min_notice_period_days?: number;
  include_custom_rates?: boolean;
  include_live_moderated?: boolean;
  show_legacy?: boolean;
}

const searchable = (v: VoiceRecord) => [v.name, v.description ?? "", v.category, ...Object.values(v.labels)].join(" ").toLowerCase();
const same = (a: string | undefined, b: string) => a !== undefined && normaliseLabel(a) === normaliseLabel(b);

/**
 * How well a voice's name answers a search: 0 when its name starts with the search, 1 when a word
 * of its name does or the name contains it, 2 when only its description or labels match. A search
 * lists names first ("har" finds Harriet before the voices labelled "characters").
 */
export function nameRank(v: Pick<VoiceRecord, "name">, search: string | undefined): number {
  const term = (search ?? "").trim().toLowerCase();
  if (!term) return 0;
  const name = v.name.toLowerCase();
  if (name.startsWith(term)) return 0;
  return name.includes(term) ? 1 : 2;
}

/** The v2 search filters (contract §2 `voices.search`), over the voices a workspace sees. */
export async function filterVoices(ctx: AppContext, caller: Caller, voices: VoiceRecord[], f: VoiceFilters, listings: Map<string, LibraryListing>): Promise<VoiceRecord[]> {
  const terms = (f.search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const inCollection = f.collection_id ? new Set((await ctx.stores.collections.members(caller.workspaceId, f.collection_id)).map((m) => m.voice_id)) : null;
  return voices.filter((v) => {
    // The library's terms (notice period, rate, moderation) apply to library voices only.
    const listing = listingIdOf(v) ? listings.get(listingIdOf(v)!) : undefined;
    return (
      (f.show_legacy || !v.is_legacy || terms.length > 0) &&
      matchesType(v, f.voice_type, caller) &&
      (!f.category || v.category === f.category) &&
      (!f.high_quality || v.category === "high_quality") &&
      (!f.fine_tuning_state || fineTuningState(v) === f.fine_tuning_state) &&
      (!inCollection || inCollection.has(v.voice_id)) &&
      (!f.gender || same(v.labels.gender, f.gender)) &&
      (!f.age || same(v.labels.age, f.age)) &&
      (!f.accent || same(v.labels.accent, f.accent)) &&
      (!f.language || f.language.some((l) => same(v.labels.language, l))) &&
      (!f.use_cases || f.use_cases.some((u) => same(v.labels.use_case, u))) &&
      (!f.voice_ids || f.voice_ids.includes(v.voice_id)) &&
      (!f.min_notice_period_days || !listing || listing.notice_period >= f.min_notice_period_days) &&
      (f.include_custom_rates !== false || !listing || listing.rate === null || listing.rate === 1) &&
      (f.include_live_moderated !== false || !listing || !listing.live_moderation_enabled) &&
      terms.every((t) => searchable(v).includes(t))
    );
  });
}

export interface VoiceEdit {
  name: string;
  description?: string | null;
  labels?: Record<string, string> | null;
  remove_background_noise: boolean;
  files: MultipartFile[];
}

/** POST /v1/voices/{id}/edit: name, description, labels, and new samples. */
export async function editVoice(ctx: AppContext, caller: Caller, voiceId: string, edit: VoiceEdit): Promise<VoiceRecord> {
  const v = await accessibleVoice(ctx, caller, voiceId);
  if (!v) throw voiceNotFound(voiceId);
  await assertCanManage(caller, v);
  if (edit.files.length && isLibraryCopy(v)) throw new ApiError(400, "samples_not_allowed", "Samples cannot be added to a voice from the Voice Library.");
  const checked = checkSamples(v.samples, edit.files);
  const added = await storeSamples(ctx, v, checked, edit.remove_background_noise);
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = attempt === 0 ? v : await ctx.stores.voices.get(caller.workspaceId, voiceId);
    if (!current) break;
    const next: VoiceRecord = {
      ...current,
      name: edit.name,
      description: edit.description === undefined ? current.description : edit.description,
      labels: edit.labels ?? current.labels,
      samples: [...current.samples, ...added],
      version: current.version + (added.length ? 1 : 0),
    };
    if (await ctx.stores.voices.replace(next, current.version)) {
      await ctx.stores.ledger.bumpVoiceEdits(caller.workspaceId).catch(() => undefined);
      return next;
    }
  }
  await ctx.blobs.deleteMany(added.flatMap((s) => [s.object_key, ...(s.isolated_object_key ? [s.isolated_object_key] : [])]));
  throw new ApiError(409, "voice_changed", "The voice was changed at the same time. Please try again.");
}

/** DELETE /v1/voices/{id}: a published voice leaves the library first (copies get their notice). */
export async function deleteVoice(ctx: AppContext, caller: Caller, voiceId: string): Promise<void> {
  const v = await accessibleVoice(ctx, caller, voiceId);
  if (!v) throw voiceNotFound(voiceId);
  await assertVoiceAdmin(caller, v, "delete");
  if (v.sharing && !isLibraryCopy(v)) await unpublishVoice(ctx, caller.workspaceId, v.voice_id);
  await removeVoice(ctx, v);
}

/** DELETE /v1/voices/{id}/samples/{sample_id} */
export async function deleteSample(ctx: AppContext, caller: Caller, voiceId: string, sampleId: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const v = await accessibleVoice(ctx, caller, voiceId);
    if (!v || v.workspace_id !== caller.workspaceId) throw voiceNotFound(voiceId);
    await assertCanManage(caller, v);
    const sample = v.samples.find((s) => s.sample_id === sampleId);
    if (!sample) throw sampleNotFound(sampleId);
    const next = { ...v, samples: v.samples.filter((s) => s.sample_id !== sampleId), version: v.version + 1 };
    if (await ctx.stores.voices.replace(next, v.version)) {
      await ctx.blobs.deleteMany([sample.object_key, ...(sample.isolated_object_key ? [sample.isolated_object_key] : [])]);
      return;
    }
  }
  throw new ApiError(409, "voice_changed", "The voice was changed at the same time. Please try again.");
}

/** The stored audio of one of the workspace's samples. */
export async function sampleAudio(ctx: AppContext, caller: Caller, voiceId: string, sampleId: string) {
  const v = await accessibleVoice(ctx, caller, voiceId);
  if (!v || v.workspace_id !== caller.workspaceId) throw voiceNotFound(voiceId);
  const sample = v.samples.find((s) => s.sample_id === sampleId);
  if (!sample) throw sampleNotFound(sampleId);
  const object = await ctx.blobs.getStream(sample.object_key);
  if (!object) throw sampleNotFound(sampleId);
  return { stream: object.stream, contentType: sample.mime_type, length: object.length, fileName: sample.file_name };
}
