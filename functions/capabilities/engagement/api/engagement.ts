import { z } from "zod";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { jsonBody, q, queryParams } from "../../../platform/http/validate.js";
import { ApiError } from "../../../platform/http/errors.js";
import { markNotificationShown, NOTIFICATIONS_LIMIT, notificationsFor, notificationWire, postNotification } from "../notifications.js";
import { FEEDBACK_MAX_CHARS, submitFeedback } from "../feedback.js";
import { checklist, checklistWire, hideChecklist } from "../onboarding.js";
import { generateAffiliateLink } from "../affiliate.js";
import { TIER_IDS } from "../../../platform/domain/tiers.js";
import { INTERNAL_HEADER, isInternal } from "../../../platform/domain/internal.js";
import { clientIp } from "../../account/api/auth.js";
import { ClientErrorBody, countClientError, logClientError } from "../clientErrors.js";

const FEEDBACK_EMPTY = "Please enter your feedback";

/** Notifications, feedback, the onboarding checklist and the affiliate link (Timbre's; the shell's calls of app-shell.md §7). */
export function registerEngagement(r: ApiRouter): void {
  r.onInvalidParam("notification_id", () => new ApiError(404, "notification_not_found", "No such notification."));

  r.get("/v1/notifications", async (req, rc) => {
    const { limit } = queryParams(req, z.object({ limit: q.int(1, 50).default(NOTIFICATIONS_LIMIT) }));
    return json({ docs: (await notificationsFor(rc.app, await rc.caller(), limit)).map(notificationWire) });
  });

  r.post("/v1/notifications", async (req, rc) => {
    const input = jsonBody(
      req,
      z.object({
        title: z.string().trim().min(1).max(120),
        description: z.string().trim().min(1).max(1000),
        link_to: z.string().trim().max(500).regex(/^(\/|https:\/\/)/, "A link is a path on this site or an https URL").nullish(),
        is_important: z.boolean().optional(),
        tiers: z.array(z.enum(["all", ...TIER_IDS])).max(10).optional(),
        /** "all", or onboarding roles and subroles (the user's onboarding_survey). */
        onboarding_personas: z.array(z.string().trim().toLowerCase().min(1).max(40).regex(/^[a-z0-9_-]+$/)).max(20).optional(),
        timestamp: z.number().int().min(0).nullish(),
        image_url: z.string().max(500).regex(/^(\/|https:\/\/)/).nullish(),
        image_alt: z.string().max(200).nullish(),
      }),
    );
    return json(notificationWire(await postNotification(rc.app, await rc.caller(), input)), 201);
  });

  // Timbre's: the shell says when it first showed a flag-controlled notification (app-shell.md §4); later calls keep the first time.
  r.post("/v1/notifications/:notification_id/shown", async (req, rc) => {
    const first = await markNotificationShown(rc.app, await rc.caller(), req.params.notification_id);
    if (first === null) throw new ApiError(404, "notification_not_found", "No such notification.");
    return json({ notification_id: req.params.notification_id, first_shown: first });
  });

  r.delete("/v1/notifications/:notification_id", async (req, rc) => {
    const caller = await rc.caller();
    await caller.requireServerAdmin();
    if (!(await rc.app.stores.engagement.deleteNotification(req.params.notification_id))) throw new ApiError(404, "notification_not_found", "No such notification.");
    return json({ status: "ok" });
  });

  r.post("/v1/feedback", async (req, rc) => {
    const { feedback } = jsonBody(req, z.object({ feedback: z.string().trim().min(1, FEEDBACK_EMPTY).max(FEEDBACK_MAX_CHARS) }));
    return json(await submitFeedback(rc.app, await rc.caller(), feedback));
  });

  r.get("/v1/feedback", async (_req, rc) => {
    const caller = await rc.caller();
    await caller.requireServerAdmin();
    return json({ feedback: await rc.app.stores.engagement.feedback() });
  });

  // The web app's errors, to the server's log (Timbre's; not part of the hosted API). A signed-in
  // user's page reports with its session; a visitor's through the web server, which vouches for
  // the address (INTERNAL_HEADER). Counted before the body is read.
  r.post("/v1/client-errors", async (req, rc) => {
    const ctx = rc.app;
    const signedIn = Boolean(req.headers["xi-api-key"] || req.headers.authorization);
    if (!signedIn && !isInternal(ctx.secrets.session, req.headers[INTERNAL_HEADER])) throw new ApiError(401, "invalid_api_key", "Missing API key. Send it in the xi-api-key header.");
    const caller = signedIn ? await rc.caller() : undefined;
    const address = clientIp(ctx, req);
    countClientError(ctx, caller ? `user:${caller.userId}` : `address:${address}`);
    const report = jsonBody(req, ClientErrorBody);
    logClientError(ctx, report, { userId: caller?.userId, workspaceId: caller?.workspaceId, address });
    return json({ status: "ok" });
  });

  r.get("/v1/user/onboarding-checklist", async (_req, rc) => {
    const caller = await rc.caller();
    return json(checklistWire(await checklist(rc.app, caller)));
  });

  r.patch("/v1/user/onboarding-checklist", async (req, rc) => {
    const { hidden } = jsonBody(req, z.object({ hidden: z.boolean() }));
    await hideChecklist(rc.app, await rc.caller(), hidden);
    return json({ status: "ok" });
  });

  r.post("/v1/user/affiliate-link", async (_req, rc) => json(await generateAffiliateLink(rc.app, await rc.caller())));
}
