import { z } from "zod";
import type { ApiClient } from "../../lib/api.server.js";
import { OkWire } from "../../lib/api.server.js";

export const WebhookWire = z.object({
  name: z.string(),
  webhook_id: z.string(),
  webhook_url: z.string(),
  is_disabled: z.boolean(),
  is_auto_disabled: z.boolean(),
  created_at_unix: z.number(),
  events: z.array(z.string()).nullable(),
  most_recent_failure_error_code: z.number().nullable(),
  most_recent_failure_timestamp: z.number().nullable(),
  retry_enabled: z.boolean(),
  scope: z.enum(["workspace", "personal"]),
  request_header_names: z.array(z.string()),
});
export type Webhook = z.infer<typeof WebhookWire>;

const DeliveryWire = z.object({
  delivery_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  state: z.enum(["pending", "delivered", "failed", "skipped"]),
  attempts: z.number(),
  created_at_unix: z.number(),
  next_attempt_unix: z.number().nullable(),
  last_status: z.number().nullable(),
  last_error: z.string().nullable(),
});
export type Delivery = z.infer<typeof DeliveryWire>;

/** The Webhooks page's /v1 calls: contract §12 plus the delivery log and the test event. */
export function webhooks(client: ApiClient) {
  return {
    list: async () => (await client.call("/v1/workspace/webhooks", { schema: z.object({ webhooks: z.array(WebhookWire) }) })).webhooks,
    deliveries: async (id: string) => (await client.call(`/v1/workspace/webhooks/${encodeURIComponent(id)}/deliveries?limit=50`, { schema: z.object({ deliveries: z.array(DeliveryWire) }) })).deliveries,
    create: (input: { name: string; url: string; headers: Record<string, string>; events: string[] | null; retry: boolean }) =>
      client.call("/v1/workspace/webhooks", {
        method: "POST",
        body: { settings: { auth_type: "hmac", name: input.name, webhook_url: input.url, request_headers: input.headers }, events: input.events, retry_enabled: input.retry },
        schema: z.object({ webhook_id: z.string(), webhook_secret: z.string() }),
      }),
    update: (id: string, body: { name: string; is_disabled: boolean; events?: string[] | null; retry_enabled?: boolean }) =>
      client.call(`/v1/workspace/webhooks/${encodeURIComponent(id)}`, { method: "PATCH", body, schema: OkWire }),
    remove: (id: string) => client.call(`/v1/workspace/webhooks/${encodeURIComponent(id)}`, { method: "DELETE", schema: OkWire }),
    test: (id: string) => client.call(`/v1/workspace/webhooks/${encodeURIComponent(id)}/test`, { method: "POST", schema: z.object({ event_id: z.string() }) }),
  };
}
