import type { AppContext } from "../context.js";
import { newId } from "../adapters/ids.js";
import type { EventRecord } from "../stores/events.js";

/**
 * Events for webhooks. Emitting writes one durable record (main table, under the workspace the
 * event concerns) that is already on the webhook queue, then nudges the dispatcher; delivery
 * itself never happens in the request that caused the event. Payloads are documented in
 * docs/webhooks.md, one section per type.
 */
export { EVENT_TYPES, isEventType, type EventType } from "./types.js";
import type { EventType } from "./types.js";

export interface EmitOptions {
  /** The member the event concerns: their personal webhooks get it too. */
  userId?: string | null;
  /** Deliver to this webhook only (and regardless of its event filter): "Send test event". */
  onlyWebhookId?: string;
}

/** The dispatcher's workflow (workflows/webhook-dispatch.ts). */
export const DISPATCH_WORKFLOW = "webhook-dispatch";

/** Starts a dispatch soon; at most one start per second, and a failure only delays delivery until the next scheduled run. */
export function kickDispatcher(ctx: AppContext): void {
  const second = Math.floor(Date.now() / 1000);
  ctx.workflows.start(DISPATCH_WORKFLOW, {}, `dispatch-${second}`).catch((e: unknown) => ctx.log.warn("could not start the webhook dispatcher", { error: e }));
}

export async function emitEvent(ctx: AppContext, workspaceId: string, type: EventType, data: Record<string, unknown>, opts: EmitOptions = {}): Promise<EventRecord> {
  const nowMs = ctx.now();
  const event: EventRecord = {
    event_id: newId(),
    type,
    workspace_id: workspaceId,
    user_id: opts.userId ?? null,
    event_timestamp: Math.floor(nowMs / 1000),
    created_ms: nowMs,
    data,
    delivery: { state: "pending" },
    only_webhook_id: opts.onlyWebhookId ?? null,
  };
  await ctx.stores.events.put(event);
  kickDispatcher(ctx);
  return event;
}
