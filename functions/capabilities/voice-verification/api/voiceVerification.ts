import type { ApiRouter, RouteContext } from "../../../platform/http/app.js";
import type { ApiRequest, ApiResponse } from "../../../platform/http/types.js";
import { bytes, json } from "../../../platform/http/types.js";
import { parseMultipart } from "../../../platform/http/multipart.js";
import { queryParams } from "../../../platform/http/validate.js";
import { z } from "zod";
import { VERIFICATION_MAX_BYTES } from "../../../platform/contract/voiceCreation.js";
import { alreadyVerified, maxAttemptsReached, DECISION_WAIT_MS, decisionResponse, submitAttempt, verificationState, VerificationFailedError, waitForDecision, type AttemptKind } from "../attempts.js";
import { randomInt } from "node:crypto";
import { runCpu } from "../../../platform/offload/index.js";

/**
 * Voice verification (Timbre's API for instant clones; the SDK has none): the sentence to read
 * and the attempts left, and submitting a recording, which runs the voice-verification
 * workflow and waits a few seconds for its decision. The professional clone's captcha calls
 * (the SDK's `voices.pvc.verification.captcha`) run the same workflow with an image to read.
 */
/** `wait`: seconds to wait for the decision before answering 202 (default 8, at most 30). */
const SubmitQuery = z.object({ wait: z.coerce.number().min(0).max(30).default(DECISION_WAIT_MS / 1000) });

async function submit(req: ApiRequest, rc: RouteContext, kind: AttemptKind): Promise<ApiResponse> {
  const caller = await rc.caller();
  const { wait } = queryParams(req, SubmitQuery);
  const form = await parseMultipart(req, { maxFileBytes: VERIFICATION_MAX_BYTES, maxFiles: 1, maxFields: 5, maxFieldBytes: 1024 });
  const file = form.files.find((f) => f.field === "recording");
  const { attempt } = await submitAttempt(rc.app, caller, req.params.voice_id, file, kind);
  const decided = await waitForDecision(rc.app, caller.workspaceId, req.params.voice_id, attempt.attempt_id!, wait * 1000);
  if (!decided) return json({ status: "pending", attempt_id: attempt.attempt_id }, 202);
  const d = decisionResponse(decided.voice, decided.attempt, rc.app.now());
  if (d.status === "failed") throw new VerificationFailedError(d.detail);
  return json(kind === "captcha" ? { status: "ok" } : d);
}

export function registerVoiceVerification(r: ApiRouter): void {
  r.get("/v1/voices/:voice_id/verification", async (req, rc) => json(await verificationState(rc.app, await rc.caller(), req.params.voice_id)));
  r.post("/v1/voices/:voice_id/verification", (req, rc) => submit(req, rc, "text"));

  r.get("/v1/voices/pvc/:voice_id/captcha", async (req, rc) => {
    const state = await verificationState(rc.app, await rc.caller(), req.params.voice_id, { captcha: true });
    if (!state.text) throw state.is_verified || !state.requires_verification ? alreadyVerified() : maxAttemptsReached();
    // A new drawing on every call (the words stay until an attempt uses them), off the request loop.
    const png = await runCpu("captcha", { text: state.text, seed: randomInt(0, 2 ** 32) });
    return bytes(Buffer.from(png.buffer, png.byteOffset, png.byteLength), "image/png", { "cache-control": "no-store" });
  });
  r.post("/v1/voices/pvc/:voice_id/captcha", (req, rc) => submit(req, rc, "captcha"));
}
