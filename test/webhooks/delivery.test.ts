import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, startTestStack } from "../support/stack.js";
import { emitEvent } from "../../functions/platform/events/index.js";
import { charge } from "../../functions/platform/domain/credits.js";
import { dispatchDue, AUTO_DISABLE_FAILURES } from "../../functions/capabilities/webhooks/dispatch.js";
import { adminOf, joinAsMember } from "../workspace/support.js";
import { startReceiver, type Receiver } from "./receiver.js";
import { createServer } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";

/**
 * Webhooks end to end on the embedded stack: the management API through the official SDK,
 * deliveries a real receiver checks with the SDK's constructEvent, retries and auto-disable on a
 * clock the test moves, and the event sources (quota thresholds, personal events). The receivers
 * are on loopback, which only WEBHOOK_ALLOW_LOCAL_TARGETS allows; `plain` is a stack with the
 * default settings, where no member can reach this machine.
 */
let stack: EmbeddedStack;
let plain: EmbeddedStack;
let offsetMs = 0;
const now = () => Date.now() + offsetMs;
const receivers: Receiver[] = [];
const verifier = new ElevenLabsClient({ apiKey: "unused" });

beforeAll(async () => {
  [stack, plain] = await Promise.all([startTestStack({ now, env: { WEBHOOK_ALLOW_LOCAL_TARGETS: "true" } }), startTestStack({ now })]);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await stack?.close();
  await plain?.close();
});
afterEach(() => {
  offsetMs = 0;
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** Runs the dispatcher until nothing more is due now (the workflow the emit started may run too). */
async function drain(on: EmbeddedStack = stack): Promise<void> {
  await on.workflows.idle();
  while ((await dispatchDue(on.ctx)).more);
  await on.workflows.idle();
}

async function deliveries(apiKey: string, webhookId: string, on: EmbeddedStack = stack) {
  return (await (await apiFetch(on, apiKey, `/v1/workspace/webhooks/${webhookId}/deliveries`)).json()) as {
    deliveries: Array<{
      event_id: string;
      event_type: string;
      state: string;
      attempts: number;
      last_status: number | null;
      last_error: string | null;
      next_attempt_unix: number | null;
      log: Array<{ status: number | null; error: string | null }>;
    }>;
  };
}

/** Moves the test's clock to just after the start of a minute: fixed one-minute windows then hold for the whole test. */
function startOfMinute(): void {
  offsetMs += 60_000 - (now() % 60_000) + 500;
}

describe("webhook management (contract §12)", () => {
  it("creates, lists, updates and deletes webhooks; the secret is shown once", async () => {
    const admin = await adminOf(stack);
    const r = await receiver();
    const created = await admin.client.webhooks.create({ settings: { authType: "hmac", name: "Ops", webhookUrl: r.url, requestHeaders: { "X-Team": "ops" } } });
    expect(created.webhookId).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(created.webhookSecret).toMatch(/^wsec_[A-Za-z0-9]{40}$/);

    const { webhooks } = await admin.client.webhooks.list();
    expect(webhooks).toHaveLength(1);
    expect(webhooks[0]).toMatchObject({ name: "Ops", webhookId: created.webhookId, webhookUrl: r.url, isDisabled: false, isAutoDisabled: false, authType: "hmac" });
    expect(JSON.stringify(webhooks)).not.toContain(created.webhookSecret!);
    expect(JSON.stringify(webhooks)).not.toContain("ops\"");

    expect((await admin.client.webhooks.update(created.webhookId, { isDisabled: true, name: "Ops (paused)", retryEnabled: false, events: ["voice_library_removal_notice"] })).status).toBe("ok");
    const [after] = (await admin.client.webhooks.list()).webhooks;
    expect(after).toMatchObject({ name: "Ops (paused)", isDisabled: true, events: ["voice_library_removal_notice"] });

    expect((await admin.client.webhooks.delete(created.webhookId)).status).toBe("ok");
    expect((await admin.client.webhooks.list()).webhooks).toEqual([]);
    const gone = (await admin.client.webhooks.delete(created.webhookId).catch((e: unknown) => e)) as ElevenLabsError;
    expect(gone.statusCode).toBe(404);
  });

  it("refuses targets that are private after DNS resolution, and plain http where https is required", async () => {
    const admin = await adminOf(stack);
    for (const url of ["http://10.0.0.7/hook", "http://169.254.169.254/latest", "http://[fd00::1]/x"]) {
      const e = (await admin.client.webhooks.create({ settings: { authType: "hmac", name: "x", webhookUrl: url } }).catch((x: unknown) => x)) as ElevenLabsError;
      expect(e.statusCode, url).toBe(400);
    }
    // As on AWS: https only, and loopback (what localhost resolves to) refused.
    // From the run's system-data snapshot like the file's other stacks (its own seeding tested nothing here).
    const strict = await startTestStack({ env: { TIMBRE_MODE: "aws" } });
    try {
      const a = await adminOf(strict);
      const http = (await a.client.webhooks.create({ settings: { authType: "hmac", name: "x", webhookUrl: "http://example.com/h" } }).catch((x: unknown) => x)) as ElevenLabsError;
      expect(JSON.stringify(http.body)).toContain("must use https");
      const local = (await a.client.webhooks.create({ settings: { authType: "hmac", name: "x", webhookUrl: "https://localhost:8443/h" } }).catch((x: unknown) => x)) as ElevenLabsError;
      expect(local.statusCode).toBe(400);
      expect(JSON.stringify(local.body)).toContain("private, loopback or link-local");
    } finally {
      await strict.close();
    }
    // It starts a second stack: 15-30 s on a loaded machine.
  }, 90_000);
});

describe("deliveries", () => {
  it("delivers a signed envelope the SDK's constructEvent verifies, with the webhook's request headers", async () => {
    const admin = await adminOf(stack);
    const r = await receiver();
    const { webhookId, webhookSecret } = await admin.client.webhooks.create({ settings: { authType: "hmac", name: "Ops", webhookUrl: r.url, requestHeaders: { "X-Webhook-Token": "receiver-token" } } });
    const test = await (await apiFetch(stack, admin.apiKey, `/v1/workspace/webhooks/${webhookId}/test`, { method: "POST" })).json();
    // Nothing was sent inside the request.
    await drain();

    expect(r.received).toHaveLength(1);
    const got = r.received[0];
    expect(got.headers["x-webhook-token"]).toBe("receiver-token");
    expect(got.headers["content-type"]).toBe("application/json");
    const event = (await verifier.webhooks.constructEvent(got.body, got.headers["elevenlabs-signature"] as string, webhookSecret!)) as Record<string, unknown>;
    expect(event).toMatchObject({ type: "webhook_test", event_id: test.event_id, data: { webhook_id: webhookId } });
    expect(typeof event.event_timestamp).toBe("number");
    // A tampered body does not verify.
    await expect(verifier.webhooks.constructEvent(got.body.replace("webhook_test", "webhook_tost"), got.headers["elevenlabs-signature"] as string, webhookSecret!)).rejects.toThrow(/does not match/);

    const log = await deliveries(admin.apiKey, webhookId);
    expect(log.deliveries[0]).toMatchObject({ event_id: test.event_id, state: "delivered", attempts: 1, last_status: 200 });
  });

  it("retries a failing receiver with growing delays under one event_id, re-signed each time, until it answers", async () => {
    const admin = await adminOf(stack);
    const r = await receiver();
    r.respond = (n) => (n === 1 ? 503 : n === 2 ? 429 : n === 3 ? 500 : 200);
    const { webhookId, webhookSecret } = await admin.client.webhooks.create({ settings: { authType: "hmac", name: "Flaky", webhookUrl: r.url } });
    const { event_id } = await (await apiFetch(stack, admin.apiKey, `/v1/workspace/webhooks/${webhookId}/test`, { method: "POST" })).json();
    await drain();
    expect(r.received).toHaveLength(1);
    let log = (await deliveries(admin.apiKey, webhookId)).deliveries[0];
    expect(log).toMatchObject({ state: "pending", attempts: 1, last_status: 503 });
    // The first retry comes within a minute (30 s), not before.
    expect(log.next_attempt_unix! - Math.floor(now() / 1000)).toBeGreaterThan(20);
    expect(log.next_attempt_unix! - Math.floor(now() / 1000)).toBeLessThanOrEqual(60);
    await drain();
    expect(r.received).toHaveLength(1);

    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = (await deliveries(admin.apiKey, webhookId)).deliveries[0];
      const wait = before.next_attempt_unix! * 1000 - now() + 1000;
      delays.push(Math.round(wait / 1000));
      offsetMs += wait;
      await drain();
    }
    expect(r.received.map((x) => x.status)).toEqual([503, 429, 500, 200]);
    expect(delays[1]).toBeGreaterThan(delays[0] * 2);
    expect(delays[2]).toBeGreaterThan(delays[1] * 2);
    const ids = r.received.map((x) => (JSON.parse(x.body) as { event_id: string }).event_id);
    expect(new Set(ids)).toEqual(new Set([event_id]));
    const stamps = r.received.map((x) => /t=(\d+)/.exec(x.headers["elevenlabs-signature"] as string)![1]);
    expect(new Set(stamps).size).toBe(4);
    // The last one verifies (its t is in the test's future, which the SDK accepts).
    await verifier.webhooks.constructEvent(r.received[3].body, r.received[3].headers["elevenlabs-signature"] as string, webhookSecret!);
    log = (await deliveries(admin.apiKey, webhookId)).deliveries[0];
    expect(log).toMatchObject({ state: "delivered", attempts: 4, last_status: 200 });
    const [w] = (await admin.client.webhooks.list()).webhooks;
    expect(w.mostRecentFailureErrorCode).toBe(500);
    expect(w.isAutoDisabled).toBe(false);
  });

  it("does not retry a 4xx, nor anything when retries are off", async () => {
    const admin = await adminOf(stack);
    const r = await receiver();
    r.respond = () => 404;
    const { webhookId } = await admin.client.webhooks.create({ settings: { authType: "hmac", name: "Gone", webhookUrl: r.url } });
    await apiFetch(stack, admin.apiKey, `/v1/workspace/webhooks/${webhookId}/test`, { method: "POST" });
    await drain();
    expect((await deliveries(admin.apiKey, webhookId)).deliveries[0]).toMatchObject({ state: "failed", attempts: 1, last_status: 404, next_attempt_unix: null, last_error: "Not Found" });

    r.respond = () => 503;
    await admin.client.webhooks.update(webhookId, { isDisabled: false, name: "No retries", retryEnabled: false });
    await apiFetch(stack, admin.apiKey, `/v1/workspace/webhooks/${webhookId}/test`, { method: "POST" });
    await drain();
    offsetMs += 3600_000;
    await drain();
    expect((await deliveries(admin.apiKey, webhookId)).deliveries[0]).toMatchObject({ state: "failed", attempts: 1, last_status: 503, last_error: "Service Unavailable" });
    expect(r.received).toHaveLength(2);
  });

  it("disables a webhook automatically after 10 failed attempts in a row over an hour; enabling it again starts afresh", async () => {
    const admin = await adminOf(stack);
    const r = await receiver();
    r.respond = () => 502;
    const { webhookId } = await admin.client.webhooks.create({ settings: { authType: "hmac", name: "Down", webhookUrl: r.url } });
    await emitEvent(stack.ctx, admin.workspace.workspace_id, "voice_library_removal_notice", { voice_id: "v1" });
    await drain();
    for (let i = 0; i < 30 && !(await admin.client.webhooks.list()).webhooks[0].isAutoDisabled; i++) {
      const d = (await deliveries(admin.apiKey, webhookId)).deliveries[0];
      if (d.next_attempt_unix === null) break;
      offsetMs += d.next_attempt_unix * 1000 - now() + 1000;
      await drain();
    }
    const [w] = (await admin.client.webhooks.list()).webhooks;
    expect(w.isAutoDisabled).toBe(true);
    expect(w.mostRecentFailureErrorCode).toBe(502);
    expect(r.received.length).toBeGreaterThanOrEqual(AUTO_DISABLE_FAILURES);
    expect((await deliveries(admin.apiKey, webhookId)).deliveries[0].state).toBe("failed");

    // Disabled: new events are not sent.
    const sent = r.received.length;
    await emitEvent(stack.ctx, admin.workspace.workspace_id, "voice_library_removal_notice", { voice_id: "v2" });
    await drain();
    expect(r.received).toHaveLength(sent);

    r.respond = () => 200;
    await admin.client.webhooks.update(webhookId, { isDisabled: false, name: "Down" });
    expect((await admin.client.webhooks.list()).webhooks[0].isAutoDisabled).toBe(false);
    await emitEvent(stack.ctx, admin.workspace.workspace_id, "voice_library_removal_notice", { voice_id: "v3" });
    await drain();
    expect(JSON.parse(r.received.at(-1)!.body).data).toEqual({ voice_id: "v3" });
  });
});

describe("events", () => {
  it("announces 80% and 100% of the quota once each; a webhook's events filter narrows what it gets", async () => {
    const admin = await adminOf(stack, "free"); // 10,000 credits
    const all = await receiver();
    const onlyQuota = await receiver();
    const other = await receiver();
    await admin.client.webhooks.create({ settings: { authType: "hmac", name: "All", webhookUrl: all.url } });
    const q = await admin.client.webhooks.create({ settings: { authType: "hmac", name: "Quota", webhookUrl: onlyQuota.url } });
    // The SDK's event enum has only the hosted service's types: Timbre's go in as extra body parameters.
    await admin.client.webhooks.update(q.webhookId, { isDisabled: false, name: "Quota" }, { additionalBodyParameters: { events: ["quota_threshold_reached"] } });
    const o = await admin.client.webhooks.create({ settings: { authType: "hmac", name: "Other", webhookUrl: other.url } });
    await admin.client.webhooks.update(o.webhookId, { isDisabled: false, name: "Other", events: ["voice_library_removal_notice"] });

    const ws = admin.workspace.workspace_id;
    for (const [key, amount] of [["a", 5000], ["b", 3500], ["c", 500], ["d", 1000]] as const) await charge(stack.ctx, { workspaceId: ws, key, amount });
    await drain();
    const bodies = onlyQuota.received.map((x) => JSON.parse(x.body) as { type: string; data: { threshold_percent: number; character_count: number; character_limit: number } });
    expect(bodies.map((b) => b.type)).toEqual(["quota_threshold_reached", "quota_threshold_reached"]);
    expect(bodies.map((b) => b.data.threshold_percent).sort()).toEqual([100, 80]);
    expect(bodies.find((b) => b.data.threshold_percent === 80)!.data).toMatchObject({ character_count: 8500, character_limit: 10_000 });
    expect(all.received).toHaveLength(2);
    expect(other.received).toHaveLength(0);
  });

  it("sends a member's events to their personal webhooks and the workspace's, not to other members'", async () => {
    const admin = await adminOf(stack);
    const [ann, bob] = [await joinAsMember(stack, admin), await joinAsMember(stack, admin)];
    const [wsHook, annHook, bobHook] = [await receiver(), await receiver(), await receiver()];
    await admin.client.webhooks.create({ settings: { authType: "hmac", name: "Workspace", webhookUrl: wsHook.url } });
    const annWebhook = await ann.client.webhooks.create({ settings: { authType: "hmac", name: "Mine", webhookUrl: annHook.url } });
    await bob.client.webhooks.create({ settings: { authType: "hmac", name: "Mine", webhookUrl: bobHook.url } });
    // Each member manages only their own; the admin sees the workspace's.
    expect((await ann.client.webhooks.list()).webhooks.map((w) => w.webhookId)).toEqual([annWebhook.webhookId]);
    expect((await admin.client.webhooks.list()).webhooks.map((w) => w.name)).toEqual(["Workspace"]);

    await emitEvent(stack.ctx, admin.workspace.workspace_id, "fine_tuning_finished", { voice_id: "x", model_id: "eleven_multilingual_v2" }, { userId: ann.userId });
    await drain();
    expect([wsHook.received.length, annHook.received.length, bobHook.received.length]).toEqual([1, 1, 0]);
  });
});

describe("what a member can reach and read (issue 24)", () => {
  const refusal = async (p: Promise<unknown>) => {
    const e = (await p.catch((x: unknown) => x)) as ElevenLabsError;
    expect(e).toBeInstanceOf(ElevenLabsError);
    return { status: e.statusCode, body: e.body as { detail: { status: string; message: string } } };
  };

  it("by default no member can add a webhook on this machine or a link-local address, in any spelling", async () => {
    const r = await receiver();
    const port = new URL(r.url).port;
    const admin = await adminOf(plain);
    const member = await joinAsMember(plain, admin);
    const urls = [
      `http://127.0.0.1:${port}/x`,
      `http://127.1:${port}/x`,
      `http://2130706433:${port}/x`,
      `http://0x7f000001:${port}/x`,
      `http://0177.0.0.1:${port}/x`,
      `http://[::1]:${port}/x`,
      `http://[::ffff:127.0.0.1]:${port}/x`,
      `http://0.0.0.0:${port}/x`,
      `http://localhost:${port}/x`,
      "http://169.254.169.254/latest/meta-data/",
      "http://[fe80::1]/x",
    ];
    for (const webhookUrl of urls) {
      const e = await refusal(member.client.webhooks.create({ settings: { authType: "hmac", name: "x", webhookUrl } }));
      expect(e.status, webhookUrl).toBe(400);
      expect(e.body.detail.status, webhookUrl).toBe("webhook_target_not_allowed");
      expect(e.body.detail.message).toContain("WEBHOOK_ALLOW_LOCAL_TARGETS=true");
    }
    // Nor by changing the URL of a webhook it has.
    const { webhookId } = await member.client.webhooks.create({ settings: { authType: "hmac", name: "Elsewhere", webhookUrl: "https://receiver.example.invalid/hook" } });
    const e = await refusal(member.client.webhooks.update(webhookId, { name: "Elsewhere", isDisabled: false }, { additionalBodyParameters: { webhook_url: `http://[::1]:${port}/x` } }));
    expect(e.status).toBe(400);
    expect(r.received).toHaveLength(0);
  });

  it("checks the address a name resolves to when delivering (a name that resolves to loopback later is refused)", async () => {
    const r = await receiver();
    const admin = await adminOf(plain);
    const { webhookId } = await admin.client.webhooks.create({ settings: { authType: "hmac", name: "Rebound", webhookUrl: "https://receiver.example.invalid/hook" } });
    // The stored name now resolves to this machine: localhost, which the resolver answers with 127.0.0.1 or ::1.
    await plain.ctx.stores.webhooks.patch(admin.workspace.workspace_id, webhookId, { webhook_url: r.url.replace("127.0.0.1", "localhost") });
    expect((await apiFetch(plain, admin.apiKey, `/v1/workspace/webhooks/${webhookId}/test`, { method: "POST" })).status).toBe(202);
    await drain(plain);
    expect(r.received).toHaveLength(0);
    const [d] = (await deliveries(admin.apiKey, webhookId, plain)).deliveries;
    expect(d).toMatchObject({ state: "failed", attempts: 1, last_status: null });
    expect(d.last_error).toContain("private, loopback or link-local");
  });

  it("logs an answer's status and its standard reason only, and every missing answer with one generic reason", async () => {
    const admin = await adminOf(stack);
    // An answer with words of its own, a port nobody listens on, and a port that speaks something else than HTTP.
    const leaky = createServer((_req, res) => {
      res.writeHead(500, "Leaky Reason", { "content-type": "text/plain" });
      res.end("root:x:0:0:root:/root:/bin/bash internal-secret");
    });
    const other = createNetServer((socket) => socket.resume().end("SSH-2.0-OpenSSH_9.6\r\n"));
    const closed = createNetServer();
    await Promise.all([leaky, other, closed].map((s) => new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok))));
    const portOf = (s: { address(): unknown }) => (s.address() as AddressInfo).port;
    const closedPort = portOf(closed);
    await new Promise<void>((ok) => closed.close(() => ok()));
    try {
      const hooks: Record<string, string> = {};
      for (const [name, url] of [["leaky", `http://127.0.0.1:${portOf(leaky)}/h`], ["closed", `http://127.0.0.1:${closedPort}/h`], ["other", `http://127.0.0.1:${portOf(other)}/h`]]) {
        const res = await apiFetch(stack, admin.apiKey, "/v1/workspace/webhooks", { method: "POST", body: JSON.stringify({ settings: { auth_type: "hmac", name, webhook_url: url }, retry_enabled: false }) });
        expect(res.status).toBe(200);
        hooks[name] = ((await res.json()) as { webhook_id: string }).webhook_id;
        expect((await apiFetch(stack, admin.apiKey, `/v1/workspace/webhooks/${hooks[name]}/test`, { method: "POST" })).status).toBe(202);
      }
      await drain();
      const logs = Object.fromEntries(await Promise.all(Object.entries(hooks).map(async ([name, id]) => [name, (await deliveries(admin.apiKey, id)).deliveries[0]] as const)));
      expect(logs.leaky).toMatchObject({ state: "failed", last_status: 500, last_error: "Internal Server Error" });
      expect(logs.leaky.log.map((a) => a.error)).toEqual(["Internal Server Error"]);
      for (const name of ["closed", "other"]) {
        expect(logs[name], name).toMatchObject({ state: "failed", last_status: null, last_error: "Connection failed: no HTTP response." });
        expect(logs[name].log.map((a) => a.error), name).toEqual(["Connection failed: no HTTP response."]);
      }
      const shown = JSON.stringify(logs);
      for (const leak of ["root:x", "internal-secret", "Leaky", "SSH", "ECONNREFUSED", "Parse Error", "HPE_"]) expect(shown).not.toContain(leak);
    } finally {
      await Promise.all([leaky, other].map((s) => new Promise<void>((ok) => s.close(() => ok()))));
    }
  });

  it("allows 5 test events a minute per webhook and 20 per workspace, then answers 429 with Retry-After", async () => {
    startOfMinute();
    const admin = await adminOf(stack);
    const r = await receiver();
    const ids: string[] = [];
    for (const name of ["A", "B", "C", "D", "E"]) ids.push((await admin.client.webhooks.create({ settings: { authType: "hmac", name, webhookUrl: r.url } })).webhookId);
    const test = (id: string) => apiFetch(stack, admin.apiKey, `/v1/workspace/webhooks/${id}/test`, { method: "POST" });
    for (let i = 0; i < 5; i++) expect((await test(ids[0])).status).toBe(202);
    const sixth = await test(ids[0]);
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(sixth.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(await sixth.json()).toEqual({ detail: { status: "too_many_test_events", message: "At most 5 test events per minute for this webhook. Please wait a moment and try again." } });
    // Another webhook has its own five, until the workspace's twenty are spent.
    for (const id of ids.slice(1, 4)) for (let i = 0; i < 5; i++) expect((await test(id)).status, id).toBe(202);
    const over = await test(ids[4]);
    expect(over.status).toBe(429);
    expect(((await over.json()) as { detail: { message: string } }).detail.message).toBe("At most 20 test events per minute in this workspace. Please wait a moment and try again.");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // A minute later there are test events again.
    offsetMs += 60_000;
    expect((await test(ids[4])).status).toBe(202);
    expect((await test(ids[0])).status).toBe(202);
  });

  it("refuses credential, cookie, proxy, forwarding and hop-by-hop request headers by name, and never sends them", async () => {
    const admin = await adminOf(stack);
    const r = await receiver();
    for (const name of ["Authorization", "proxy-authorization", "Cookie", "SET-COOKIE", "Host", "Connection", "keep-alive", "Transfer-Encoding", "TE", "Trailer", "Upgrade", "Content-Length", "Proxy-Foo", "X-Forwarded-For", "x-forwarded-host", "elevenlabs-signature"]) {
      const e = await refusal(admin.client.webhooks.create({ settings: { authType: "hmac", name: "x", webhookUrl: r.url, requestHeaders: { [name]: "v" } } }));
      expect(e.status, name).toBe(400);
      expect(e.body.detail.status, name).toBe("invalid_request_header");
      expect(e.body.detail.message, name).toContain(`The request header ${name} `);
    }
    const { webhookId } = await admin.client.webhooks.create({ settings: { authType: "hmac", name: "Ok", webhookUrl: r.url, requestHeaders: { "X-Team": "ops" } } });
    const e = await refusal(admin.client.webhooks.update(webhookId, { name: "Ok", isDisabled: false }, { additionalBodyParameters: { request_headers: { Cookie: "session=1" } } }));
    expect(e.status).toBe(400);
    expect(e.body.detail.message).toContain("Cookie");
    // A webhook stored before the rule still sends none of them.
    await stack.ctx.stores.webhooks.patch(admin.workspace.workspace_id, webhookId, { request_headers: { "X-Team": "ops", Cookie: "session=1", authorization: "Bearer old" } });
    await apiFetch(stack, admin.apiKey, `/v1/workspace/webhooks/${webhookId}/test`, { method: "POST" });
    await drain();
    expect(r.received).toHaveLength(1);
    expect(r.received[0].headers).toMatchObject({ "x-team": "ops" });
    expect(r.received[0].headers.cookie).toBeUndefined();
    expect(r.received[0].headers.authorization).toBeUndefined();
  });
});
