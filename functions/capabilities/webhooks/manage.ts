import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { WebhookRecord } from "../../platform/stores/webhooks.js";
import { newId } from "../../platform/adapters/ids.js";
import { ApiError } from "../../platform/http/errors.js";
import { emitEvent, isEventType } from "../../platform/events/index.js";
import { encryptSecret, newWebhookSecret } from "./secrets.js";
import { checkUrl, resolveTarget, TargetRefused } from "./targets.js";
import { webhookMessages as m } from "./messages.js";
import { headerRule } from "./headers.js";

/**
 * The webhook management API (contract §12) and what the Webhooks page adds to it. Workspace
 * admins manage the workspace's webhooks (every event of the workspace); other members manage
 * their personal webhooks (the events of their own jobs), as the settings navigation says.
 */
export const MAX_WORKSPACE_WEBHOOKS = 20;
export const MAX_PERSONAL_WEBHOOKS = 5;
export const MAX_REQUEST_HEADERS = 10;

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;

export const webhookNotFound = (id: string) => new ApiError(404, "webhook_not_found", m.notFound(id));

const policy = (ctx: AppContext) => ctx.config.webhooks;

async function scopeOf(caller: Caller): Promise<{ scope: "workspace" | "personal"; owner: string }> {
  return (await caller.isAdmin()) ? { scope: "workspace", owner: caller.userId } : { scope: "personal", owner: caller.userId };
}

/** The webhooks the caller manages: the workspace's for admins, their own personal ones otherwise. */
export async function managedWebhooks(ctx: AppContext, caller: Caller): Promise<WebhookRecord[]> {
  const { scope, owner } = await scopeOf(caller);
  const all = await ctx.stores.webhooks.list(caller.workspaceId);
  return all
    .filter((w) => w.scope === scope && (scope === "workspace" || w.owner_user_id === owner))
    .sort((a, b) => a.created_at_unix - b.created_at_unix || a.name.localeCompare(b.name));
}

export async function managedWebhook(ctx: AppContext, caller: Caller, id: string): Promise<WebhookRecord> {
  const w = (await managedWebhooks(ctx, caller)).find((x) => x.webhook_id === id);
  if (!w) throw webhookNotFound(id);
  return w;
}

function cleanHeaders(input: Record<string, string | null | undefined> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(input ?? {})) {
    if (value === null || value === undefined) continue;
    if (!HEADER_NAME.test(name) || /[\r\n\0]/.test(value) || value.length > 1024) throw new ApiError(400, "invalid_request_header", `The request header ${name.slice(0, 64)} is not valid.`);
    const rule = headerRule(name);
    if (rule) throw new ApiError(400, "invalid_request_header", rule === "reserved" ? m.headerNotAllowed(name) : m.headerForbidden(name));
    out[name] = value;
  }
  if (Object.keys(out).length > MAX_REQUEST_HEADERS) throw new ApiError(400, "invalid_request_header", `At most ${MAX_REQUEST_HEADERS} request headers.`);
  return out;
}

function cleanEvents(events: string[] | null | undefined): string[] | null {
  if (events === null || events === undefined) return null;
  const unknown = events.filter((e) => !isEventType(e));
  if (unknown.length) throw new ApiError(400, "unknown_event_type", `Unknown event type: ${unknown.join(", ")}.`);
  return [...new Set(events)];
}

/** The URL's form, and (best effort) what its host resolves to now; delivery checks again every time. */
async function checkTarget(ctx: AppContext, raw: string): Promise<string> {
  const url = checkUrl(raw, policy(ctx));
  try {
    await resolveTarget(url, policy(ctx));
  } catch (e) {
    // A host that does not resolve yet may later; one that resolves to a forbidden address is refused now.
    if (e instanceof TargetRefused && e.message === m.privateTarget) throw new ApiError(400, "webhook_target_not_allowed", m.privateTarget);
  }
  return url.toString();
}

export async function createWebhook(
  ctx: AppContext,
  caller: Caller,
  input: { name: string; webhook_url: string; request_headers?: Record<string, string | null | undefined> | null; events?: string[] | null; retry_enabled?: boolean | null },
): Promise<{ webhook_id: string; webhook_secret: string }> {
  const { scope, owner } = await scopeOf(caller);
  const max = scope === "workspace" ? MAX_WORKSPACE_WEBHOOKS : MAX_PERSONAL_WEBHOOKS;
  if ((await managedWebhooks(ctx, caller)).length >= max) throw new ApiError(400, "webhook_limit_reached", m.limitReached(max));
  const url = await checkTarget(ctx, input.webhook_url);
  const secret = newWebhookSecret();
  const w: WebhookRecord = {
    webhook_id: newId(),
    workspace_id: caller.workspaceId,
    scope,
    owner_user_id: owner,
    name: input.name,
    webhook_url: url,
    auth_type: "hmac",
    secret_enc: encryptSecret(ctx.secrets.session, secret),
    request_headers: cleanHeaders(input.request_headers),
    events: cleanEvents(input.events),
    retry_enabled: input.retry_enabled ?? true,
    is_disabled: false,
    is_auto_disabled: false,
    created_at_unix: Math.floor(ctx.now() / 1000),
    consecutive_failures: 0,
    failing_since_unix: null,
    most_recent_failure_error_code: null,
    most_recent_failure_timestamp: null,
  };
  await ctx.stores.webhooks.create(w);
  return { webhook_id: w.webhook_id, webhook_secret: secret };
}

export async function updateWebhook(
  ctx: AppContext,
  caller: Caller,
  id: string,
  input: {
    name: string;
    is_disabled: boolean;
    retry_enabled?: boolean | null;
    request_headers?: Record<string, string | null | undefined> | null;
    events?: string[] | null;
    webhook_url?: string | null;
  },
): Promise<WebhookRecord> {
  const w = await managedWebhook(ctx, caller, id);
  const enabling = !input.is_disabled && (w.is_disabled || w.is_auto_disabled);
  const next = await ctx.stores.webhooks.patch(caller.workspaceId, id, {
    name: input.name,
    is_disabled: input.is_disabled,
    // Enabling again clears an automatic disable and its failure count: a fresh start.
    ...(enabling ? { is_auto_disabled: false, consecutive_failures: 0, failing_since_unix: null } : {}),
    retry_enabled: input.retry_enabled ?? undefined,
    request_headers: input.request_headers === undefined || input.request_headers === null ? undefined : cleanHeaders(input.request_headers),
    events: input.events === undefined ? undefined : cleanEvents(input.events),
    webhook_url: input.webhook_url ? await checkTarget(ctx, input.webhook_url) : undefined,
  });
  if (!next) throw webhookNotFound(id);
  return next;
}

export async function deleteWebhook(ctx: AppContext, caller: Caller, id: string): Promise<void> {
  await managedWebhook(ctx, caller, id);
  await ctx.stores.webhooks.delete(caller.workspaceId, id);
}

/** "Send test event" may be pressed this often per webhook, and per workspace, in a minute. */
export const TESTS_PER_WEBHOOK_PER_MINUTE = 5;
export const TESTS_PER_WORKSPACE_PER_MINUTE = 20;

/** "Send test event": a webhook_test event for this webhook only, through the same queue as every event. */
export async function sendTestEvent(ctx: AppContext, caller: Caller, id: string): Promise<{ event_id: string }> {
  const w = await managedWebhook(ctx, caller, id);
  const now = Math.floor(ctx.now() / 1000);
  const retryAfter = { "retry-after": String(60 - (now % 60)) };
  const hookKey = `${caller.workspaceId}.${w.webhook_id}`;
  if ((await ctx.stores.ledger.takeAttempt("webhook-test", hookKey, 60, now, TESTS_PER_WEBHOOK_PER_MINUTE)) === undefined) {
    throw new ApiError(429, "too_many_test_events", m.tooManyTests(TESTS_PER_WEBHOOK_PER_MINUTE), retryAfter);
  }
  if ((await ctx.stores.ledger.takeAttempt("webhook-test-workspace", caller.workspaceId, 60, now, TESTS_PER_WORKSPACE_PER_MINUTE)) === undefined) {
    // Not sent: the webhook's own count gives the attempt back.
    await ctx.stores.ledger.returnAttempt("webhook-test", hookKey, 60, now).catch(() => undefined);
    throw new ApiError(429, "too_many_test_events", m.tooManyWorkspaceTests(TESTS_PER_WORKSPACE_PER_MINUTE), retryAfter);
  }
  const e = await emitEvent(ctx, caller.workspaceId, "webhook_test", { webhook_id: w.webhook_id, webhook_name: w.name, message: "This is a test event from Timbre." }, { userId: caller.userId, onlyWebhookId: w.webhook_id });
  return { event_id: e.event_id };
}

export function webhookWire(w: WebhookRecord) {
  return {
    name: w.name,
    webhook_id: w.webhook_id,
    webhook_url: w.webhook_url,
    is_disabled: w.is_disabled,
    is_auto_disabled: w.is_auto_disabled,
    created_at_unix: w.created_at_unix,
    auth_type: w.auth_type,
    usage: null,
    events: w.events,
    most_recent_failure_error_code: w.most_recent_failure_error_code,
    most_recent_failure_timestamp: w.most_recent_failure_timestamp,
    // Timbre's: what the Webhooks page shows. Header values stay hidden (they often hold credentials).
    retry_enabled: w.retry_enabled,
    scope: w.scope,
    request_header_names: Object.keys(w.request_headers),
    consecutive_failures: w.consecutive_failures,
  };
}
