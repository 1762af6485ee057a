/**
 * A workspace's own remote engines over HTTP (issue 25 §3, API only): administrators add, list and
 * remove them; the key is stored sealed and only a masked hint comes back; the URL is checked at
 * save like a webhook target; members are refused and another workspace sees none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { WorkspaceEngines } from "../../functions/platform/stores/workspaceEngines.js";
import { MAX_WORKSPACE_ENGINES } from "../../functions/capabilities/engines/manage.js";
import { apiFetch, startTestStack } from "../support/stack.js";
import { adminOf, joinAsMember } from "./support.js";

const KEY = "sk-workspace-engine-secret-9f3b";
let stack: EmbeddedStack;

beforeAll(async () => {
  // Loopback allowed as for a webhook receiver on this machine; private networks are not.
  stack = await startTestStack({ env: { WEBHOOK_ALLOW_LOCAL_TARGETS: "true" } });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const add = (apiKey: string, body: Record<string, unknown>) => apiFetch(stack, apiKey, "/v1/workspace/engines", { method: "POST", body: JSON.stringify(body) });

describe("workspace remote engines", () => {
  it("an admin adds one: the key is sealed in the store and only a hint is ever returned", async () => {
    const admin = await adminOf(stack);
    const res = await add(admin.apiKey, { engine_id: "kokoro", kind: "openai", url: "http://127.0.0.1:8880/v1", key: KEY, model: "kokoro" });
    const text = await res.text();
    expect(res.status).toBe(201);
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toEqual({ engine_id: "kokoro", kind: "openai", url: "http://127.0.0.1:8880", model: "kokoro", language: "en", key_hint: "••••9f3b", created_at_unix: expect.any(Number) });

    const list = await apiFetch(stack, admin.apiKey, "/v1/workspace/engines");
    const listText = await list.text();
    expect(list.status).toBe(200);
    expect(listText).not.toContain(KEY);
    expect((JSON.parse(listText) as { engines: Array<{ engine_id: string }> }).engines.map((e) => e.engine_id)).toEqual(["kokoro"]);

    const stored = await new WorkspaceEngines(stack.ctx.stores.tables.main).get(admin.workspace.workspace_id, "kokoro");
    expect(stored?.key_enc).toBeTruthy();
    expect(JSON.stringify(stored)).not.toContain(KEY);

    expect((await add(admin.apiKey, { engine_id: "kokoro", url: "http://127.0.0.1:9999" })).status).toBe(409);
  });

  it("refuses private and link-local URLs at save, naming the engine, and malformed entries with their reason", async () => {
    const admin = await adminOf(stack);
    for (const url of ["http://10.0.0.8:8880", "http://169.254.169.254/", "http://[::ffff:192.168.1.2]/", "http://[fd00::1]:80"]) {
      const res = await add(admin.apiKey, { engine_id: "inside", url, key: KEY });
      const body = (await res.json()) as { detail: { status: string; message: string } };
      expect(res.status).toBe(400);
      expect(body.detail).toMatchObject({ status: "engine_target_not_allowed", message: expect.stringContaining('"inside"') });
      expect(body.detail.message).toContain("WEBHOOK_ALLOW_PRIVATE");
    }
    const bad = async (body: Record<string, unknown>, pattern: RegExp) => {
      const res = await add(admin.apiKey, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: { status: string; message: string } }).detail).toMatchObject({ status: "invalid_engine", message: expect.stringMatching(pattern) });
    };
    await bad({ engine_id: "Has Spaces", url: "http://127.0.0.1:1" }, /^id must be/);
    await bad({ engine_id: "creds", url: "http://user:pw@127.0.0.1:1" }, /^url must not carry credentials/);
    await bad({ engine_id: "ftp", url: "ftp://127.0.0.1/" }, /^url must be http or https/);
    await bad({ engine_id: "nowhere", url: "http://no-such-host.invalid/" }, /does not resolve/);
    expect((await add(admin.apiKey, { engine_id: "kind", kind: "xtts", url: "http://127.0.0.1:1" })).status).toBe(422);
    expect(((await (await apiFetch(stack, admin.apiKey, "/v1/workspace/engines")).json()) as { engines: unknown[] }).engines).toEqual([]);
  });

  it("members are refused; another workspace neither sees nor removes them; the admin removes one", async () => {
    const admin = await adminOf(stack);
    expect((await add(admin.apiKey, { engine_id: "mine", url: "http://127.0.0.1:8880", key: KEY })).status).toBe(201);
    const member = await joinAsMember(stack, admin);
    expect((await apiFetch(stack, member.apiKey, "/v1/workspace/engines")).status).toBe(403);
    expect((await add(member.apiKey, { engine_id: "theirs", url: "http://127.0.0.1:8880" })).status).toBe(403);
    expect((await apiFetch(stack, member.apiKey, "/v1/workspace/engines/mine", { method: "DELETE" })).status).toBe(403);

    const other = await adminOf(stack);
    expect(((await (await apiFetch(stack, other.apiKey, "/v1/workspace/engines")).json()) as { engines: unknown[] }).engines).toEqual([]);
    expect((await apiFetch(stack, other.apiKey, "/v1/workspace/engines/mine", { method: "DELETE" })).status).toBe(404);

    expect((await apiFetch(stack, admin.apiKey, "/v1/workspace/engines/mine", { method: "DELETE" })).status).toBe(200);
    expect((await apiFetch(stack, admin.apiKey, "/v1/workspace/engines/mine", { method: "DELETE" })).status).toBe(404);
    expect(((await (await apiFetch(stack, admin.apiKey, "/v1/workspace/engines")).json()) as { engines: unknown[] }).engines).toEqual([]);
  });

  it(`a workspace has at most ${MAX_WORKSPACE_ENGINES} engines`, async () => {
    const admin = await adminOf(stack);
    for (let i = 0; i < MAX_WORKSPACE_ENGINES; i++) expect((await add(admin.apiKey, { engine_id: `e${i}`, url: "http://127.0.0.1:8880" })).status).toBe(201);
    const res = await add(admin.apiKey, { engine_id: "one-more", url: "http://127.0.0.1:8880" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: { status: string } }).detail.status).toBe("engine_limit_reached");
  });
});
