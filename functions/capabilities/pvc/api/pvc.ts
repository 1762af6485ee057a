import { z } from "zod";
import type { AppContext } from "../../../platform/context.js";
import type { ApiRouter } from "../../../platform/http/app.js";
import { ApiError, ValidationError } from "../../../platform/http/errors.js";
import { bytes, json, type ApiRequest } from "../../../platform/http/types.js";
import { field, parseMultipart } from "../../../platform/http/multipart.js";
import { jsonBody, q, queryParams } from "../../../platform/http/validate.js";
import { createPresigner, type Presigner } from "../../../platform/adapters/presign.js";
import { CreatePvcVoiceBody, EditPvcVoiceBody, PVC, StartUploadBody, TrainPvcBody, UpdatePvcSampleBody, pvcMessages } from "../../../platform/contract/pvc.js";
import { createPvcVoice, editPvcVoice, ownPvcVoice } from "../records.js";
import { addPvcSample, deletePvcSample, pvcSampleErrors, samplePreview, sampleWaveform, updatePvcSample } from "../samples.js";
import { separationOf, speakerAudio, startSeparation } from "../separation.js";
import { abortUpload, completeUpload, startUpload, uploadStatus } from "../uploads.js";
import { qualityReportOf, startTraining } from "../../fine-tuning/train.js";
import { sampleWire } from "../wire.js";
import { voiceNotFound } from "../../voices/records.js";
import { sampleNotFound } from "../../voices/samples.js";
import { publicBase } from "../../voices/api/voices.js";
import { decideManualRequest, listManualRequests, manualErrors, manualRequestFile, requestManualVerification } from "../manualVerification.js";

const M = PVC.verification;
/** The documents, the text, and room for the multipart framing. */
const MANUAL_BODY_MAX = M.manualBytes + 64 * 1024;
const RejectBody = z.object({ reason: z.string().trim().min(1, "Give the user a reason.").max(500) });

const presigners = new Map<string, Presigner>();

/** Presigned URLs for the origin this request came in at (embedded) or for S3 (AWS). */
export function presignerFor(ctx: AppContext, req: ApiRequest): Presigner {
  const base = publicBase(ctx, req);
  let p = presigners.get(base);
  if (!p) {
    p = createPresigner(ctx.config, ctx.blobs.bucket, ctx.secrets.session, base);
    presigners.set(base, p);
  }
  return p;
}

/**
 * The professional voice clone: contract §3 (`voices.pvc.*`), plus Timbre's presigned uploads,
 * signed sample URLs and the dataset quality report. The captcha is the voice-verification
 * workflow's (api/voiceVerification.ts); manual verification requests wait for the server's
 * administrators (functions/capabilities/pvc/manualVerification.ts, reviewed through /v1/admin/manual-verifications).
 */
export function registerPvc(r: ApiRouter): void {
  r.post("/v1/voices/pvc", async (req, rc) => {
    const body = jsonBody(req, CreatePvcVoiceBody);
    const v = await createPvcVoice(rc.app, await rc.caller(), body);
    return json({ voice_id: v.voice_id });
  });

  r.post("/v1/voices/pvc/:voice_id", async (req, rc) => {
    const body = jsonBody(req, EditPvcVoiceBody);
    const v = await editPvcVoice(rc.app, await rc.caller(), req.params.voice_id, body);
    return json({ voice_id: v.voice_id });
  });

  r.post("/v1/voices/pvc/:voice_id/samples", async (req, rc) => {
    const caller = await rc.caller();
    await ownPvcVoice(rc.app, caller, req.params.voice_id);
    const form = await parseMultipart(req, { maxFileBytes: PVC.batchBytes, maxFiles: PVC.maxSamples, maxFields: 10, maxFieldBytes: 4096 });
    const files = form.files.filter((f) => f.field === "files");
    if (files.length === 0) throw new ValidationError([{ loc: ["body", "files"], msg: "Field required", type: "missing" }]);
    if (files.some((f) => f.truncated) || files.reduce((n, f) => n + f.data.byteLength, 0) > PVC.batchBytes) throw pvcSampleErrors.batchTooLarge();
    const removeNoise = field(form, "remove_background_noise") === "true";
    const skip = [...(form.fields.skip_warnings ?? []), ...req.query.getAll("skip_warnings")];
    const added = [];
    for (const f of files) {
      added.push(await addPvcSample(rc.app, caller, req.params.voice_id, { bytes: f.data, fileName: f.filename, removeBackgroundNoise: removeNoise, skipWarnings: skip }));
    }
    const v = await ownPvcVoice(rc.app, caller, req.params.voice_id);
    return json(added.map((s) => sampleWire(v, v.samples.find((x) => x.sample_id === s.sample_id) ?? s)));
  });

  r.post("/v1/voices/pvc/:voice_id/samples/:sample_id", async (req, rc) => {
    const body = jsonBody(req, UpdatePvcSampleBody);
    await updatePvcSample(rc.app, await rc.caller(), req.params.voice_id, req.params.sample_id, body);
    return json({ voice_id: req.params.voice_id });
  });

  r.delete("/v1/voices/pvc/:voice_id/samples/:sample_id", async (req, rc) => {
    await deletePvcSample(rc.app, await rc.caller(), req.params.voice_id, req.params.sample_id);
    return json({ status: "ok" });
  });

  r.get("/v1/voices/pvc/:voice_id/samples/:sample_id/audio", async (req, rc) => {
    const { remove_background_noise } = queryParams(req, z.object({ remove_background_noise: q.bool().optional() }));
    return json(await samplePreview(rc.app, await rc.caller(), req.params.voice_id, req.params.sample_id, remove_background_noise ?? false));
  });

  r.get("/v1/voices/pvc/:voice_id/samples/:sample_id/waveform", async (req, rc) => {
    const peaks = await sampleWaveform(rc.app, await rc.caller(), req.params.voice_id, req.params.sample_id);
    return json({ sample_id: req.params.sample_id, visual_waveform: peaks });
  });

  r.get("/v1/voices/pvc/:voice_id/samples/:sample_id/speakers", async (req, rc) =>
    json(await separationOf(rc.app, await rc.caller(), req.params.voice_id, req.params.sample_id)),
  );

  r.post("/v1/voices/pvc/:voice_id/samples/:sample_id/separate-speakers", async (req, rc) => {
    await startSeparation(rc.app, await rc.caller(), req.params.voice_id, req.params.sample_id);
    return json({ status: "ok" });
  });

  r.get("/v1/voices/pvc/:voice_id/samples/:sample_id/speakers/:speaker_id/audio", async (req, rc) =>
    json(await speakerAudio(rc.app, await rc.caller(), req.params.voice_id, req.params.sample_id, req.params.speaker_id)),
  );

  r.post("/v1/voices/pvc/:voice_id/train", async (req, rc) => {
    const body = jsonBody(req, TrainPvcBody);
    await startTraining(rc.app, await rc.caller(), req.params.voice_id, body.model_id);
    return json({ status: "ok" });
  });

  // Timbre: the dataset quality report of the latest fine-tuning (the voice's detail panel).
  r.get("/v1/voices/pvc/:voice_id/quality-report", async (req, rc) => {
    const { model_id } = queryParams(req, z.object({ model_id: z.string().max(64).optional() }));
    return json(await qualityReportOf(rc.app, await rc.caller(), req.params.voice_id, model_id));
  });

  // The captcha (GET/POST /v1/voices/pvc/{id}/captcha) runs the voice-verification workflow
  // (api/voiceVerification.ts). Manual verification: documents for the server's administrators.
  r.post("/v1/voices/pvc/:voice_id/verification", async (req, rc) => {
    const caller = await rc.caller();
    await ownPvcVoice(rc.app, caller, req.params.voice_id);
    // Bounds before parsing: the whole body can hold at most the documents and a short text.
    if (req.body.byteLength > MANUAL_BODY_MAX) throw manualErrors.tooLarge();
    const form = await parseMultipart(req, { maxFileBytes: M.manualBytes, maxFiles: M.manualFiles, maxFields: 4, maxFieldBytes: 4 * M.manualTextMax + 4 }).catch((e: unknown) => {
      if (e instanceof ApiError && e.status === "too_many_files") throw manualErrors.tooManyFiles();
      if (e instanceof ApiError && e.status === "field_too_large") throw manualErrors.textTooLong();
      throw e;
    });
    const files = form.files.filter((f) => f.field === "files" && (f.data.byteLength > 0 || f.truncated));
    await requestManualVerification(rc.app, caller, req.params.voice_id, files.map((f) => ({ file_name: f.filename, data: f.data, truncated: f.truncated })), field(form, "extra_text") ?? "");
    return json({ status: "ok" });
  });

  // Timbre: the server's administrators review manual verification requests (any workspace's).
  r.get("/v1/admin/manual-verifications", async (req, rc) => {
    const { status } = queryParams(req, z.object({ status: z.enum(["pending", "approved", "rejected"]).optional() }));
    return json({ requests: await listManualRequests(rc.app, await rc.caller(), status) });
  });
  r.get("/v1/admin/manual-verifications/:request_id/files/:file_id", async (req, rc) => {
    const { bytes: data, file } = await manualRequestFile(rc.app, await rc.caller(), req.params.request_id, req.params.file_id);
    const safeName = file.file_name.replace(/[^\w. -]/g, "_");
    return bytes(Buffer.from(data.buffer, data.byteOffset, data.byteLength), file.mime_type, {
      "content-disposition": `attachment; filename="${safeName}"`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    });
  });
  r.post("/v1/admin/manual-verifications/:request_id/approve", async (req, rc) => json(await decideManualRequest(rc.app, await rc.caller(), req.params.request_id, { approve: true })));
  r.post("/v1/admin/manual-verifications/:request_id/reject", async (req, rc) => {
    const { reason } = jsonBody(req, RejectBody);
    return json(await decideManualRequest(rc.app, await rc.caller(), req.params.request_id, { approve: false, reason }));
  });

  // Timbre: presigned uploads straight to storage (functions/capabilities/pvc/uploads.ts).
  r.post("/v1/voices/pvc/:voice_id/uploads", async (req, rc) => {
    const body = jsonBody(req, StartUploadBody);
    return json(await startUpload(rc.app, await rc.caller(), req.params.voice_id, body, presignerFor(rc.app, req)));
  });
  r.get("/v1/voices/pvc/:voice_id/uploads/:upload_id", async (req, rc) =>
    json(await uploadStatus(rc.app, await rc.caller(), req.params.voice_id, req.params.upload_id, presignerFor(rc.app, req))),
  );
  r.post("/v1/voices/pvc/:voice_id/uploads/:upload_id/complete", async (req, rc) => {
    const caller = await rc.caller();
    const s = await completeUpload(rc.app, caller, req.params.voice_id, req.params.upload_id);
    const v = await ownPvcVoice(rc.app, caller, req.params.voice_id);
    return json(sampleWire(v, v.samples.find((x) => x.sample_id === s.sample_id) ?? s));
  });
  r.delete("/v1/voices/pvc/:voice_id/uploads/:upload_id", async (req, rc) => {
    await abortUpload(rc.app, await rc.caller(), req.params.voice_id, req.params.upload_id);
    return json({ status: "ok" });
  });

  // Timbre: a signed URL for a sample's audio (the wizard's player caches it for an hour).
  r.get("/v1/voices/:voice_id/samples/:sample_id/signed-url", async (req, rc) => {
    const caller = await rc.caller();
    const v = await rc.app.stores.voices.get(caller.workspaceId, req.params.voice_id);
    if (!v) throw voiceNotFound(req.params.voice_id);
    const s = v.samples.find((x) => x.sample_id === req.params.sample_id);
    if (!s) throw sampleNotFound(req.params.sample_id);
    // Valid for two hours, so a URL cached for the spec's hour still works at the end of it.
    const url = await presignerFor(rc.app, req).get(s.object_key, 2 * PVC.signedUrlCacheSeconds, { contentType: s.mime_type, fileName: s.file_name });
    return json(
      { signed_url: url, expires_at_unix: Math.floor(rc.app.now() / 1000) + 2 * PVC.signedUrlCacheSeconds },
      200,
      { "cache-control": `private, max-age=${PVC.signedUrlCacheSeconds}` },
    );
  });
}
