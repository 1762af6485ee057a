import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { stepOf, totpAt } from "../../functions/capabilities/account/totp.js";
import { accountMessages } from "../../functions/capabilities/account/service.js";
import { sha256Hex } from "../../functions/platform/adapters/ids.js";
import { bearerFor, signInSession } from "./support.js";

/**
 * Two-factor codes are single-use even when sent at the same time (issue 24): a TOTP code signs in
 * once in its window, and each backup code works exactly once, the writes being conditional.
 */
let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

/** An account with two-factor on (enabled with the current step's code), its secret and backup codes. */
async function withTwoFactor() {
  const acct = await createTestAccount(stack);
  const as = bearerFor(stack, (await signInSession(stack, acct.email, acct.password)).body);
  const post = (path: string, body?: unknown) => as(path, { method: "POST", body: body ? JSON.stringify(body) : undefined, headers: { "content-type": "application/json" } });
  const { secret } = (await (await post("/v1/user/two-factor/setup")).json()) as { secret: string };
  const step = stepOf(Date.now() / 1000);
  const enabled = await post("/v1/user/two-factor/enable", { code: totpAt(secret, step) });
  expect(enabled.status).toBe(200);
  const { backup_codes } = (await enabled.json()) as { backup_codes: string[] };
  return { acct, as, secret, step, backupCodes: backup_codes };
}

async function challenge(email: string, password: string): Promise<string> {
  const first = await signInSession(stack, email, password);
  expect(first.body.two_factor_required).toBe(true);
  return first.body.challenge!;
}

const answer = (challenge: string, code: string) =>
  apiFetch(stack, undefined, "/v1/auth/sign-in/two-factor", { method: "POST", body: JSON.stringify({ challenge, code }) });

async function outcome(r: Response) {
  const body = (await r.json()) as { session_id?: string; detail?: { status: string; message: string } };
  return { status: r.status, session: body.session_id, detail: body.detail };
}

describe("two-factor codes are single-use in parallel", () => {
  it("signs in once with a TOTP code sent by three sign-ins at once", async () => {
    const { acct, secret, step } = await withTwoFactor();
    // The enabling code spent this step; the next step's code is good once.
    const code = totpAt(secret, step + 1);
    const challenges = await Promise.all([0, 1, 2].map(() => challenge(acct.email, acct.password)));
    const results = await Promise.all(challenges.map(async (c) => outcome(await answer(c, code))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => r.status)).toEqual([400, 400]);
    for (const r of refused) expect([accountMessages.codeUsed, accountMessages.wrongCode]).toContain(r.detail!.message);
    // And later too.
    expect((await answer(await challenge(acct.email, acct.password), code)).status).toBe(400);
  });

  it("uses up each backup code exactly once, different codes and the same code sent at once", async () => {
    const { acct, as, backupCodes } = await withTwoFactor();
    const c = await challenge(acct.email, acct.password);
    const different = backupCodes.slice(0, 4);
    const same = backupCodes[4];
    const [differentResults, sameResults] = await Promise.all([
      Promise.all(different.map(async (code) => outcome(await answer(c, code)))),
      Promise.all([same, same].map(async (code) => outcome(await answer(c, code)))),
    ]);
    expect(differentResults.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(sameResults.map((r) => r.status).sort()).toEqual([200, 400]);

    // Five codes are gone, for good: none of them is back in the stored list.
    expect(((await (await as("/v1/user/two-factor")).json()) as { backup_codes_left: number }).backup_codes_left).toBe(5);
    const stored = (await stack.ctx.stores.users.get(acct.user.user_id))!.backup_code_hash!;
    expect(stored).toEqual(backupCodes.slice(5).map((code) => sha256Hex(code)));
    for (const code of different.slice(0, 2)) expect((await answer(c, code)).status).toBe(400);
  });

  it("stops checking codes after ten tries in a quarter hour, wrong codes sent at once included, and says why", async () => {
    const { acct, secret, step, backupCodes } = await withTwoFactor();
    const c = await challenge(acct.email, acct.password);
    const wrong = Array.from({ length: 14 }, (_, i) => String(100000 + i));
    const results = await Promise.all(wrong.map(async (code) => outcome(await answer(c, code))));
    const checked = results.filter((r) => r.status !== 429);
    expect(checked.length).toBeLessThanOrEqual(10);
    for (const r of checked) expect(r.status).toBe(400);
    const refused = results.filter((r) => r.status === 429);
    expect(refused.length).toBe(14 - checked.length);
    for (const r of refused) expect(r.detail!.message).toBe(accountMessages.tooManyCodes);
    // Right codes are not checked either until the quarter hour has passed.
    expect((await outcome(await answer(c, totpAt(secret, step + 1)))).status).toBe(429);
    expect((await outcome(await answer(c, backupCodes[0]!))).status).toBe(429);
  });
});
