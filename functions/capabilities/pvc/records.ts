/**
 * Professional voice clones as records: creating one (a voice slot and a professional slot, as
 * every voice takes), editing its metadata, and reading one the caller may change. A new clone
 * starts with a default profile of its labels; fine-tuning replaces the profile with the one its
 * audio fits (functions/capabilities/fine-tuning).
 */
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { Tier } from "../../platform/domain/tiers.js";
import { blankFineTuning, blankVerification, type VoiceRecord } from "../../platform/stores/voices.js";
import { newId } from "../../platform/adapters/ids.js";
import { profileFromLabels } from "../../media/engine/espeak/voices.js";
import { hashSeed } from "../../media/engine/prng.js";
import { ApiError } from "../../platform/http/errors.js";
import { pvcMessages } from "../../platform/contract/pvc.js";
import { assertCanManage, createVoice, isLibraryCopy, voiceNotFound } from "../voices/records.js";

/** Labels a clone keeps: the known keys (language lives in its own field and label). */
const LABEL_KEYS = ["accent", "gender", "age", "descriptive", "use_case"] as const;

/**
 * Workspaces whose plan skips the voice captcha (`can_bypass_voice_captcha`). The plans table
 * gains the flag with the voice verification work; until then it is the Business plan.
 */
export function canBypassVoiceCaptcha(tier: Tier): boolean {
  const flagged = (tier as Tier & { bypassesVoiceCaptcha?: boolean }).bypassesVoiceCaptcha;
  return flagged ?? tier.id === "business";
}

/** A clone may be trained once it needs no verification or has passed it. */
export function allowedToFineTune(v: VoiceRecord): boolean {
  return !v.verification.requires_verification || v.verification.is_verified || v.fine_tuning.is_allowed_to_fine_tune;
}

export function cleanLabels(labels: Record<string, string | null | undefined> | null | undefined, language: string): Record<string, string> {
  const out: Record<string, string> = { language };
  for (const k of LABEL_KEYS) {
    const v = labels?.[k];
    if (typeof v === "string" && v.trim()) out[k] = v.trim();
  }
  return out;
}

export async function assertCanCreatePvc(caller: Caller): Promise<Tier> {
  await caller.require("create_professional_voice_clone");
  const tier = await caller.tier();
  if (!tier.canUseProfessionalVoiceCloning || tier.professionalVoiceLimit <= 0) throw new ApiError(403, "professional_voice_cloning_not_allowed", pvcMessages.planGate);
  return tier;
}

export interface CreatePvcInput {
  name: string;
  language: string;
  description?: string | null;
  labels?: Record<string, string | null | undefined> | null;
  is_draft?: boolean | null;
}

export async function createPvcVoice(ctx: AppContext, caller: Caller, input: CreatePvcInput): Promise<VoiceRecord> {
  const tier = await assertCanCreatePvc(caller);
  const bypass = canBypassVoiceCaptcha(tier);
  const language = input.language.toLowerCase();
  const labels = cleanLabels(input.labels, language);
  const voiceId = newId();
  const voice: VoiceRecord = {
    voice_id: voiceId,
    workspace_id: caller.workspaceId,
    owner_user_id: caller.userId,
    name: input.name,
    description: input.description ?? null,
    category: "professional",
    labels,
    created_at_unix: Math.floor(ctx.now() / 1000),
    profile: profileFromLabels({ language, accent: labels.accent, gender: labels.gender ?? "neutral", age: labels.age ?? "middle_aged" }, hashSeed("pvc", voiceId)),
    version: 1,
    settings: null,
    preview_object_key: null,
    samples: [],
    is_legacy: false,
    high_quality_base_model_ids: [],
    available_for_tiers: [],
    fine_tuning: { ...blankFineTuning(language), is_draft: input.is_draft ?? false, is_allowed_to_fine_tune: bypass },
    verification: blankVerification(language, !bypass),
    sharing: null,
    safety_control: null,
    is_mixed: false,
    engine_refs: {},
  };
  return createVoice(ctx, tier, voice);
}

/** A professional clone the caller may change (its owner or a workspace admin). */
export async function ownPvcVoice(ctx: AppContext, caller: Caller, voiceId: string): Promise<VoiceRecord> {
  const v = await ctx.stores.voices.get(caller.workspaceId, voiceId);
  if (!v || v.category !== "professional" || isLibraryCopy(v)) throw voiceNotFound(voiceId);
  await assertCanManage(caller, v);
  return v;
}

/** Reads, changes and writes back a clone at the version it was read at, retrying when someone else wrote first. */
export async function changePvcVoice(ctx: AppContext, caller: Caller, voiceId: string, change: (v: VoiceRecord) => VoiceRecord | Promise<VoiceRecord>): Promise<VoiceRecord> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const v = await ownPvcVoice(ctx, caller, voiceId);
    const next = await change(v);
    if (await ctx.stores.voices.replace({ ...next, version: v.version + 1 }, v.version)) return { ...next, version: v.version + 1 };
  }
  throw new ApiError(409, "voice_changed", "The voice was changed at the same time. Please try again.");
}

export interface EditPvcInput {
  name?: string | null;
  language?: string | null;
  description?: string | null;
  labels?: Record<string, string | null | undefined> | null;
  is_draft?: boolean | null;
}

export async function editPvcVoice(ctx: AppContext, caller: Caller, voiceId: string, input: EditPvcInput): Promise<VoiceRecord> {
  return changePvcVoice(ctx, caller, voiceId, (v) => {
    const language = (input.language ?? v.fine_tuning.language ?? v.labels.language ?? "en").toLowerCase();
    const labels = input.labels !== undefined && input.labels !== null ? cleanLabels(input.labels, language) : { ...v.labels, language };
    return {
      ...v,
      name: input.name ?? v.name,
      description: input.description === undefined ? v.description : input.description,
      labels,
      profile: { ...v.profile, language },
      fine_tuning: { ...v.fine_tuning, language, is_draft: input.is_draft ?? v.fine_tuning.is_draft },
      verification: { ...v.verification, language },
    };
  });
}
