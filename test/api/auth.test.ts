import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, apiFetch } from "../support/stack.js";
import { issueToken, TOKEN_TTL_SECONDS } from "../../functions/platform/domain/tokens.js";
import { sha256Hex } from "../../functions/platform/adapters/ids.js";
import { messages } from "../../functions/platform/domain/accounts.js";

let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  apiFetch(stack, undefined, path, { method: "POST", body: JSON.stringify(body), headers });

let n = 0;
const email = () => `auth${++n}-${Date.now()}@example.test`;

async function signUp(e = email(), password = "long enough pw") {
  const r = await post("/v1/auth/sign-up", { email: e, password });
  expect(r.status).toBe(201);
  return (await r.json()) as { session_id: string; user_id: string; workspace_id: string; expires_at_unix: number };
}

const tokenFor = (s: { session_id: string; user_id: string; workspace_id: string }, exp = Math.floor(Date.now() / 1000) + TOKEN_TTL_SECONDS) =>
  issueToken(stack.ctx.secrets.session, { sid: sha256Hex(s.session_id), uid: s.user_id, ws: s.workspace_id, exp });

describe("accounts and authentication", () => {
  it("signs up a user into their own free workspace and serves /v1 with the session token", async () => {
    const s = await signUp();
    const r = await apiFetch(stack, undefined, "/v1/user", { headers: { authorization: `Bearer ${tokenFor(s)}` } });
    expect(r.status).toBe(200);
    const user = (await r.json()) as { user_id: string; workspace_id: string; subscription: { tier: string }; seat_type: string };
    expect(user).toMatchObject({ user_id: s.user_id, workspace_id: s.workspace_id, seat_type: "workspace_admin" });
    expect(user.subscription.tier).toBe("free");
  });

  it("stores the password as argon2id and never the API key itself", async () => {
    const e = email();
    const s = await signUp(e, "my secret pass");
    const key = await apiFetch(stack, undefined, "/v1/user/api-keys", {
      method: "POST",
      body: JSON.stringify({ name: "ci" }),
      headers: { authorization: `Bearer ${tokenFor(s)}` },
    });
    expect(key.status).toBe(201);
    const { xi_api_key } = (await key.json()) as { xi_api_key: string };
    const scan = await stack.ctx.aws.doc.send(new ScanCommand({ TableName: stack.config.aws.tables.main }));
    const dump = JSON.stringify(scan.Items);
    expect(dump).not.toContain(xi_api_key);
    expect(dump).not.toContain("my secret pass");
    const user = await stack.ctx.stores.users.get(s.user_id);
    expect(user?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("refuses a second account with the same e-mail, in any case", async () => {
    const e = email();
    await signUp(e);
    const r = await post("/v1/auth/sign-up", { email: e.toUpperCase(), password: "another password" });
    expect(r.status).toBe(409);
    expect(await r.json()).toEqual({ detail: { status: "email_taken", message: messages.emailTaken } });
  });

  it("validates sign-up input with 422 and the field's location", async () => {
    const r = await post("/v1/auth/sign-up", { email: "not-an-email", password: "short" });
    expect(r.status).toBe(422);
    const body = (await r.json()) as { detail: Array<{ loc: string[]; msg: string; type: string }> };
    expect(body.detail).toContainEqual({ loc: ["body", "email"], msg: messages.emailInvalid, type: "value_error" });
    expect(body.detail.find((d) => d.loc[1] === "password")?.msg).toBe(messages.passwordTooShort);
  });

  it("signs in with the right password and says why not otherwise", async () => {
    const e = email();
    await signUp(e, "right password");
    const ok = await post("/v1/auth/sign-in", { email: e, password: "right password" });
    expect(ok.status).toBe(200);
    const bad = await post("/v1/auth/sign-in", { email: e, password: "wrong password" });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ detail: { status: "invalid_credentials", message: messages.badCredentials } });
  });

  it("locks sign-in for an e-mail after 5 failures, even with the right password", async () => {
    const e = email();
    await signUp(e, "right password");
    for (let i = 0; i < 5; i++) expect((await post("/v1/auth/sign-in", { email: e, password: `nope ${i}` })).status).toBe(401);
    const locked = await post("/v1/auth/sign-in", { email: e, password: "right password" });
    expect(locked.status).toBe(429);
    // The failures stop counting 15 to 20 minutes after them (the limit slides in thirds of a quarter hour).
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThanOrEqual(895);
    expect(Number(locked.headers.get("retry-after"))).toBeLessThanOrEqual(1200);
    expect(((await locked.json()) as { detail: { message: string } }).detail.message).toBe(messages.tooManyAttempts);
  });

  it("ends the session on sign-out: outstanding tokens stop working", async () => {
    const s = await signUp();
    const auth = { authorization: `Bearer ${tokenFor(s)}` };
    expect((await apiFetch(stack, undefined, "/v1/user", { headers: auth })).status).toBe(200);
    expect((await apiFetch(stack, undefined, "/v1/auth/sign-out", { method: "POST", headers: auth })).status).toBe(200);
    const after = await apiFetch(stack, undefined, "/v1/user", { headers: auth });
    expect(after.status).toBe(401);
  });

  it("rejects expired, forged and foreign-workspace tokens", async () => {
    const s = await signUp();
    const other = await signUp();
    const expired = tokenFor(s, Math.floor(Date.now() / 1000) - 1);
    const forged = issueToken("another secret that is long enough to look real", { sid: sha256Hex(s.session_id), uid: s.user_id, ws: s.workspace_id, exp: 2e9 });
    const crossed = issueToken(stack.ctx.secrets.session, { sid: sha256Hex(s.session_id), uid: s.user_id, ws: other.workspace_id, exp: 2e9 });
    for (const t of [expired, forged, crossed]) {
      const r = await apiFetch(stack, undefined, "/v1/user", { headers: { authorization: `Bearer ${t}` } });
      expect(r.status).toBe(401);
      expect(((await r.json()) as { detail: { status: string } }).detail.status).toBe("invalid_api_key");
    }
  });

  it("answers a missing or unknown API key with 401 invalid_api_key", async () => {
    for (const key of [undefined, "sk_not_a_real_key_at_all_000000"]) {
      const r = await apiFetch(stack, key, "/v1/models");
      expect(r.status).toBe(401);
      const body = (await r.json()) as { detail: { status: string; message: string } };
      expect(body.detail.status).toBe("invalid_api_key");
      expect(body.detail.message.length).toBeGreaterThan(0);
    }
  });

  it("lists, and revokes, a user's API keys; a revoked key stops working", async () => {
    const s = await signUp();
    const auth = { authorization: `Bearer ${tokenFor(s)}` };
    const created = (await (
      await apiFetch(stack, undefined, "/v1/user/api-keys", { method: "POST", body: JSON.stringify({ name: "laptop" }), headers: auth })
    ).json()) as { key_id: string; xi_api_key: string; hint: string };
    expect(created.hint).toBe(`${created.xi_api_key.slice(0, 7)}…`);
    expect((await apiFetch(stack, created.xi_api_key, "/v1/user")).status).toBe(200);
    const list = (await (await apiFetch(stack, undefined, "/v1/user/api-keys", { headers: auth })).json()) as {
      api_keys: Array<{ key_id: string; name: string; last_used_at_unix: number | null }>;
    };
    expect(list.api_keys).toEqual([expect.objectContaining({ key_id: created.key_id, name: "laptop" })]);
    expect(list.api_keys[0].last_used_at_unix).toEqual(expect.any(Number));
    expect(JSON.stringify(list)).not.toContain(created.xi_api_key);
    expect((await apiFetch(stack, undefined, `/v1/user/api-keys/${created.key_id}`, { method: "DELETE", headers: auth })).status).toBe(200);
    expect((await apiFetch(stack, created.xi_api_key, "/v1/user")).status).toBe(401);
  });

  it("trusts X-Forwarded-For only from the web server", async () => {
    // Five failures "from" spoofed addresses still count against the real socket address.
    const e = email();
    await signUp(e, "right password");
    for (let i = 0; i < 20; i++) await post("/v1/auth/sign-in", { email: `${i}${e}`, password: "x" }, { "x-forwarded-for": `10.0.0.${i}` });
    const r = await post("/v1/auth/sign-in", { email: e, password: "right password" }, { "x-forwarded-for": "10.9.9.9" });
    expect(r.status).toBe(429);
  });
});
