import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, startTestStack } from "../support/stack.js";
import { charge, currentUsage, refund, refundPart, spendingCaps } from "../../functions/platform/domain/credits.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { Caller } from "../../functions/platform/domain/caller.js";
import { adminOf, joinAsMember } from "./support.js";

/**
 * Limits narrower than the workspace's quota: a service-account API key's `character_limit` and
 * a member's `usage_limit` (from the invite, changed with members.update), both in credits per
 * the workspace's period, taken atomically with the charge and given back with its refunds.
 */
let stack: EmbeddedStack;
const AVERY = premadeVoiceId("Avery");
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

/** `n` characters of plain text (multilingual v2 costs one credit a character), different every time (identical requests regenerate free). */
let serial = 0;
const text = (n: number) => `${String(++serial).padStart(4, "0")} ${"a".repeat(n - 6)}.`;
const tts = (apiKey: string, chars: number) =>
  apiFetch(stack, apiKey, `/v1/text-to-speech/${AVERY}?output_format=pcm_16000`, { method: "POST", body: JSON.stringify({ text: text(chars), model_id: "eleven_multilingual_v2" }) });
const used = async (ws: string) => (await currentUsage(stack.ctx, ws)).character_count;

describe("an API key's character limit", () => {
  it("lets a service-account key spend up to its limit, refuses the request that would pass it without charging the workspace, and lists what it used", async () => {
    const admin = await adminOf(stack);
    const ws = admin.workspace.workspace_id;
    const id = (await admin.client.serviceAccounts.create({ name: "Batch jobs" })).serviceAccountUserId;
    const key = await admin.client.serviceAccounts.apiKeys.create(id, { name: "capped", permissions: "all", characterLimit: 100 });

    const ok = await tts(key.xiApiKey, 60);
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    const before = await used(ws);

    const refused = await tts(key.xiApiKey, 60);
    expect(refused.status).toBe(401);
    const body = (await refused.json()) as { detail: { status: string; message: string } };
    expect(body.detail.status).toBe("quota_exceeded");
    expect(body.detail.message).toContain("this API key's limit of 100 credits");
    expect(body.detail.message).toContain("40 credits remain");
    expect(await used(ws)).toBe(before);

    const listed = (await (await apiFetch(stack, admin.apiKey, `/v1/service-accounts/${id}/api-keys`)).json()) as { "api-keys": Array<{ key_id: string; character_limit: number; character_count: number }> };
    expect(listed["api-keys"].find((k) => k.key_id === key.keyId)).toMatchObject({ character_limit: 100, character_count: 60 });

    // What is left still fits; another key of the same account is not limited by this one.
    const rest = await tts(key.xiApiKey, 40);
    expect(rest.status).toBe(200);
    await rest.arrayBuffer();
    const free = await admin.client.serviceAccounts.apiKeys.create(id, { name: "uncapped", permissions: "all" });
    const other = await tts(free.xiApiKey, 60);
    expect(other.status).toBe(200);
    await other.arrayBuffer();

    // Raising the limit lets the capped key go on.
    await admin.client.serviceAccounts.apiKeys.update(id, key.keyId, { name: "capped", isEnabled: true, permissions: "all", characterLimit: 200 });
    const again = await tts(key.xiApiKey, 60);
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  });

  it("gives credits back to the key's limit when a charge is refunded in full or in part", async () => {
    const admin = await adminOf(stack);
    const ws = admin.workspace.workspace_id;
    const id = (await admin.client.serviceAccounts.create({ name: "Refunds" })).serviceAccountUserId;
    const key = await admin.client.serviceAccounts.apiKeys.create(id, { name: "capped", permissions: "all", characterLimit: 50 });
    const record = (await stack.ctx.stores.apiKeys.list(ws, id)).find((k) => k.key_id === key.keyId)!;
    const caller = new Caller(stack.ctx, { userId: id, workspaceId: ws, via: "api_key", apiKeyId: record.key_id, apiKeyCharacterLimit: record.character_limit });
    const caps = await spendingCaps(caller);
    expect(caps).toEqual([{ id: `key:${key.keyId}`, kind: "api_key", limit: 50 }]);

    await charge(stack.ctx, { workspaceId: ws, key: "job-1", amount: 50, caps });
    await expect(charge(stack.ctx, { workspaceId: ws, key: "job-2", amount: 1, caps })).rejects.toMatchObject({ statusCode: 401, status: "quota_exceeded" });
    expect(await refundPart(stack.ctx, ws, "job-1", 20)).toBe(30);
    await charge(stack.ctx, { workspaceId: ws, key: "job-3", amount: 30, caps });
    await expect(charge(stack.ctx, { workspaceId: ws, key: "job-4", amount: 1, caps })).rejects.toMatchObject({ status: "quota_exceeded" });
    expect(await refund(stack.ctx, ws, "job-3")).toBe(true);
    await charge(stack.ctx, { workspaceId: ws, key: "job-5", amount: 30, caps });
  });

  it("never lets concurrent requests together pass the limit", async () => {
    const admin = await adminOf(stack);
    const id = (await admin.client.serviceAccounts.create({ name: "Burst" })).serviceAccountUserId;
    const key = await admin.client.serviceAccounts.apiKeys.create(id, { name: "capped", permissions: "all", characterLimit: 100 });
    const statuses = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const r = await tts(key.xiApiKey, 30);
        await r.arrayBuffer();
        return r.status;
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 401)).toHaveLength(2);
  });
});

describe("a member's usage limit", () => {
  it("applies the invite's usage_limit to the member who joins through it; an admin changes or removes it with members.update", async () => {
    const admin = await adminOf(stack);
    const member = await joinAsMember(stack, admin, { usageLimit: 50 });
    const listed = (await (await apiFetch(stack, admin.apiKey, "/v1/workspace/members")).json()) as Array<{ email: string; usage_limit: number | null }>;
    expect(listed.find((m) => m.email === member.email)?.usage_limit).toBe(50);

    const ok = await tts(member.apiKey, 40);
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    const refused = await tts(member.apiKey, 20);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { detail: { message: string } }).detail.message).toContain("your usage limit in this workspace of 50 credits");
    // The admin is not limited by the member's cap.
    const adminOk = await tts(admin.apiKey, 20);
    expect(adminOk.status).toBe(200);
    await adminOk.arrayBuffer();

    const lift = await apiFetch(stack, admin.apiKey, "/v1/workspace/members", { method: "POST", body: JSON.stringify({ email: member.email, usage_limit: null }) });
    expect(lift.status).toBe(200);
    const after = await tts(member.apiKey, 20);
    expect(after.status).toBe(200);
    await after.arrayBuffer();

    // Members cannot lift their own limit.
    const denied = await apiFetch(stack, member.apiKey, "/v1/workspace/members", { method: "POST", body: JSON.stringify({ email: member.email, usage_limit: 1000 }) });
    expect(denied.status).toBe(403);
  });
});
