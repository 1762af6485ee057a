import { STATUS_CODES } from "node:http";
import type { AppContext } from "../../platform/context.js";
import { QUEUE_SHARDS, type DeliveryAttempt, type DeliveryRecord, type QueueEntry, type WebhookRecord } from "../../platform/stores/webhooks.js";
import { MAX_ATTEMPT_LOG } from "../../platform/stores/webhooks.js";
import { sha256Hex } from "../../platform/adapters/ids.js";
import { SEND_TIMEOUT_MS, sendWebhook, type SendResult } from "../../platform/adapters/webhookSender.js";
import { decryptSecret } from "./secrets.js";
import { signatureHeader, SIGNATURE_HEADER } from "./signature.js";
import { resolveTarget, TargetRefused } from "./targets.js";
import { webhookMessages as m } from "./messages.js";
import { deliverableHeaders } from "./headers.js";

/**
 * The webhook dispatcher: takes what is due from the durable queue (adapters/dynamo/webhooks.ts)
 * and does it. An event is fanned out into one delivery per webhook that wants it (ids derived
 * from event and webhook, so a fan-out that runs twice creates nothing twice); a delivery is
 * attempted: signed at the moment of sending, and on a 5xx, a 429 or no answer retried with
 * exponential backoff (first retry after WEBHOOK_RETRY_BASE_SECONDS, 30 s by default, then three
 * times longer each time up to 6 hours apart, for up to 3 days) when the webhook has
 * retry_enabled. Other answers (3xx, 4xx) are final. A webhook that keeps failing, 10 attempts in
 * a row over at least an hour, is disabled automatically (is_auto_disabled).
 *
 * It runs as the `webhook-dispatch` workflow (started when an event is emitted and on a schedule),
 * never in the request that emitted the event. A claimed item is leased, so after a crash or a
 * kill it is simply taken again when the lease ends: nothing pending is lost, and a receiver may
 * see an event twice (the event_id stays the same), never none.
 */
export const LEASE_MS = SEND_TIMEOUT_MS + 20_000;
export const RETRY_WINDOW_SECONDS = 3 * 86_400;
export const MAX_RETRY_DELAY_SECONDS = 6 * 3600;
export const AUTO_DISABLE_FAILURES = 10;
export const AUTO_DISABLE_MIN_SECONDS = 3600;
const BATCH = 25;
const CONCURRENCY = 8;
export const USER_AGENT = "Timbre-Webhooks/1.0";

/** Seconds to wait after the `attempt`-th failed attempt (1-based). */
export function retryDelaySeconds(baseSeconds: number, attempt: number): number {
  return Math.min(MAX_RETRY_DELAY_SECONDS, baseSeconds * 3 ** Math.max(0, attempt - 1));
}

export const isRetryable = (r: Pick<SendResult, "status">) => r.status === null || r.status === 429 || r.status >= 500;

/**
 * The log's words for an answer that was not a success: the status's standard reason phrase, never
 * what the receiver sent (neither its body nor its own reason phrase).
 */
export const answerReason = (status: number) => STATUS_CODES[status] ?? (status >= 500 ? "Server Error" : status >= 400 ? "Client Error" : status >= 300 ? "Redirect" : "Unexpected Status");

/**
 * A logged error as the API shows it, for records written before the log kept only fixed reasons:
 * an answer's words become its status's reason, a low-level connection error the generic one.
 */
export function shownError(status: number | null, error: string | null): string | null {
  if (status !== null) return status >= 200 && status < 300 ? null : answerReason(status);
  if (error && (/^[A-Z][A-Z0-9_]+: /.test(error) || /^No response within/.test(error))) return m.connectionFailed;
  return error;
}

export const deliveryIdOf = (eventId: string, webhookId: string) => sha256Hex(`${eventId}.${webhookId}`).slice(0, 24);

/** The JSON body every attempt of the event's deliveries sends. */
export function envelope(e: { type: string; event_id: string; event_timestamp: number; data: Record<string, unknown> }): string {
  return JSON.stringify({ type: e.type, event_id: e.event_id, event_timestamp: e.event_timestamp, data: e.data });
}

function wants(w: WebhookRecord, e: { type: string; user_id: string | null }): boolean {
  if (w.is_disabled || w.is_auto_disabled) return false;
  if (w.events && !w.events.includes(e.type)) return false;
  return w.scope === "workspace" || (e.user_id !== null && w.owner_user_id === e.user_id);
}

async function fanOut(ctx: AppContext, entry: QueueEntry): Promise<void> {
  const event = await ctx.stores.events.get(entry.pk, entry.sk);
  if (!event) return;
  const webhooks = await ctx.stores.webhooks.list(event.workspace_id);
  const targets = event.only_webhook_id ? webhooks.filter((w) => w.webhook_id === event.only_webhook_id) : webhooks.filter((w) => wants(w, event));
  const body = envelope(event);
  const now = ctx.now();
  for (const w of targets) {
    const d: DeliveryRecord = {
      delivery_id: deliveryIdOf(event.event_id, w.webhook_id),
      workspace_id: event.workspace_id,
      webhook_id: w.webhook_id,
      event_id: event.event_id,
      event_type: event.type,
      body,
      state: "pending",
      attempts: 0,
      created_ms: event.created_ms ?? event.event_timestamp * 1000,
      next_attempt_ms: now,
      last_status: null,
      last_error: null,
      log: [],
    };
    await ctx.stores.webhooks.createDelivery(d);
  }
  await ctx.stores.webhooks.dequeue(entry.pk, entry.sk, { delivery: { state: "dispatched", webhooks: targets.length } });
}

async function attempt(ctx: AppContext, entry: QueueEntry): Promise<void> {
  const store = ctx.stores.webhooks;
  const d = await store.delivery(entry.pk, entry.sk);
  if (!d || d.state !== "pending") return void (await store.dequeue(entry.pk, entry.sk).catch(() => undefined));
  const w = await store.get(d.workspace_id, d.webhook_id);
  if (!w) return store.dequeue(entry.pk, entry.sk, { state: "skipped", last_error: "The webhook was deleted.", next_attempt_ms: null });
  if (w.is_disabled || w.is_auto_disabled) {
    return store.dequeue(entry.pk, entry.sk, { state: "skipped", last_error: w.is_auto_disabled ? m.autoDisabled : "The webhook is disabled.", next_attempt_ms: null });
  }

  const nowUnix = Math.floor(ctx.now() / 1000);
  const url = new URL(w.webhook_url);
  let result: SendResult;
  /** What the log says: the status's standard reason, or one fixed reason when there was no answer. */
  let error: string | null;
  let refused = false;
  try {
    const address = await resolveTarget(url, ctx.config.webhooks);
    const headers: Record<string, string> = {
      ...deliverableHeaders(w.request_headers),
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      [SIGNATURE_HEADER]: signatureHeader(decryptSecret(ctx.secrets.session, w.secret_enc), d.body, nowUnix),
      "Timbre-Event-Id": d.event_id,
    };
    result = await sendWebhook(url, address, d.body, headers);
    error = result.status === null ? m.connectionFailed : result.status >= 300 ? answerReason(result.status) : null;
    if (result.detail) ctx.log.info("webhook delivery got no answer", { workspace_id: w.workspace_id, webhook_id: w.webhook_id, reason: result.detail });
  } catch (e) {
    if (!(e instanceof TargetRefused)) throw e;
    // A refused target is final for this delivery: it will not become allowed by waiting.
    result = { status: null, detail: e.message, durationMs: 0, timedOut: false };
    error = e.message;
    refused = true;
  }

  const attempts = d.attempts + 1;
  const entryLog: DeliveryAttempt = { at_unix: nowUnix, status: result.status, error, duration_ms: result.durationMs };
  const log = [...d.log, entryLog].slice(-MAX_ATTEMPT_LOG);
  const common = { attempts, last_status: result.status, last_error: error, log };

  if (result.status !== null && result.status >= 200 && result.status < 300) {
    await store.dequeue(entry.pk, entry.sk, { ...common, state: "delivered", next_attempt_ms: null });
    await store.recordSuccess(w.workspace_id, w.webhook_id);
    return;
  }

  const after = await store.recordFailure(w.workspace_id, w.webhook_id, result.status, nowUnix);
  let autoDisabled = false;
  if (after && after.consecutive_failures >= AUTO_DISABLE_FAILURES && after.failing_since_unix !== null && nowUnix - after.failing_since_unix >= AUTO_DISABLE_MIN_SECONDS && !after.is_auto_disabled) {
    await store.patch(w.workspace_id, w.webhook_id, { is_auto_disabled: true });
    ctx.log.warn("webhook disabled after repeated failures", { workspace_id: w.workspace_id, webhook_id: w.webhook_id, failures: after.consecutive_failures });
    autoDisabled = true;
  }
  const nextMs = ctx.now() + retryDelaySeconds(ctx.config.webhooks.retryBaseSeconds, attempts) * 1000;
  const withinWindow = (nextMs - d.created_ms) / 1000 <= RETRY_WINDOW_SECONDS;
  if (isRetryable(result) && !refused && w.retry_enabled && !autoDisabled && withinWindow) {
    await store.requeue(entry.pk, entry.sk, d.delivery_id, nextMs, { ...common, next_attempt_ms: nextMs });
  } else {
    await store.dequeue(entry.pk, entry.sk, { ...common, state: "failed", next_attempt_ms: null });
  }
}

async function work(ctx: AppContext, entry: QueueEntry): Promise<boolean> {
  if (!(await ctx.stores.webhooks.claim(entry, ctx.now() + LEASE_MS))) return false;
  try {
    if (entry.kind === "event") await fanOut(ctx, entry);
    else await attempt(ctx, entry);
  } catch (e) {
    // Left on the queue under its lease: taken again when the lease ends.
    ctx.log.error("webhook dispatch failed", { error: e, kind: entry.kind, id: entry.id });
  }
  return true;
}

/**
 * Works through everything due now, `CONCURRENCY` items at a time, until nothing is due or the
 * budget is spent. `more` says whether it stopped with work left.
 */
export async function dispatchDue(ctx: AppContext, opts: { budgetMs?: number } = {}): Promise<{ processed: number; more: boolean }> {
  const deadline = Date.now() + (opts.budgetMs ?? 60_000);
  let processed = 0;
  for (;;) {
    const now = ctx.now();
    const due = (await Promise.all(Array.from({ length: QUEUE_SHARDS }, (_, s) => ctx.stores.webhooks.due(s, now, BATCH)))).flat();
    if (!due.length) return { processed, more: false };
    // Events first: their deliveries become due in this same run.
    due.sort((a, b) => (a.kind === b.kind ? a.dueKey.localeCompare(b.dueKey) : a.kind === "event" ? -1 : 1));
    let next = 0;
    let took = 0;
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, due.length) }, async () => {
        while (next < due.length) {
          const e = due[next++];
          if (await work(ctx, e)) took++;
        }
      }),
    );
    processed += took;
    if (took === 0 || Date.now() > deadline) return { processed, more: took > 0 };
  }
}
