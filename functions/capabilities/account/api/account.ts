import { z } from "zod";
import type { ApiRouter } from "../../../platform/http/app.js";
import { bytes, json } from "../../../platform/http/types.js";
import { jsonBody } from "../../../platform/http/validate.js";
import { ApiError } from "../../../platform/http/errors.js";
import type { Caller } from "../../../platform/domain/caller.js";
import { PASSWORD_MAX, PASSWORD_MIN, messages } from "../../../platform/contract/accounts.js";
import { publicKey } from "../../../platform/adapters/s3.js";
import {
  changePassword,
  disableTwoFactor,
  enableTwoFactor,
  listSessions,
  regenerateBackupCodes,
  removePhoto,
  setPhoto,
  signOutOthers,
  signOutSession,
  startTwoFactorSetup,
  twoFactorStatus,
  updateProfile,
} from "../service.js";

const Code = z.object({ code: z.string().trim().min(1).max(32) });
const NewPassword = z.string().min(PASSWORD_MIN, messages.passwordTooShort).max(PASSWORD_MAX, messages.passwordTooLong);

/** Password, sessions and two-factor change only from a signed-in browser, never with an API key. */
function requireSession(caller: Caller): void {
  if (caller.principal.via !== "session") throw new ApiError(403, "session_required", "This can only be changed from the web app while signed in.");
}

/** The profile and security settings of the signed-in user (Timbre's; not part of the hosted API). */
export function registerAccount(r: ApiRouter): void {
  r.patch("/v1/user/profile", async (req, rc) => {
    const input = jsonBody(req, z.object({ first_name: z.string().trim().max(80).nullable() }));
    await updateProfile(rc.app, await rc.caller(), input);
    return json({ status: "ok" });
  });

  // The onboarding survey's answer (Timbre's; the hosted product asks it at sign-up): a role and an optional subrole, slugs.
  r.put("/v1/user/onboarding-survey", async (req, rc) => {
    const slug = z.string().trim().toLowerCase().min(1).max(40).regex(/^[a-z0-9_-]+$/, "Use letters, digits, '-' and '_'");
    const input = jsonBody(req, z.object({ role: slug, subrole: slug.nullish() }));
    const caller = await rc.caller();
    await rc.app.stores.users.update(caller.userId, { onboarding_survey: { role: input.role, subrole: input.subrole ?? null } });
    return json({ status: "ok" });
  });

  r.put("/v1/user/photo", async (req, rc) => json({ photo_url: await setPhoto(rc.app, await rc.caller(), new Uint8Array(req.body)) }));
  r.delete("/v1/user/photo", async (_req, rc) => {
    await removePhoto(rc.app, await rc.caller());
    return json({ status: "ok" });
  });

  // Photos load in <img>, which sends no credentials; their ids are unguessable.
  r.get("/v1/photos/:photo_id", async (req, rc) => {
    const got = await rc.app.blobs.getBytes(publicKey("photos", `${req.params.photo_id}.jpg`));
    if (!got) throw new ApiError(404, "photo_not_found", "No such photo.");
    return bytes(got.bytes, "image/jpeg", { "cache-control": "public, max-age=86400, immutable", "x-content-type-options": "nosniff" });
  });

  r.post("/v1/user/password", async (req, rc) => {
    const caller = await rc.caller();
    requireSession(caller);
    const input = jsonBody(req, z.object({ current_password: z.string().min(1).max(PASSWORD_MAX), new_password: NewPassword }));
    return json({ status: "ok", signed_out_sessions: await changePassword(rc.app, caller, input) });
  });

  r.get("/v1/user/sessions", async (_req, rc) => {
    const caller = await rc.caller();
    requireSession(caller);
    return json({ sessions: await listSessions(rc.app, caller) });
  });
  r.post("/v1/user/sessions/sign-out-others", async (_req, rc) => {
    const caller = await rc.caller();
    requireSession(caller);
    return json({ status: "ok", signed_out_sessions: await signOutOthers(rc.app, caller) });
  });
  r.delete("/v1/user/sessions/:session_id", async (req, rc) => {
    const caller = await rc.caller();
    requireSession(caller);
    await signOutSession(rc.app, caller, req.params.session_id);
    return json({ status: "ok" });
  });

  r.get("/v1/user/two-factor", async (_req, rc) => json(twoFactorStatus(await (await rc.caller()).user())));
  r.post("/v1/user/two-factor/setup", async (_req, rc) => {
    const caller = await rc.caller();
    requireSession(caller);
    return json(await startTwoFactorSetup(rc.app, caller));
  });
  r.post("/v1/user/two-factor/enable", async (req, rc) => {
    const caller = await rc.caller();
    requireSession(caller);
    return json(await enableTwoFactor(rc.app, caller, jsonBody(req, Code).code));
  });
  r.post("/v1/user/two-factor/disable", async (req, rc) => {
    const caller = await rc.caller();
    requireSession(caller);
    await disableTwoFactor(rc.app, caller, jsonBody(req, Code.extend({ password: z.string().min(1).max(PASSWORD_MAX) })));
    return json({ status: "ok" });
  });
  r.post("/v1/user/two-factor/backup-codes", async (req, rc) => {
    const caller = await rc.caller();
    requireSession(caller);
    return json(await regenerateBackupCodes(rc.app, caller, jsonBody(req, Code).code));
  });
}
