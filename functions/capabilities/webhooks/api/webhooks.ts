import { z } from "zod";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { jsonBody, q, queryParams } from "../../../platform/http/validate.js";
import { createWebhook, deleteWebhook, managedWebhook, managedWebhooks, sendTestEvent, updateWebhook, webhookNotFound, webhookWire } from "../manage.js";
import { MAX_URL_LENGTH } from "../targets.js";
import { shownError } from "../dispatch.js";

const Headers = z.record(z.string().max(1024).nullish()).nullish();
const Events = z.array(z.string().max(64)).max(32).nullish();
const Name = z.string().trim().min(1, "Please give the webhook a name").max(100);
const Url = z.string().trim().min(1).max(MAX_URL_LENGTH);

const CreateBody = z.object({
  settings: z.object({ auth_type: z.literal("hmac"), name: Name, webhook_url: Url, request_headers: Headers }),
  // Timbre's: the events it wants from the start (default: all) and retries (default on).
  events: Events,
  retry_enabled: z.boolean().nullish(),
});
const PatchBody = z.object({
  is_disabled: z.boolean(),
  name: Name,
  retry_enabled: z.boolean().nullish(),
  request_headers: Headers,
  events: Events,
  webhook_url: Url.nullish(),
});

/** Webhooks (contract §12), plus the delivery log and "Send test event" of the Webhooks page. */
export function registerWebhooks(r: ApiRouter): void {
  r.onInvalidParam("webhook_id", webhookNotFound);

  r.get("/v1/workspace/webhooks", async (req, rc) => {
    queryParams(req, z.object({ include_usages: q.bool().optional() }));
    const caller = await rc.caller();
    return json({ webhooks: (await managedWebhooks(rc.app, caller)).map(webhookWire) });
  });

  r.post("/v1/workspace/webhooks", async (req, rc) => {
    const b = jsonBody(req, CreateBody);
    const created = await createWebhook(rc.app, await rc.caller(), { ...b.settings, events: b.events, retry_enabled: b.retry_enabled });
    return json(created);
  });

  r.patch("/v1/workspace/webhooks/:webhook_id", async (req, rc) => {
    await updateWebhook(rc.app, await rc.caller(), req.params.webhook_id, jsonBody(req, PatchBody));
    return json({ status: "ok" });
  });

  r.delete("/v1/workspace/webhooks/:webhook_id", async (req, rc) => {
    await deleteWebhook(rc.app, await rc.caller(), req.params.webhook_id);
    return json({ status: "ok" });
  });

  r.post("/v1/workspace/webhooks/:webhook_id/test", async (req, rc) => json(await sendTestEvent(rc.app, await rc.caller(), req.params.webhook_id), 202));

  r.get("/v1/workspace/webhooks/:webhook_id/deliveries", async (req, rc) => {
    const { limit } = queryParams(req, z.object({ limit: q.int(1, 100).default(50) }));
    const caller = await rc.caller();
    const w = await managedWebhook(rc.app, caller, req.params.webhook_id);
    const deliveries = await rc.app.stores.webhooks.deliveries(caller.workspaceId, w.webhook_id, limit);
    return json({
      webhook: webhookWire(w),
      deliveries: deliveries.map((d) => ({
        delivery_id: d.delivery_id,
        event_id: d.event_id,
        event_type: d.event_type,
        state: d.state,
        attempts: d.attempts,
        created_at_unix: Math.floor(d.created_ms / 1000),
        next_attempt_unix: d.next_attempt_ms === null ? null : Math.floor(d.next_attempt_ms / 1000),
        last_status: d.last_status,
        last_error: shownError(d.last_status, d.last_error),
        log: d.log.map((a) => ({ ...a, error: shownError(a.status, a.error) })),
      })),
    });
  });
}
