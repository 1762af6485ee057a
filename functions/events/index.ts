import type { AppContext } from "../context.js";
import { newId } from "../adapters/ids.js";
import type { EventRecord } from "../adapters/dynamo/events.js";

/**
 * Events for webhooks. Emitting writes a durable record (main table, under the workspace the
 * event concerns); the webhook issue delivers pending records and marks them. Payloads are
 * documented in ./README.md, one section per type.
 */
export const EVENT_TYPES = ["voice_library_removal_notice", "speaker_separation_finished", "fine_tuning_finished", "fine_tuning_failed"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export async function emitEvent(ctx: AppContext, workspaceId: string, type: EventType, data: Record<string, unknown>): Promise<EventRecord> {
  const event: EventRecord = {
    event_id: newId(),
    type,
    workspace_id: workspaceId,
    event_timestamp: Math.floor(ctx.now() / 1000),
    data,
    delivery: { state: "pending", attempts: 0 },
  };
  await ctx.stores.events.put(event);
  return event;
}
