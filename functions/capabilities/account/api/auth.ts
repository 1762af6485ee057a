import type { AppContext } from "../../../platform/context.js";
import { authenticate, createAccount, createSession, SignInSchema, SignUpSchema } from "../../../platform/domain/accounts.js";
import { INTERNAL_HEADER, isInternal } from "../../../platform/domain/internal.js";
import { ApiError } from "../../../platform/http/errors.js";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json, type ApiRequest } from "../../../platform/http/types.js";
import { jsonBody } from "../../../platform/http/validate.js";
import { z } from "zod";
import { normaliseEmail } from "../../../platform/stores/users.js";
import { acceptInvite, inviteByToken } from "../../workspace/members.js";
import { workspaceMessages } from "../../../platform/contract/workspace.js";
import { checkSecondFactor, issueChallenge, userOfChallenge } from "../service.js";

const SIGN_UPS_PER_IP_PER_HOUR = 20;

/** The browser's address: the socket's, or the one the web server forwards with its proof. */
export function clientIp(ctx: AppContext, req: ApiRequest): string {
  if (isInternal(ctx.secrets.session, req.headers[INTERNAL_HEADER])) {
    const forwarded = req.headers["x-forwarded-for"]?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return req.sourceIp;
}

/** Account endpoints behind the web's sign-up and sign-in forms (not part of the hosted API). */
export function registerAuth(r: ApiRouter): void {
  r.post("/v1/auth/sign-up", async (req, rc) => {
    const ctx = rc.app;
    if (!ctx.config.signupEnabled) throw new ApiError(403, "signup_disabled", "Sign-up is disabled on this server.");
    const input = jsonBody(req, SignUpSchema.extend({ invite_token: z.string().max(128).nullish() }));
    // Signing up through an invite link joins that workspace (the invite names the address).
    const invite = input.invite_token ? await inviteByToken(ctx, input.invite_token) : undefined;
    if (invite && normaliseEmail(input.email) !== invite.email) throw new ApiError(403, "invite_other_email", workspaceMessages.inviteOtherEmail(invite.email));
    const ip = clientIp(ctx, req);
    const now = Math.floor(ctx.now() / 1000);
    if ((await ctx.stores.ledger.hit("signup-ip", ip, 3600, now)) > SIGN_UPS_PER_IP_PER_HOUR) {
      throw new ApiError(429, "too_many_sign_ups", "Too many accounts were created from this address. Please try again later.", { "retry-after": "3600" });
    }
    const { user, workspace } = await createAccount(ctx, { email: input.email, password: input.password, firstName: input.first_name, joinWorkspaceId: invite?.workspace_id });
    if (invite) await acceptInvite(ctx, invite, user);
    const { sessionId, session } = await createSession(ctx, user, req.headers["user-agent"] ?? "");
    return json({ session_id: sessionId, user_id: user.user_id, workspace_id: workspace.workspace_id, expires_at_unix: session.expires_at }, 201);
  });

  r.post("/v1/auth/sign-in", async (req, rc) => {
    const input = jsonBody(req, SignInSchema);
    const user = await authenticate(rc.app, { email: input.email, password: input.password, ip: clientIp(rc.app, req) });
    // With two-factor on, the password only earns a challenge; the code then earns the session.
    if (user.two_factor) return json({ two_factor_required: true, challenge: issueChallenge(rc.app, user) });
    const { sessionId, session } = await createSession(rc.app, user, req.headers["user-agent"] ?? "");
    return json({ session_id: sessionId, user_id: user.user_id, workspace_id: session.workspace_id, expires_at_unix: session.expires_at });
  });

  r.post("/v1/auth/sign-in/two-factor", async (req, rc) => {
    const input = jsonBody(req, z.object({ challenge: z.string().min(1).max(1024), code: z.string().trim().min(1).max(32) }));
    const user = await userOfChallenge(rc.app, input.challenge);
    await checkSecondFactor(rc.app, user, input.code);
    const { sessionId, session } = await createSession(rc.app, user, req.headers["user-agent"] ?? "");
    return json({ session_id: sessionId, user_id: user.user_id, workspace_id: session.workspace_id, expires_at_unix: session.expires_at });
  });

  r.post("/v1/auth/sign-out", async (_req, rc) => {
    const caller = await rc.caller();
    if (caller.principal.sessionHash) await rc.app.stores.sessions.delete(caller.principal.sessionHash);
    return json({ status: "ok" });
  });
}
