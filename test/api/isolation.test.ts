import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, insertOwnVoice, apiFetch } from "../support/stack.js";
import { createSession } from "../../functions/platform/domain/accounts.js";
import { issueToken } from "../../functions/platform/domain/tokens.js";
import { sha256Hex } from "../../functions/platform/adapters/ids.js";

/**
 * Tenant isolation: a second workspace can neither read, list nor change the first one's
 * records through any endpoint built so far.
 */
let stack: EmbeddedStack;
let a: Awaited<ReturnType<typeof createTestAccount>>;
let b: Awaited<ReturnType<typeof createTestAccount>>;
let voiceA: Awaited<ReturnType<typeof insertOwnVoice>>;
let keyIdA: string;

beforeAll(async () => {
  stack = await startTestStack();
  a = await createTestAccount(stack, "pro");
  b = await createTestAccount(stack, "pro");
  voiceA = await insertOwnVoice(stack, a.workspace.workspace_id, a.user.user_id, "Alice Secret Voice");
  keyIdA = (await stack.ctx.stores.apiKeys.list(a.workspace.workspace_id, a.user.user_id))[0].key_id;
});
afterAll(async () => stack?.close());

const asB = (path: string, init?: RequestInit) => apiFetch(stack, b.apiKey, path, init);

describe("workspace isolation", () => {
  it("does not list another workspace's voices, in v1 or v2, whatever the filters", async () => {
    const v1 = (await (await asB("/v1/voices")).json()) as { voices: Array<{ voice_id: string }> };
    expect(v1.voices.map((v) => v.voice_id)).not.toContain(voiceA.voice_id);
    for (const q of ["", "?voice_type=workspace", "?voice_type=non-default", "?category=cloned", `?voice_ids=${voiceA.voice_id}`, "?search=alice"]) {
      const v2 = (await (await asB(`/v2/voices${q}`)).json()) as { voices: Array<{ voice_id: string }>; total_count: number };
      expect(v2.voices.map((v) => v.voice_id)).not.toContain(voiceA.voice_id);
    }
  });

  it("reads another workspace's voice, or its settings, as not found", async () => {
    for (const path of [`/v1/voices/${voiceA.voice_id}`, `/v1/voices/${voiceA.voice_id}/settings`]) {
      const r = await asB(path);
      expect(r.status).toBe(404);
      expect(((await r.json()) as { detail: { status: string } }).detail.status).toBe("voice_not_found");
    }
  });

  it("cannot change or delete another workspace's voice", async () => {
    const edit = await asB(`/v1/voices/${voiceA.voice_id}/settings/edit`, { method: "POST", body: JSON.stringify({ stability: 0.1 }) });
    expect(edit.status).toBe(404);
    const del = await asB(`/v1/voices/${voiceA.voice_id}`, { method: "DELETE" });
    expect(del.status).toBe(404);
    const still = await stack.ctx.stores.voices.visibleTo(a.workspace.workspace_id, voiceA.voice_id);
    expect(still?.settings).toBeNull();
  });

  it("keeps premade voice settings per workspace", async () => {
    const premade = (await stack.ctx.stores.voices.premade())[0].voice_id;
    await asB(`/v1/voices/${premade}/settings/edit`, { method: "POST", body: JSON.stringify({ stability: 0.2 }) });
    const fromA = (await (await apiFetch(stack, a.apiKey, `/v1/voices/${premade}/settings`)).json()) as { stability: number };
    expect(fromA.stability).toBe(0.5);
  });

  it("cannot list or revoke another user's API keys", async () => {
    const list = (await (await asB("/v1/user/api-keys")).json()) as { api_keys: Array<{ key_id: string }> };
    expect(list.api_keys.map((k) => k.key_id)).not.toContain(keyIdA);
    expect((await asB(`/v1/user/api-keys/${keyIdA}`, { method: "DELETE" })).status).toBe(404);
    expect((await apiFetch(stack, a.apiKey, "/v1/user")).status).toBe(200);
  });

  it("sees only its own user, subscription and workspace", async () => {
    await stack.ctx.stores.ledger.deduct(a.workspace.workspace_id, 1234);
    const user = (await (await asB("/v1/user")).json()) as { user_id: string; workspace_id: string };
    expect(user).toMatchObject({ user_id: b.user.user_id, workspace_id: b.workspace.workspace_id });
    const sub = (await (await asB("/v1/user/subscription")).json()) as { character_count: number; voice_slots_used: number };
    expect(sub.character_count).toBe(0);
    expect(sub.voice_slots_used).toBe(0);
    const ws = (await (await asB("/v1/workspace")).json()) as { workspace_id: string };
    expect(ws.workspace_id).toBe(b.workspace.workspace_id);
    const patch = await asB("/v1/workspace", { method: "PATCH", body: JSON.stringify({ name: "Renamed by B" }) });
    expect(patch.status).toBe(200);
    expect((await stack.ctx.stores.workspaces.get(a.workspace.workspace_id))?.name).not.toBe("Renamed by B");
  });

  it("binds a session token to its own workspace", async () => {
    const userB = (await stack.ctx.stores.users.get(b.user.user_id))!;
    const { sessionId } = await createSession(stack.ctx, userB, "test");
    const smuggled = issueToken(stack.ctx.secrets.session, { sid: sha256Hex(sessionId), uid: b.user.user_id, ws: a.workspace.workspace_id, exp: 2e9 });
    const r = await apiFetch(stack, undefined, "/v1/voices", { headers: { authorization: `Bearer ${smuggled}` } });
    expect(r.status).toBe(401);
  });
});
