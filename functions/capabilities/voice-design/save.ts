/**
 * Saving a generated voice (a design or remix preview) as a voice of the workspace: it takes a
 * voice slot like every voice (createVoice), keeps its preview audio as the voice's preview, and
 * is usable at once (only clones need verification).
 */
import type { AppContext } from "../../platform/context.js";
import { unixSeconds } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import { blankFineTuning, blankVerification, type VoiceRecord } from "../../platform/stores/voices.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { newId } from "../../platform/adapters/ids.js";
import { ApiError } from "../../platform/http/errors.js";
import { createVoice } from "../voices/records.js";
import { designMessages } from "../../platform/contract/voiceCreation.js";
import type { z } from "zod";
import type { CreateVoiceFromPreviewBody } from "../../platform/contract/voiceCreation.js";

export const generatedVoiceNotFound = (id: string) => new ApiError(400, "invalid_generated_voice_id", designMessages.generatedVoiceNotFound(id));

/** Copies an object under a new key (the preview becomes the voice's own). */
export async function copyObject(ctx: AppContext, from: string, to: string): Promise<void> {
  const o = await ctx.blobs.getBytes(from);
  if (!o) throw new ApiError(500, "object_missing", designMessages.couldNotCreate);
  await ctx.blobs.put(to, o.bytes, o.contentType);
}

export async function createVoiceFromPreview(ctx: AppContext, caller: Caller, body: z.infer<typeof CreateVoiceFromPreviewBody>): Promise<VoiceRecord> {
  const g = await ctx.stores.generatedVoices.get(caller.workspaceId, body.generated_voice_id, unixSeconds(ctx));
  if (!g || g.kind === "clone") throw generatedVoiceNotFound(body.generated_voice_id);
  const voiceId = newId();
  const previewKey = workspaceKey(caller.workspaceId, "voices", voiceId, `preview.${g.audio_object_key.split(".").pop()}`);
  await copyObject(ctx, g.audio_object_key, previewKey);
  const labels: Record<string, string> = { ...g.labels };
  for (const [k, v] of Object.entries(body.labels ?? {})) {
    if (v === null || v === undefined || !v.trim()) delete labels[k];
    else labels[k] = v.trim().slice(0, 50);
  }
  const voice: VoiceRecord = {
    voice_id: voiceId,
    workspace_id: caller.workspaceId,
    owner_user_id: caller.userId,
    name: body.voice_name.trim(),
    description: body.voice_description.trim() || g.description,
    category: "generated",
    labels,
    created_at_unix: unixSeconds(ctx),
    profile: g.profile,
    version: 1,
    settings: g.settings,
    preview_object_key: previewKey,
    samples: [],
    is_legacy: false,
    high_quality_base_model_ids: [],
    available_for_tiers: [],
    fine_tuning: blankFineTuning(g.language),
    verification: blankVerification(g.language),
    sharing: null,
    safety_control: null,
    is_mixed: g.kind === "remix",
    engine_refs: {},
  };
  try {
    await createVoice(ctx, await caller.tier(), voice);
  } catch (e) {
    await ctx.blobs.deleteMany([previewKey]).catch(() => undefined);
    throw e;
  }
  await ctx.stores.generatedVoices.delete(caller.workspaceId, g.generated_voice_id).catch(() => undefined);
  return voice;
}
