import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import type { Table } from "../../functions/platform/stores/table.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { createApiKey } from "../../functions/platform/domain/accounts.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";

/**
 * Issue 24: a request reads its key, its workspace (the plan), its membership and the groups
 * (the permission) from what this process read in the last few seconds, not from the store each
 * time; every write here that changes one of them counts for the very next request.
 */
let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

const VOICE = premadeVoiceId("Avery");
/**
 * Text to speech with empty text: answered 422 once the key, the membership, the permission and
 * the plan (the output format) have passed, before any synthesis; 401 or 403 when one fails.
 */
const check = async (key: string, format = "mp3_44100_128") => {
  const r = await apiFetch(stack, key, `/v1/text-to-speech/${VOICE}?output_format=${format}`, { method: "POST", body: JSON.stringify({ text: " " }) });
  const body = (await r.json()) as { detail: { status?: string } | unknown[] };
  return { status: r.status, code: Array.isArray(body.detail) ? "validation" : body.detail.status };
};

/** A second member (plain seat) of `owner`'s workspace, with an API key of their own there. */
async function memberOf(owner: Awaited<ReturnType<typeof createTestAccount>>) {
  const ws = owner.workspace.workspace_id;
  const { user, email } = await createTestAccount(stack, "free");
  await stack.ctx.stores.workspaces.addMember({ workspace_id: ws, user_id: user.user_id, email, seat_type: "workspace_member", joined_at: Math.floor(Date.now() / 1000) });
  const { value } = await createApiKey(stack.ctx, { workspaceId: ws, userId: user.user_id, name: "member" });
  return { user, apiKey: value };
}

describe("the credentials a request checks, kept a few seconds and forgotten on every write (issue 24)", () => {
  it("reads the workspace, the membership and the groups once, not on every request", async () => {
    const a = await createTestAccount(stack, "free");
    expect(await check(a.apiKey)).toEqual({ status: 422, code: "validation" });
    const main = (stack.ctx.stores.workspaces as unknown as { main: Table }).main;
    const gets = vi.spyOn(main, "get");
    const queries = vi.spyOn(main, "queryPrefix");
    try {
      for (let i = 0; i < 3; i++) expect(await check(a.apiKey)).toEqual({ status: 422, code: "validation" });
      const ws = a.workspace.workspace_id;
      // The workspace's own record, its members and its groups (its voices' settings are other records).
      const ofWorkspace = (calls: unknown[][]) => calls.map((c) => JSON.stringify(c)).filter((c) => c.includes(`WS#${ws}`) && /"WORKSPACE"|MEMBER#|GROUP#/.test(c));
      expect(ofWorkspace(gets.mock.calls)).toEqual([]);
      expect(ofWorkspace(queries.mock.calls)).toEqual([]);
    } finally {
      gets.mockRestore();
      queries.mockRestore();
    }
  });

  it("a revoked key stops working at once", async () => {
    const a = await createTestAccount(stack, "free");
    const listed = (await (await apiFetch(stack, a.apiKey, "/v1/user/api-keys")).json()) as { api_keys: Array<{ key_id: string }> };
    expect(await check(a.apiKey)).toEqual({ status: 422, code: "validation" });
    const other = await createApiKey(stack.ctx, { workspaceId: a.workspace.workspace_id, userId: a.user.user_id, name: "other" });
    expect((await apiFetch(stack, other.value, `/v1/user/api-keys/${listed.api_keys[0].key_id}`, { method: "DELETE" })).status).toBe(200);
    expect(await check(a.apiKey)).toEqual({ status: 401, code: "invalid_api_key" });
    expect(await check(other.value)).toEqual({ status: 422, code: "validation" });
  });

  it("a removed member's key stops working at once, and a locked member is refused at once", async () => {
    const owner = await createTestAccount(stack, "free");
    const ws = owner.workspace.workspace_id;
    const m = await memberOf(owner);
    expect(await check(m.apiKey)).toEqual({ status: 422, code: "validation" });
    await stack.ctx.stores.workspaces.patchMember(ws, m.user.user_id, { is_locked: true });
    expect(await check(m.apiKey)).toEqual({ status: 403, code: "account_locked" });
    await stack.ctx.stores.workspaces.patchMember(ws, m.user.user_id, { is_locked: false });
    expect(await check(m.apiKey)).toEqual({ status: 422, code: "validation" });
    await stack.ctx.stores.workspaces.removeMember(ws, m.user.user_id);
    expect(await check(m.apiKey)).toEqual({ status: 401, code: "invalid_api_key" });
    expect(await check(owner.apiKey)).toEqual({ status: 422, code: "validation" });
  });

  it("a group that loses a permission refuses it at once", async () => {
    const owner = await createTestAccount(stack, "free");
    const ws = owner.workspace.workspace_id;
    const m = await memberOf(owner);
    expect(await check(m.apiKey)).toEqual({ status: 422, code: "validation" });
    const everyone = (await stack.ctx.stores.workspaces.groups(ws)).find((g) => g.permissions.includes("text_to_speech"));
    expect(everyone, "the workspace's default group grants text to speech").toBeDefined();
    await stack.ctx.stores.workspaces.patchGroup(ws, everyone!.group_id, { permissions: everyone!.permissions.filter((p) => p !== "text_to_speech") });
    expect(await check(m.apiKey)).toEqual({ status: 403, code: "missing_permissions" });
    // The owner (an admin) keeps it.
    expect(await check(owner.apiKey)).toEqual({ status: 422, code: "validation" });
  });

  it("a plan change counts at once", async () => {
    const a = await createTestAccount(stack, "free");
    expect(await check(a.apiKey, "pcm_44100")).toEqual({ status: 403, code: "output_format_not_allowed" });
    await stack.ctx.stores.workspaces.update(a.workspace.workspace_id, { tier: "pro" });
    expect(await check(a.apiKey, "pcm_44100")).toEqual({ status: 422, code: "validation" });
    await stack.ctx.stores.workspaces.update(a.workspace.workspace_id, { tier: "free" });
    expect(await check(a.apiKey, "pcm_44100")).toEqual({ status: 403, code: "output_format_not_allowed" });
  });

  it("a record read elsewhere cannot be changed through the copy a request got", async () => {
    const a = await createTestAccount(stack, "free");
    const ws = a.workspace.workspace_id;
    const first = await stack.ctx.stores.workspaces.get(ws);
    first!.tier = "business";
    expect((await stack.ctx.stores.workspaces.get(ws))!.tier).toBe("free");
  });
});
