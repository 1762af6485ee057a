import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack } from "../support/stack.js";
import { loopBoundMs, loopDelayDuring } from "../support/loop.js";
import { hashPassword } from "../../functions/platform/domain/passwords.js";
import { cpuWorkersActive } from "../../functions/handlers/offload/index.js";
import { runPasswordTask } from "../../functions/platform/domain/passwords-work.js";
import { SIGN_IN_MAX_FAILURES_PER_EMAIL, SIGN_IN_WINDOW_SECONDS } from "../../functions/platform/domain/accounts.js";

/**
 * Sign-in protection: a burst of parallel guesses gets no more password checks than the limit;
 * behind a trusted reverse proxy the client's own address is counted, not the proxy's; the
 * password hash runs off the request loop.
 */
let direct: EmbeddedStack;
let proxied: EmbeddedStack;
/** The direct stack's clock: the real one unless a test sets it. */
let clock: number | undefined;

beforeAll(async () => {
  [direct, proxied] = await Promise.all([startTestStack({ now: () => clock ?? Date.now() }), startTestStack({ env: { TRUST_PROXY: "127.0.0.1, ::1" } })]);
});
afterAll(async () => {
  await Promise.all([direct?.close(), proxied?.close()]);
});

let n = 0;
const email = () => `signin-${Date.now()}-${++n}@example.test`;
const post = (stack: EmbeddedStack, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(new URL(path, stack.url), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

async function signUp(stack: EmbeddedStack, e: string, password: string) {
  const r = await post(stack, "/v1/auth/sign-up", { email: e, password });
  expect(r.status).toBe(201);
}

describe("sign-in limits", () => {
  it("checks at most the limit's number of passwords when 40 wrong ones arrive at once", async () => {
    const e = email();
    await signUp(direct, e, "the right password");
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => post(direct, "/v1/auth/sign-in", { email: e, password: `guess ${i}` }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_MAX_FAILURES_PER_EMAIL);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - SIGN_IN_MAX_FAILURES_PER_EMAIL);
    expect((await post(direct, "/v1/auth/sign-in", { email: e, password: "the right password" })).status).toBe(429);
  });

  it("does not count a successful sign-in against the address", async () => {
    const e = email();
    await signUp(direct, e, "the right password");
    for (let i = 0; i < 25; i++) expect((await post(direct, "/v1/auth/sign-in", { email: e, password: "the right password" })).status).toBe(200);
  });

  it("behind a trusted proxy, locks out the guessing client and not everyone else", async () => {
    const e = email();
    await signUp(proxied, e, "the right password");
    for (let i = 0; i < 20; i++) await post(proxied, "/v1/auth/sign-in", { email: `${i}${e}`, password: "x" }, { "x-forwarded-for": "203.0.113.7" });
    expect((await post(proxied, "/v1/auth/sign-in", { email: e, password: "the right password" }, { "x-forwarded-for": "203.0.113.7" })).status).toBe(429);
    // Another client behind the same proxy signs in.
    expect((await post(proxied, "/v1/auth/sign-in", { email: e, password: "the right password" }, { "x-forwarded-for": "198.51.100.20" })).status).toBe(200);
  });

  it("counts the failures of the quarter hour before: guesses either side of a window's boundary do not get twice the limit", async () => {
    const e = email();
    await signUp(direct, e, "the right password");
    const window = SIGN_IN_WINDOW_SECONDS * 1000;
    const boundary = (Math.floor(Date.now() / window) + 10) * window;
    try {
      clock = boundary - 5_000;
      for (let i = 0; i < SIGN_IN_MAX_FAILURES_PER_EMAIL; i++) expect((await post(direct, "/v1/auth/sign-in", { email: e, password: `guess ${i}` })).status).toBe(401);
      expect((await post(direct, "/v1/auth/sign-in", { email: e, password: "another guess" })).status).toBe(429);
      // Ten seconds later, in the next window: still locked, for guesses and for the right password alike, until
      // the failures' third of a quarter hour is more than a quarter hour old, which Retry-After says.
      clock = boundary + 5_000;
      const guess = await post(direct, "/v1/auth/sign-in", { email: e, password: "one more guess" });
      expect(guess.status).toBe(429);
      expect(guess.headers.get("retry-after")).toBe(String(SIGN_IN_WINDOW_SECONDS - 5));
      expect((await post(direct, "/v1/auth/sign-in", { email: e, password: "the right password" })).status).toBe(429);
      clock = boundary + window - 1_000;
      expect((await post(direct, "/v1/auth/sign-in", { email: e, password: "the right password" })).status).toBe(429);
      // Then the owner signs in, and that clears the count.
      clock = boundary + window;
      expect((await post(direct, "/v1/auth/sign-in", { email: e, password: "the right password" })).status).toBe(200);
      for (let i = 0; i < SIGN_IN_MAX_FAILURES_PER_EMAIL; i++) expect((await post(direct, "/v1/auth/sign-in", { email: e, password: `late ${i}` })).status).toBe(401);
      expect((await post(direct, "/v1/auth/sign-in", { email: e, password: "the right password" })).status).toBe(429);
    } finally {
      clock = undefined;
    }
  });

  it("without TRUST_PROXY, ignores X-Forwarded-For from anyone", async () => {
    const e = email();
    await signUp(direct, e, "the right password");
    for (let i = 0; i < 20; i++) await post(direct, "/v1/auth/sign-in", { email: `${i}${e}`, password: "x" }, { "x-forwarded-for": `198.51.100.${i}` });
    expect((await post(direct, "/v1/auth/sign-in", { email: e, password: "the right password" }, { "x-forwarded-for": "192.0.2.1" })).status).toBe(429);
  });
});

/** The longest gap between ticks of a 1 ms timer while `work` runs: how long the loop was blocked. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    await work();
    await new Promise((r) => setTimeout(r, 5));
  } finally {
    clearInterval(timer);
  }
  return longest;
}

describe("password hashing", () => {
  it("runs in worker threads in the embedded stack, so a burst of hashes does not stall the loop", async () => {
    expect(cpuWorkersActive()).toBe(true);
    // Baseline in the same run: one hash on this thread blocks the loop for its whole duration.
    const inline = await longestStall(() => runPasswordTask({ op: "hash", password: "pw", salt: new Uint8Array(16) }));
    // The pooled side is the best of three bursts after a warm one (the pool's threads start on first use), so a
    // pause from elsewhere in the process (a collection, the stack's own start-up work) is not counted as hashing.
    const burst = () => longestStall(() => Promise.all(Array.from({ length: 8 }, (_, i) => hashPassword(`pw ${i}`))));
    await burst();
    const pooled = Math.min(await burst(), await burst(), await burst());
    expect(pooled).toBeLessThan(inline / 2);
  });

  it("keeps /healthz answering during a burst of 20 wrong sign-ins: the loop does not pause 100 ms", async () => {
    const { result, p99Ms, idleP99Ms } = await loopDelayDuring(async () => {
      let burstDone = false;
      const burst = Promise.all(Array.from({ length: 20 }, (_, i) => post(proxied, "/v1/auth/sign-in", { email: email(), password: "wrong" }, { "x-forwarded-for": `192.0.2.${i}` }))).then(() => (burstDone = true));
      await new Promise((r) => setTimeout(r, 20));
      const health = await fetch(`${proxied.url}/healthz`);
      const answeredDuringBurst = !burstDone;
      await burst;
      return { status: health.status, answeredDuringBurst };
    });
    expect(result.status).toBe(200);
    expect(result.answeredDuringBurst).toBe(true);
    // Hashing on the loop would hold it for every queued hash in a row (20 x ~90 ms here).
    expect(p99Ms).toBeLessThan(loopBoundMs(idleP99Ms));
  });
});
