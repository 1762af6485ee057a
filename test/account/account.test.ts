import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG } from "pngjs";
import jpeg from "jpeg-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { stepOf, totpAt } from "../../functions/capabilities/account/totp.js";
import { accountMessages } from "../../functions/capabilities/account/service.js";
import { bearerFor, signInSession } from "./support.js";

/** Profile, photo, password, sessions and two-factor sign-in, through /v1 as the web calls it. */
let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

function png(width: number, height: number): Buffer {
  const p = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) p.data.set([i % 256, 80, 160, i % 7 === 0 ? 0 : 255], i * 4);
  return PNG.sync.write(p);
}

describe("profile", () => {
  it("changes the display name and stores a photo checked by content, shrunk to 256 px, served without credentials", async () => {
    const acct = await createTestAccount(stack);
    const { body } = await signInSession(stack, acct.email, acct.password);
    const as = bearerFor(stack, body);
    expect((await as("/v1/user/profile", { method: "PATCH", body: JSON.stringify({ first_name: "Noor" }), headers: { "content-type": "application/json" } })).status).toBe(200);
    expect((await (await as("/v1/user")).json()).display_name).toBe("Noor");

    const up = await as("/v1/user/photo", { method: "PUT", body: new Uint8Array(png(900, 600)), headers: { "content-type": "image/png" } });
    expect(up.status).toBe(200);
    const { photo_url } = await up.json();
    expect((await (await as("/v1/user")).json()).photo_url).toBe(photo_url);
    const served = await fetch(new URL(photo_url, stack.url));
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    const img = jpeg.decode(new Uint8Array(await served.arrayBuffer()));
    expect([img.width, img.height]).toEqual([256, 256]);

    // Not an image (whatever its content type says), too many pixels, too many bytes.
    const text = await as("/v1/user/photo", { method: "PUT", body: "hello", headers: { "content-type": "image/png" } });
    expect((await text.json()).detail.message).toBe(accountMessages.photoType);
    const huge = png(1, 1);
    huge.writeUInt32BE(9000, 16);
    expect((await as("/v1/user/photo", { method: "PUT", body: new Uint8Array(huge), headers: { "content-type": "image/png" } })).status).toBe(400);
    expect((await as("/v1/user/photo", { method: "PUT", body: Buffer.alloc(6 * 1024 * 1024), headers: { "content-type": "image/png" } })).status).toBe(413);

    expect((await as("/v1/user/photo", { method: "DELETE" })).status).toBe(200);
    expect((await (await as("/v1/user")).json()).photo_url).toBeNull();
    expect((await fetch(new URL(photo_url, stack.url))).status).toBe(404);
  });
});

describe("password and sessions", () => {
  it("lists sessions, signs out the others, and changes the password only with the current one", async () => {
    const acct = await createTestAccount(stack);
    const one = (await signInSession(stack, acct.email, acct.password)).body;
    const two = (await signInSession(stack, acct.email, acct.password)).body;
    const asOne = bearerFor(stack, one);
    const asTwo = bearerFor(stack, two);
    const listed = (await (await asOne("/v1/user/sessions")).json()).sessions as Array<{ is_current: boolean; user_agent: string }>;
    expect(listed).toHaveLength(2);
    expect(listed.filter((s) => s.is_current)).toHaveLength(1);
    expect(listed[0].user_agent).toBe("Test browser");
    // Not with an API key.
    expect((await apiFetch(stack, acct.apiKey, "/v1/user/sessions")).status).toBe(403);

    const wrong = await asOne("/v1/user/password", { method: "POST", body: JSON.stringify({ current_password: "nope", new_password: "a new password" }), headers: { "content-type": "application/json" } });
    expect((await wrong.json()).detail.message).toBe(accountMessages.wrongPassword);
    const changed = await asOne("/v1/user/password", { method: "POST", body: JSON.stringify({ current_password: acct.password, new_password: "a new password" }), headers: { "content-type": "application/json" } });
    expect((await changed.json()).signed_out_sessions).toBe(1);
    expect((await asTwo("/v1/user")).status).toBe(401);
    expect((await asOne("/v1/user")).status).toBe(200);
    expect((await signInSession(stack, acct.email, acct.password)).status).toBe(401);
    const three = (await signInSession(stack, acct.email, "a new password")).body;
    expect((await (await asOne("/v1/user/sessions/sign-out-others", { method: "POST" })).json()).signed_out_sessions).toBe(1);
    expect((await bearerFor(stack, three)("/v1/user")).status).toBe(401);
  });
});

describe("two-factor authentication", () => {
  it("sets up TOTP with backup codes; sign-in then asks for a code, once each; a backup code works once", async () => {
    const acct = await createTestAccount(stack);
    const as = bearerFor(stack, (await signInSession(stack, acct.email, acct.password)).body);
    const post = (path: string, body?: unknown) => as(path, { method: "POST", body: body ? JSON.stringify(body) : undefined, headers: { "content-type": "application/json" } });
    const setup = await (await post("/v1/user/two-factor/setup")).json();
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauth_url).toContain(`secret=${setup.secret}`);
    expect((await post("/v1/user/two-factor/enable", { code: "000000" })).status).toBe(400);
    const enabled = await (await post("/v1/user/two-factor/enable", { code: totpAt(setup.secret, stepOf(Date.now() / 1000)) })).json();
    expect(enabled.backup_codes).toHaveLength(10);
    expect((await (await as("/v1/user/two-factor")).json())).toMatchObject({ enabled: true, backup_codes_left: 10 });
    const stored = await stack.ctx.stores.users.get(acct.user.user_id);
    expect(JSON.stringify(stored)).not.toContain(setup.secret);
    expect(stored!.backup_code_hash).toHaveLength(10);

    const first = await signInSession(stack, acct.email, acct.password);
    expect(first.body).toMatchObject({ two_factor_required: true });
    expect(first.body.session_id).toBeUndefined();
    const answer = (code: string, challenge = first.body.challenge) =>
      apiFetch(stack, undefined, "/v1/auth/sign-in/two-factor", { method: "POST", body: JSON.stringify({ challenge, code }) });
    expect((await answer("123456")).status).toBe(400);
    // The code used to enable is spent; the next step's code signs in, once.
    const next = totpAt(setup.secret, stepOf(Date.now() / 1000) + 1);
    const ok = await answer(next);
    expect(ok.status).toBe(200);
    expect((await ok.json()).session_id).toMatch(/.+/);
    expect((await answer(next)).status).toBe(400);
    expect((await answer(enabled.backup_codes[0])).status).toBe(200);
    expect((await answer(enabled.backup_codes[0])).status).toBe(400);
    expect((await answer(next, "forged.challenge")).status).toBe(401);
    expect((await (await as("/v1/user/two-factor")).json()).backup_codes_left).toBe(9);

    expect((await post("/v1/user/two-factor/disable", { password: acct.password, code: enabled.backup_codes[1] })).status).toBe(200);
    const plain = await signInSession(stack, acct.email, acct.password);
    expect(plain.body.session_id).toMatch(/.+/);
  });
});
