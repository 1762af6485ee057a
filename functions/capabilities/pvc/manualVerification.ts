/**
 * Manual verification of a professional clone (professional-voice-clone.md §5, §6, §9): the user
 * sends up to five documents (PDF, JPG or PNG, told apart by their first bytes, under 10 MB in
 * all) and a text of at most 1,000 characters; the files go to storage under the voice, a request
 * waits for the server's administrators, and the voice says one was requested. An administrator
 * opens the documents through the product and approves (the voice is verified and may be
 * fine-tuned) or rejects with a reason the user reads in their notifications and in the wizard.
 * Either way a `voice_verification_result` event goes out, as after a captcha attempt.
 */
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { Tier } from "../../platform/domain/tiers.js";
import type { ManualVerificationFile, ManualVerificationRecord } from "../../platform/stores/manualVerifications.js";
import type { VoiceManualVerification } from "../../platform/stores/voices.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { newId } from "../../platform/adapters/ids.js";
import { ApiError } from "../../platform/http/errors.js";
import { PVC, pvcMessages } from "../../platform/contract/pvc.js";
import { emitEvent } from "../../platform/events/index.js";
import { attemptWindow } from "../voice-verification/attempts.js";
import { ownPvcVoice } from "./records.js";

const M = PVC.verification;

/** `can_request_manual_pro_voice_verification`: every plan with professional cloning. */
export function canRequestManualVerification(tier: Tier): boolean {
  return tier.canUseProfessionalVoiceCloning;
}

export const manualErrors = {
  noFiles: () => new ApiError(400, "manual_verification_no_files", pvcMessages.manualNoFiles),
  tooManyFiles: () => new ApiError(400, "manual_verification_too_many_files", pvcMessages.manualTooManyFiles),
  tooLarge: () => new ApiError(400, "manual_verification_files_too_large", pvcMessages.manualTooLarge),
  textTooLong: () => new ApiError(400, "manual_verification_text_too_long", pvcMessages.manualTextTooLong),
  badType: (name: string) => new ApiError(400, "manual_verification_unsupported_file", pvcMessages.manualBadType(name)),
  notAllowed: () => new ApiError(403, "manual_verification_not_allowed", pvcMessages.manualNotAllowed),
  pending: () => new ApiError(409, "manual_verification_already_requested", pvcMessages.manualAlreadyPending),
  alreadyVerified: () => new ApiError(409, "already_verified", pvcMessages.alreadyVerified),
  notFound: () => new ApiError(404, "manual_verification_not_found", "This manual verification request does not exist."),
  decided: () => new ApiError(409, "manual_verification_already_decided", "This request has already been decided."),
};

/** The document's type from its first bytes: PDF, PNG or JPEG; null for anything else. */
export function sniffDocument(head: Uint8Array): { mime: string; ext: string } | null {
  const b = head;
  if (b.length >= 5 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d) return { mime: "application/pdf", ext: "pdf" };
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return { mime: "image/png", ext: "png" };
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { mime: "image/jpeg", ext: "jpg" };
  return null;
}

export interface ManualDocument {
  file_name: string;
  data: Uint8Array;
  truncated: boolean;
}

/** The spec's checks, in its order; the texts are its messages. */
export function checkManualRequest(files: ManualDocument[], extraText: string): Array<ManualDocument & { mime: string; ext: string }> {
  if (files.length === 0) throw manualErrors.noFiles();
  if (files.length > M.manualFiles) throw manualErrors.tooManyFiles();
  const total = files.reduce((n, f) => n + f.data.byteLength, 0);
  if (files.some((f) => f.truncated) || total >= M.manualBytes) throw manualErrors.tooLarge();
  const typed = files.map((f) => {
    const t = sniffDocument(f.data.subarray(0, 16));
    if (!t) throw manualErrors.badType(f.file_name);
    return { ...f, ...t };
  });
  if ([...extraText].length > M.manualTextMax) throw manualErrors.textTooLong();
  return typed;
}

const voiceView = (r: ManualVerificationRecord): VoiceManualVerification => ({
  request_id: r.request_id,
  extra_text: r.extra_text,
  request_time_unix: r.request_time_unix,
  files: r.files.map(({ object_key: _k, ...f }) => f),
  status: r.status,
  rejection_reason: r.rejection_reason,
});

/** POST /v1/voices/pvc/{voice_id}/verification */
export async function requestManualVerification(ctx: AppContext, caller: Caller, voiceId: string, files: ManualDocument[], extraText: string): Promise<ManualVerificationRecord> {
  const v = await ownPvcVoice(ctx, caller, voiceId);
  if (!canRequestManualVerification(await caller.tier())) throw manualErrors.notAllowed();
  const docs = checkManualRequest(files, extraText);
  if (!v.verification.requires_verification || v.verification.is_verified) throw manualErrors.alreadyVerified();
  if (v.manual_verification?.status === "pending") throw manualErrors.pending();
  const requestId = newId();
  const now = Math.floor(ctx.now() / 1000);
  const stored: ManualVerificationFile[] = [];
  for (const d of docs) {
    const fileId = newId();
    const objectKey = workspaceKey(caller.workspaceId, "voices", voiceId, "manual-verification", requestId, `${fileId}.${d.ext}`);
    await ctx.blobs.put(objectKey, d.data, d.mime);
    stored.push({ file_id: fileId, file_name: d.file_name.slice(0, 255), mime_type: d.mime, size_bytes: d.data.byteLength, upload_date_unix: now, object_key: objectKey });
  }
  const user = await caller.user();
  const record: ManualVerificationRecord = {
    request_id: requestId,
    workspace_id: caller.workspaceId,
    voice_id: voiceId,
    voice_name: v.name,
    user_id: caller.userId,
    email: user.email,
    extra_text: extraText,
    request_time_unix: now,
    files: stored,
    status: "pending",
    reviewed_by: null,
    reviewed_at_unix: null,
    rejection_reason: null,
    language: v.fine_tuning?.language ?? null,
    claimed_by: null,
    claimed_at_unix: null,
  };
  await ctx.stores.manualVerifications.put(record);
  await ctx.stores.voices.setManualVerification(caller.workspaceId, voiceId, voiceView(record), true);
  return record;
}

/** A request as administrators see it (no storage keys). */
export function requestWire(r: ManualVerificationRecord) {
  return { ...r, files: r.files.map(({ object_key: _k, ...f }) => f) };
}

/** GET /v1/admin/manual-verifications: every request, newest first (server administrators only). */
export async function listManualRequests(ctx: AppContext, caller: Caller, status?: ManualVerificationRecord["status"]) {
  await caller.requireServerAdmin();
  const all = await ctx.stores.manualVerifications.list();
  return all.filter((r) => !status || r.status === status).map(requestWire);
}

/** One document of a request, for an administrator to open. */
export async function manualRequestFile(ctx: AppContext, caller: Caller, requestId: string, fileId: string): Promise<{ bytes: Uint8Array; file: ManualVerificationFile }> {
  await caller.requireServerAdmin();
  const r = await ctx.stores.manualVerifications.get(requestId);
  const file = r?.files.find((f) => f.file_id === fileId);
  if (!r || !file) throw manualErrors.notFound();
  const o = await ctx.blobs.getBytes(file.object_key);
  if (!o) throw manualErrors.notFound();
  return { bytes: o.bytes, file };
}

/** Approve (the voice is verified) or reject with a reason; the user hears of it either way. */
export async function decideManualRequest(ctx: AppContext, caller: Caller, requestId: string, decision: ManualDecision) {
  await caller.requireServerAdmin();
  const r = await ctx.stores.manualVerifications.get(requestId);
  if (!r) throw manualErrors.notFound();
  return applyManualDecision(ctx, r, caller.userId, decision);
}

export type ManualDecision = { approve: true } | { approve: false; reason: string };

/**
 * Records a reviewer's decision on a pending request and carries it to the voice, the webhook and the user's
 * notification. `claimedBy`: a producer's decision holds only while they still hold the request (Producer Mode).
 */
export async function applyManualDecision(ctx: AppContext, r: ManualVerificationRecord, reviewerId: string, decision: ManualDecision, claimedBy?: string) {
  if (r.status !== "pending") throw manualErrors.decided();
  const now = Math.floor(ctx.now() / 1000);
  const decided = await ctx.stores.manualVerifications.decide(
    r,
    { status: decision.approve ? "approved" : "rejected", reviewed_by: reviewerId, reviewed_at_unix: now, rejection_reason: decision.approve ? null : decision.reason },
    claimedBy,
  );
  if (!decided) throw manualErrors.decided();
  let voice = await ctx.stores.voices.get(r.workspace_id, r.voice_id);
  if (!voice) return requestWire(decided);
  if (decision.approve) {
    for (let tries = 0; tries < 10; tries++) {
      const next = { ...voice.verification, is_verified: true, challenge: null };
      if (await ctx.stores.voices.casVerification(r.workspace_id, r.voice_id, voice.verification_rev ?? 0, next)) break;
      voice = await ctx.stores.voices.get(r.workspace_id, r.voice_id);
      if (!voice) return requestWire(decided);
    }
  }
  await ctx.stores.voices.setManualVerification(r.workspace_id, r.voice_id, voiceView(decided), false);
  const reasons = decision.approve ? [] : [decision.reason];
  await emitEvent(
    ctx,
    r.workspace_id,
    "voice_verification_result",
    { voice_id: r.voice_id, method: "manual", request_id: r.request_id, accepted: decision.approve, reasons, attempts_left: attemptWindow(voice.verification, ctx.now()).left },
    { userId: r.user_id },
  );
  await ctx.stores.engagement.putUserNotification(r.user_id, {
    id: newId(),
    title: decision.approve ? pvcMessages.manualApprovedTitle(voice.name) : pvcMessages.manualRejectedTitle(voice.name),
    description: decision.approve ? pvcMessages.manualApprovedText : `${pvcMessages.manualRejectedIntro} ${decision.reason}`,
    timestamp: now,
    large_image: null,
    small_image: null,
    // The wizard in verify mode: on to Finish when approved, the reason and the screen when not.
    link_to: `/app/voice-lab?mode=create&creationType=professionalVoiceClone&createdVoiceId=${encodeURIComponent(r.voice_id)}&pvcMode=verify`,
    is_important: false,
    feature_flag_controlled: null,
    tiers: ["all"],
    onboarding_personas: ["all"],
    created_by: reviewerId,
    posted_ms: ctx.now(),
  });
  return requestWire(decided);
}
