import { z } from "zod";
import type { ApiRouter, RouteContext } from "../../../platform/http/app.js";
import { ApiError, ValidationError } from "../../../platform/http/errors.js";
import { json } from "../../../platform/http/types.js";
import { field, parseMultipart, type MultipartForm } from "../../../platform/http/multipart.js";
import { jsonBody, parseWith } from "../../../platform/http/validate.js";
import type { ApiRequest } from "../../../platform/http/types.js";
import { MAX_SAMPLES, SAMPLE_MAX_BYTES, VoiceLabels, voiceMessages } from "../../../platform/contract/voices.js";
import { CloneFields, SaveClonePreviewBody } from "../../../platform/contract/voiceCreation.js";
import { clonePreview, instantClone, saveClonePreview } from "../ivc.js";
import { publicBase, settingsFor } from "../../voices/api/voices.js";
import { wireContext } from "../../voices/manage.js";
import { voiceWire } from "../../voices/wire.js";

/**
 * Instant Voice Clone: the SDK's POST /v1/voices/add, and the dialog's preview-first flow
 * (Timbre's; the SDK has no call for it): POST /v1/voices/ivc/preview, POST /v1/voices/ivc/save.
 */
async function sampleForm(req: ApiRequest): Promise<MultipartForm> {
  try {
    // One more file than allowed, so the count check answers with the spec's message.
    return await parseMultipart(req, { maxFileBytes: SAMPLE_MAX_BYTES, maxFiles: MAX_SAMPLES + 1, maxFields: 20, maxFieldBytes: 16 * 1024 });
  } catch (e) {
    if (e instanceof ApiError && e.status === "too_many_files") throw new ApiError(400, "too_many_samples", voiceMessages.tooManySamples);
    throw e;
  }
}

function jsonField(form: MultipartForm, name: string): unknown {
  const raw = field(form, name);
  if (raw === undefined || raw === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new ValidationError([{ loc: ["body", name], msg: `${name} must be JSON`, type: "json_invalid" }]);
  }
}

/** "true"/"false" as the SDK sends booleans; absent means the spec's default (on). */
const flag = (form: MultipartForm, name: string, fallback: boolean) => {
  const v = field(form, name);
  return v === undefined || v === "" ? fallback : v === "true";
};

export function registerVoiceClone(r: ApiRouter): void {
  r.post("/v1/voices/add", async (req, rc) => {
    const caller = await rc.caller();
    const form = await sampleForm(req);
    const fields = parseWith("body", CloneFields, {
      name: field(form, "name"),
      description: field(form, "description"),
      labels: jsonField(form, "labels"),
      remove_background_noise: flag(form, "remove_background_noise", true),
    });
    const voice = await instantClone(rc.app, caller, {
      name: fields.name,
      description: fields.description ?? null,
      labels: fields.labels ?? null,
      removeBackgroundNoise: fields.remove_background_noise,
      files: form.files.filter((f) => f.field === "files"),
    });
    return json({ voice_id: voice.voice_id, requires_verification: voice.verification.requires_verification && !voice.verification.is_verified });
  });

  r.post("/v1/voices/ivc/preview", async (req, rc) => {
    const caller = await rc.caller();
    const form = await sampleForm(req);
    const removeIds = jsonField(form, "sample_ids_to_remove") ?? form.fields.sample_ids_to_remove?.filter((s) => !s.startsWith("[")) ?? [];
    const p = parseWith("body", z.object({ sample_ids_to_remove: z.array(z.string().max(64)).max(MAX_SAMPLES), labels: VoiceLabels.nullish(), voice_id: z.string().max(64).nullish() }), {
      sample_ids_to_remove: removeIds,
      labels: jsonField(form, "labels"),
      voice_id: field(form, "voice_id") || null,
    });
    const g = await clonePreview(rc.app, caller, {
      files: form.files.filter((f) => f.field === "files"),
      removeBackgroundNoise: flag(form, "remove_background_noise", true),
      labels: p.labels ?? null,
      voiceId: p.voice_id ?? null,
      sampleIdsToRemove: p.sample_ids_to_remove,
    });
    return json({
      generated_voice_id: g.generated_voice_id,
      audio_base_64: Buffer.from(g.audio).toString("base64"),
      media_type: g.media_type,
      duration_secs: g.duration_secs,
      language: g.language,
      samples: g.clone!.samples.map((s) => ({ sample_id: s.sample_id, file_name: s.file_name, duration_secs: s.duration_secs })),
      kept_sample_ids: g.clone!.kept_sample_ids,
      total_duration_secs: Math.round((g.clone!.analysis.summary.durationSecs) * 10) / 10,
    });
  });

  r.post("/v1/voices/ivc/save", async (req, rc) => {
    const caller = await rc.caller();
    const body = jsonBody(req, SaveClonePreviewBody);
    const voice = await saveClonePreview(rc.app, caller, {
      previewId: body.cloned_voice_preview_id,
      name: body.voice_name.trim(),
      description: body.voice_description ?? null,
      labels: body.labels ?? null,
      voiceId: body.voice_id ?? null,
    });
    const w = await wireContext(rc.app, caller, publicBase(rc.app, req), [voice]);
    return json({ ...voiceWire(voice, w), settings: await settingsFor(rc.app, caller, voice), requires_verification: voice.verification.requires_verification && !voice.verification.is_verified });
  });
}
