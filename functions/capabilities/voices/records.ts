import { createHash } from "node:crypto";
import { canEditVoice, voiceAccess } from "./access.js";
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";
import type { Tier } from "../../platform/domain/tiers.js";
import { ApiError } from "../../platform/http/errors.js";
import { voiceMessages } from "../../platform/contract/voices.js";

/**
 * Creating and removing voices: the one way a voice enters or leaves a workspace, so voice slots
 * (voice_limit, professional_voice_limit) are counted exactly. Later issues (design, cloning)
 * create their voices through `createVoice`.
 */
export const voiceNotFound = (id: string) => new ApiError(404, "voice_not_found", `A voice with the voice_id ${id} was not found.`);

export const voiceLimitReached = (limit: number) => new ApiError(400, "voice_limit_reached", voiceMessages.voiceLimitReached(limit));
export const professionalVoiceLimitReached = (limit: number) =>
  new ApiError(400, "professional_voice_limit_reached", voiceMessages.professionalVoiceLimitReached(limit));

/** A voice added from the library (a workspace's copy of someone else's listing). */
export const isLibraryCopy = (v: VoiceRecord) => !!v.sharing?.original_voice_id;

/** The library listing a voice belongs to: its own (published) or the one it was added from. */
export const listingIdOf = (v: VoiceRecord): string | null => (v.sharing ? (v.sharing.original_voice_id ?? v.voice_id) : null);

/** A professional clone the workspace made itself takes a professional slot too; added ones do not. */
const takesProfessionalSlot = (v: VoiceRecord) => v.category === "professional" && !isLibraryCopy(v);

/** Public ids stand for a user in the library without revealing their user id. */
export function publicOwnerId(userId: string): string {
  const digest = createHash("sha256").update(`timbre-public-owner:${userId}`).digest();
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  return Array.from(digest.subarray(0, 24), (b) => alphabet[b % 36]).join("");
}

/**
 * Writes a new voice into its workspace after taking its slots; creates nothing when a limit
 * is reached ('Voice limit of {n} reached').
 */
export async function createVoice(ctx: AppContext, tier: Tier, v: VoiceRecord): Promise<VoiceRecord> {
  const ws = v.workspace_id;
  if (!ws) throw new Error("premade voices are seeded, not created");
  const professional = takesProfessionalSlot(v);
  const slot = await ctx.stores.voices.reserveSlot(ws, tier.voiceLimit, professional ? { limit: tier.professionalVoiceLimit } : null);
  if (slot === "voice_limit") throw voiceLimitReached(tier.voiceLimit);
  if (slot === "professional_limit") throw professionalVoiceLimitReached(tier.professionalVoiceLimit);
  try {
    if (!(await ctx.stores.voices.create(v))) throw new ApiError(409, "voice_exists", `A voice with the voice_id ${v.voice_id} already exists.`);
  } catch (e) {
    await ctx.stores.voices.releaseSlot(ws, professional).catch(() => undefined);
    throw e;
  }
  return v;
}

/**
 * Removes a voice from its workspace: the record, its slots, its collection entries, the
 * workspace's settings for it, its tie to the library, then its objects (a workflow).
 */
export async function removeVoice(ctx: AppContext, v: VoiceRecord): Promise<void> {
  const ws = v.workspace_id!;
  if (!(await ctx.stores.voices.delete(ws, v.voice_id))) return;
  await ctx.stores.voices.releaseSlot(ws, takesProfessionalSlot(v)).catch(() => undefined);
  await Promise.all([
    ctx.stores.collections.removeVoiceEverywhere(ws, v.voice_id),
    ctx.stores.voices.deleteWorkspaceSettings(ws, v.voice_id),
    v.sharing?.original_voice_id ? ctx.stores.library.removeAdder(v.sharing.original_voice_id, ws) : undefined,
  ]);
  await ctx.workflows.start("voice-purge", { workspace_id: ws, voice_id: v.voice_id });
}

/** The fine_tuning_state the v2 search filters on: one word for the voice across its models. */
export function fineTuningState(v: VoiceRecord): string {
  if (v.fine_tuning.is_draft) return "draft";
  if (v.verification.requires_verification && !v.verification.is_verified) return "not_verified";
  const states = Object.values(v.fine_tuning.state);
  for (const s of ["fine_tuned", "fine_tuning", "queued", "delayed", "failed"] as const) if (states.includes(s)) return s;
  return "not_started";
}

/** Who may change or delete a voice the workspace holds: its creator, a workspace admin, or an editor it is shared with. */
export async function assertCanManage(caller: Caller, v: VoiceRecord): Promise<void> {
  if (v.workspace_id !== caller.workspaceId) throw new ApiError(403, "voice_not_owned", "Only your own voices can be changed; premade voices cannot.");
  if (!canEditVoice(await voiceAccess(caller, v))) {
    throw new ApiError(403, "voice_not_owned", "Only the voice's owner, a workspace admin or an editor it is shared with can change it.");
  }
}

/**
 * Who may share a voice the workspace holds further (publish it to the Voice Library or take it
 * out) or delete it: the resource admins (its creator, a workspace admin, or someone given
 * admin), as for sharing within the workspace; editors edit but neither share nor delete.
 */
export async function assertVoiceAdmin(caller: Caller, v: VoiceRecord, action: "share" | "delete"): Promise<void> {
  if (v.workspace_id !== caller.workspaceId) throw new ApiError(403, "voice_not_owned", `Only your own voices can be ${action === "share" ? "shared" : "deleted"}; premade voices cannot.`);
  const role = await voiceAccess(caller, v);
  if (role !== "owner" && role !== "admin") {
    throw new ApiError(403, "voice_not_owned", `Only the voice's owner, a workspace admin or an admin it is shared with can ${action} it.`);
  }
}
