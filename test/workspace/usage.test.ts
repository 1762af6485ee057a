import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, startTestStack } from "../support/stack.js";
import { createAccount, createApiKey } from "../../functions/platform/domain/accounts.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { newId } from "../../functions/platform/adapters/ids.js";
import type { HistoryRecord } from "../../functions/platform/stores/history.js";
import { bucketStarts } from "../../functions/capabilities/usage/characterStats.js";
import { adminOf, joinAsMember, uniqueEmail } from "./support.js";

/** Usage analytics (contract §13a) from the generation history, and the plan a server admin sets. */
let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

const DAY = 86_400_000;
const day0 = Date.UTC(2026, 10, 2); // a Monday

function item(ws: string, userId: string, at: number, fields: Partial<HistoryRecord>): HistoryRecord {
  const id = newId();
  return {
    history_item_id: id, request_id: id, workspace_id: ws, user_id: userId, source: "TTS", voice_id: "v1", voice_name: "Avery", voice_category: "premade",
    model_id: "eleven_multilingual_v2", text: "hello", dialogue: null, date_unix: Math.floor(at / 1000), created_ms: at, character_count_change_from: 0,
    character_count_change_to: 5, content_type: "audio/mpeg", output_format: "mp3_44100_128", audio_key: "x", alignment_key: null,
    replay: { engine: "espeak", voice_versions: {}, settings: {}, seed: 1, language_code: null, apply_text_normalization: "auto", previous_text: null, next_text: null, pronunciation_dictionary_locators: [] },
    ...fields,
  };
}

describe("usage.get (GET /v1/usage/character-stats)", () => {
  it("buckets credits per day and breaks them down by voice, model, user and product", async () => {
    const admin = await adminOf(stack);
    const member = await joinAsMember(stack, admin);
    const ws = admin.workspace.workspace_id;
    await stack.ctx.stores.history.put(item(ws, admin.user.user_id, day0 + 3_600_000, { character_count_change_to: 100, voice_name: "Avery" }));
    await stack.ctx.stores.history.put(item(ws, admin.user.user_id, day0 + DAY + 60_000, { character_count_change_from: 100, character_count_change_to: 130, voice_name: "Blake", model_id: "eleven_flash_v2_5" }));
    await stack.ctx.stores.history.put(item(ws, member.userId, day0 + 2 * DAY + 5, { character_count_change_from: 130, character_count_change_to: 150, dialogue: [{ text: "hi", voice_id: "v1", voice_name: "Avery" }] }));
    // Outside the window.
    await stack.ctx.stores.history.put(item(ws, admin.user.user_id, day0 + 5 * DAY, { character_count_change_to: 999 }));

    const window = { startUnix: day0, endUnix: day0 + 3 * DAY };
    const all = await admin.client.usage.get({ ...window, includeWorkspaceMetrics: true });
    expect(all.time).toEqual([day0, day0 + DAY, day0 + 2 * DAY]);
    expect(all.usage).toEqual({ All: [100, 30, 20] });

    const byVoice = await admin.client.usage.get({ ...window, includeWorkspaceMetrics: true, breakdownType: "voice" });
    expect(byVoice.usage).toEqual({ Avery: [100, 0, 20], Blake: [0, 30, 0] });
    const byModel = await admin.client.usage.get({ ...window, includeWorkspaceMetrics: true, breakdownType: "model" });
    expect(byModel.usage).toEqual({ eleven_flash_v2_5: [0, 30, 0], eleven_multilingual_v2: [100, 0, 20] });
    const byUser = await admin.client.usage.get({ ...window, includeWorkspaceMetrics: true, breakdownType: "user" });
    expect(byUser.usage).toEqual({ [admin.email]: [100, 30, 0], [member.email]: [0, 0, 20] });
    const byProduct = await admin.client.usage.get({ ...window, includeWorkspaceMetrics: true, breakdownType: "product_type" });
    expect(byProduct.usage).toEqual({ "Text to Dialogue": [0, 0, 20], "Text to Speech": [100, 30, 0] });
    const cumulative = await admin.client.usage.get({ ...window, includeWorkspaceMetrics: true, aggregationInterval: "cumulative" });
    expect(cumulative.usage.All).toEqual([100, 130, 150]);
    const requests = await admin.client.usage.get({ ...window, includeWorkspaceMetrics: true, metric: "request_count" });
    expect(requests.usage.All).toEqual([1, 1, 1]);

    // A member sees their own usage only, and may not see the workspace's.
    expect((await member.client.usage.get(window)).usage).toEqual({ All: [0, 0, 20] });
    const denied = (await member.client.usage.get({ ...window, includeWorkspaceMetrics: true }).catch((e: unknown) => e)) as ElevenLabsError;
    expect(denied.statusCode).toBe(403);
    const userWithoutWorkspace = (await admin.client.usage.get({ ...window, breakdownType: "user" }).catch((e: unknown) => e)) as ElevenLabsError;
    expect(userWithoutWorkspace.statusCode).toBe(422);
  });

  it("attributes generations to the API key that made them, and bounds the number of buckets", async () => {
    const admin = await adminOf(stack, "pro");
    const started = Date.now() - 1000;
    const res = await apiFetch(stack, admin.apiKey, `/v1/text-to-speech/${premadeVoiceId("Avery")}`, { method: "POST", body: JSON.stringify({ text: "Counting this." }) });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const byKey = await admin.client.usage.get({ startUnix: started, endUnix: Date.now() + DAY, breakdownType: "api_keys", includeWorkspaceMetrics: true });
    expect(Object.keys(byKey.usage)).toEqual([`test (${admin.apiKey.slice(0, 7)}…)`]);
    expect(byKey.usage[Object.keys(byKey.usage)[0]].reduce((a, b) => a + b, 0)).toBe("Counting this.".length);

    const tooMany = (await admin.client.usage.get({ startUnix: 0, endUnix: 400 * DAY, aggregationInterval: "hour" }).catch((e: unknown) => e)) as ElevenLabsError;
    expect(tooMany.statusCode).toBe(422);
  });

  it("aligns buckets to UTC hours, days, Mondays and months", () => {
    const t = Date.UTC(2026, 0, 30, 13, 45);
    expect(bucketStarts(t, t + 2 * 3_600_000, "hour")).toEqual([Date.UTC(2026, 0, 30, 13), Date.UTC(2026, 0, 30, 14), Date.UTC(2026, 0, 30, 15)]);
    expect(bucketStarts(t, Date.UTC(2026, 2, 2), "month")).toEqual([Date.UTC(2026, 0, 1), Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1)]);
    expect(bucketStarts(t, t + DAY, "week")).toEqual([Date.UTC(2026, 0, 26)]);
    expect(bucketStarts(t, t + 60_000, "day", 600)).toHaveLength(1);
  });
});

describe("changing the plan on a self-hosted server", () => {
  it("lets a server admin change the workspace's tier, keeping the credits used; nobody else", async () => {
    const email = uniqueEmail("operator");
    const { user, workspace } = await createAccount(stack.ctx, { email, password: "operator password", tier: "free", serverAdmin: true });
    const { value } = await createApiKey(stack.ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "op" });
    const op = new ElevenLabsClient({ baseUrl: stack.url, apiKey: value, maxRetries: 0 });
    expect((await (await apiFetch(stack, value, "/v1/user")).json()).is_server_admin).toBe(true);

    const changed = await apiFetch(stack, value, "/v1/workspace/subscription", { method: "PATCH", body: JSON.stringify({ tier: "scale" }) });
    expect(changed.status).toBe(200);
    const sub = await op.user.subscription.get();
    expect(sub).toMatchObject({ tier: "scale", characterLimit: 2_000_000, status: "active" });
    expect((sub as unknown as { max_seats: number }).max_seats).toBe(3);

    const plain = await adminOf(stack, "free");
    const refused = await apiFetch(stack, plain.apiKey, "/v1/workspace/subscription", { method: "PATCH", body: JSON.stringify({ tier: "business" }) });
    expect(refused.status).toBe(403);
    expect((await plain.client.user.subscription.get()).tier).toBe("free");
  });
});

describe("the subscription's status (app-shell.md §8 billing messages)", () => {
  it("a server admin sets it within the plan's statuses; a disabled free tier cannot spend, a failed payment only warns", async () => {
    const email = uniqueEmail("billing");
    const { user, workspace } = await createAccount(stack.ctx, { email, password: "operator password", tier: "free", serverAdmin: true });
    const { value } = await createApiKey(stack.ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "op" });
    const op = new ElevenLabsClient({ baseUrl: stack.url, apiKey: value, maxRetries: 0 });
    const patch = (body: unknown) => apiFetch(stack, value, "/v1/workspace/subscription", { method: "PATCH", body: JSON.stringify(body) });
    const speak = () => apiFetch(stack, value, `/v1/text-to-speech/${premadeVoiceId("Marcus")}`, { method: "POST", body: JSON.stringify({ text: "Billing check.", model_id: "eleven_flash_v2_5" }) });

    expect((await patch({})).status).toBe(422);
    const wrong = await patch({ status: "past_due" });
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { detail: { message: string } }).detail.message).toContain("free, free_disabled");
    expect((await patch({ status: "free_disabled" })).status).toBe(200);
    expect((await op.user.subscription.get()).status).toBe("free_disabled");
    const used = (await op.user.subscription.get()).characterCount;
    const refused = await speak();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: { status: string; message: string } }).detail).toEqual({
      status: "free_tier_disabled",
      message: "Your free tier access has been disabled. Please upgrade to a paid plan.",
    });
    expect((await op.user.subscription.get()).characterCount).toBe(used);
    const streamed = await apiFetch(stack, value, `/v1/text-to-speech/${premadeVoiceId("Marcus")}/stream`, { method: "POST", body: JSON.stringify({ text: "Billing check.", model_id: "eleven_flash_v2_5" }) });
    expect(streamed.status).toBe(403);

    // A paid plan: its status goes back to active; an incomplete payment warns but still serves.
    expect((await patch({ tier: "creator" })).status).toBe(200);
    expect((await op.user.subscription.get()).status).toBe("active");
    expect((await patch({ status: "incomplete" })).status).toBe(200);
    expect((await op.user.subscription.get()).status).toBe("incomplete");
    expect((await speak()).status).toBe(200);
    expect((await patch({ status: "free_disabled" })).status).toBe(422);

    const plain = await adminOf(stack, "free");
    expect((await apiFetch(stack, plain.apiKey, "/v1/workspace/subscription", { method: "PATCH", body: JSON.stringify({ status: "free_disabled" }) })).status).toBe(403);
  });
});
