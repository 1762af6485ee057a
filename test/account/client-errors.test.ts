import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { createLogger } from "../../functions/platform/adapters/log.js";
import { CLIENT_ERROR_LIMITS } from "../../functions/capabilities/engagement/clientErrors.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";

/**
 * Issue 28 §9: the web app's errors reach the server's log (POST /client-errors, the page's
 * same-origin route, and /v1/client-errors behind it), bounded in size and rate.
 */
let stack: EmbeddedStack;
const lines: string[] = [];
const logged = () => lines.map((l) => JSON.parse(l) as { msg: string; user_id?: string; address?: string; client_error?: { message: string; where: string; kind: string; fatal: boolean; path?: string } }).filter((l) => l.msg === "client error");

beforeAll(async () => {
  stack = await startTestStack({ web: true, log: createLogger("warn", {}, (l) => lines.push(l)) });
}, 120_000);
afterAll(async () => stack?.close());

const report = (over: Record<string, unknown> = {}) => ({ message: "TypeError: x is undefined", where: "window", fatal: false, kind: "error", stack: "at f (app.js:1:2)", path: "/app/voice-lab", ...over });
const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}/client-errors`, { method: "POST", headers: { "content-type": "application/json", origin: stack.url, ...headers }, body });

describe("client error reports", () => {
  it("logs a signed-in user's report with the user, through the API", async () => {
    const acct = await createTestAccount(stack, "creator");
    const res = await apiFetch(stack, acct.apiKey, "/v1/client-errors", { method: "POST", body: JSON.stringify(report({ message: "Error: the waveform failed", where: "voice-lab", fatal: true, kind: "render" })) });
    expect(res.status).toBe(200);
    const line = logged().find((l) => l.client_error?.message === "Error: the waveform failed");
    expect(line).toMatchObject({ user_id: acct.user.user_id, client_error: { where: "voice-lab", fatal: true, kind: "render", path: "/app/voice-lab" } });
  });

  it("logs a visitor's report sent by the page, with the address the web server vouches for", async () => {
    const res = await post(JSON.stringify(report({ message: "Error: sign-in page broke", where: "sign-in" })));
    expect(res.status).toBe(204);
    const line = logged().find((l) => l.client_error?.message === "Error: sign-in page broke");
    expect(line?.user_id).toBeUndefined();
    expect(line?.address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
  });

  it("refuses reports from another site, of another type, too large, malformed, or straight to /v1 without credentials", async () => {
    const before = logged().length;
    expect((await post(JSON.stringify(report()), { origin: "https://evil.example" })).status).toBe(403);
    expect((await post(JSON.stringify(report()), { "content-type": "text/plain" })).status).toBe(415);
    expect((await post(JSON.stringify(report({ stack: "x".repeat(20_000) })))).status).toBe(413);
    expect((await post("{not json")).status).toBe(400);
    const invalid = await post(JSON.stringify(report({ message: "" })));
    // The API's validation answer (422, as every /v1 body).
    expect(invalid.status).toBe(422);
    expect((await post(JSON.stringify(report({ message: "m".repeat(CLIENT_ERROR_LIMITS.messageChars + 1) })))).status).toBe(422);
    const direct = await fetch(`${stack.url}/v1/client-errors`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(report()) });
    expect(direct.status).toBe(401);
    expect(logged().length).toBe(before);
  });

  it("takes at most 30 reports a minute from one reporter, then 429 with Retry-After", async () => {
    const acct = await createTestAccount(stack, "creator");
    const send = (i: number) => apiFetch(stack, acct.apiKey, "/v1/client-errors", { method: "POST", body: JSON.stringify(report({ message: `Error: loop ${i}` })) });
    for (let i = 0; i < CLIENT_ERROR_LIMITS.perMinute; i++) expect((await send(i)).status).toBe(200);
    const over = await send(99);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(logged().some((l) => l.client_error?.message === "Error: loop 99")).toBe(false);
    // Another user is not held back by the first one's loop.
    const other = await createTestAccount(stack, "creator");
    expect((await apiFetch(stack, other.apiKey, "/v1/client-errors", { method: "POST", body: JSON.stringify(report()) })).status).toBe(200);
  });
});
