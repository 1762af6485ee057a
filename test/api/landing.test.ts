import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { INTERNAL_HEADER, internalProof } from "../../functions/platform/domain/internal.js";
import { LANDING, landingMessages } from "../../functions/capabilities/speech/landing.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";

/**
 * The landing page's text to speech for logged-out visitors (speech-generation.md §1, §6):
 * a few premade voices, a limit per visitor and per address, no workspace's credits, and only
 * the web server may ask (it vouches for the visitor and the address).
 */
let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack();
}, 60_000);
afterAll(() => stack?.close());

const AVERY = premadeVoiceId("Avery");
let addresses = 0;
/** A fresh client address per test, so each test meets the limits from zero. */
const nextAddress = () => `203.0.113.${++addresses}`;

function speak(body: Record<string, unknown>, opts: { address: string; internal?: boolean }) {
  const headers: Record<string, string> = { "content-type": "application/json", "x-forwarded-for": opts.address };
  if (opts.internal !== false) headers[INTERNAL_HEADER] = internalProof(stack.ctx.secrets.session);
  return apiFetch(stack, undefined, "/v1/landing/text-to-speech", { method: "POST", headers, body: JSON.stringify(body) });
}

const visitor = (n: number) => `visitor-${n}-${"x".repeat(20)}`;

describe("the landing page's voices", () => {
  it("lists the landing voices without credentials, with the page's limits", async () => {
    const res = await apiFetch(stack, undefined, "/v1/landing/voices");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { max_characters: number; requests_per_visitor: number; voices: Array<{ voice_id: string; name: string }> };
    expect(body.max_characters).toBe(LANDING.maxCharacters);
    expect(body.requests_per_visitor).toBe(LANDING.perVisitor);
    expect(body.voices.map((v) => v.name)).toEqual(LANDING.voices);
    expect(body.voices[0].voice_id).toBe(AVERY);
  });
});

describe("speech for a visitor", () => {
  it("speaks a visitor's text as an MP3 and says how many requests are left", async () => {
    const res = await speak({ text: "Hello from the landing page.", voice_id: AVERY, visitor_id: visitor(1) }, { address: nextAddress() });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    expect(res.headers.get("x-landing-requests-left")).toBe(String(LANDING.perVisitor - 1));
    const audio = new Uint8Array(await res.arrayBuffer());
    // An MP3 file: an ID3 tag or a frame sync at the start, and more than a header's worth.
    expect(audio[0] === 0x49 || (audio[0] === 0xff && (audio[1] & 0xe0) === 0xe0)).toBe(true);
    expect(audio.byteLength).toBeGreaterThan(4000);
  }, 60_000);

  it("is only for the web server: the same call without its proof is refused", async () => {
    const res = await speak({ text: "Hello.", voice_id: AVERY, visitor_id: visitor(2) }, { address: nextAddress(), internal: false });
    expect(res.status).toBe(403);
  });

  it("refuses a text over the page's limit, an empty text and a voice the page does not offer, before counting anything", async () => {
    const address = nextAddress();
    const tooLong = await speak({ text: "a".repeat(LANDING.maxCharacters + 1), voice_id: AVERY, visitor_id: visitor(3) }, { address });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { detail: { message: string } }).detail.message).toBe(landingMessages.tooLong(LANDING.maxCharacters));
    const empty = await speak({ text: "   ", voice_id: AVERY, visitor_id: visitor(3) }, { address });
    expect(empty.status).toBe(400);
    const otherVoice = await speak({ text: "Hello.", voice_id: premadeVoiceId("Klaus"), visitor_id: visitor(3) }, { address });
    expect(otherVoice.status).toBe(400);
    expect(((await otherVoice.json()) as { detail: { status: string } }).detail.status).toBe("voice_not_offered");
    // A text far beyond any the page sends is refused by the schema; a huge body by the front.
    const long = await speak({ text: "a".repeat(LANDING.maxCharacters * 4 + 1), voice_id: AVERY, visitor_id: visitor(3) }, { address });
    expect(long.status).toBe(422);
    const huge = await speak({ text: "a".repeat(2_000_000), voice_id: AVERY, visitor_id: visitor(3) }, { address });
    expect(huge.status).toBe(413);
    // None of those counted: the visitor still has every request.
    const ok = await speak({ text: "Hi.", voice_id: AVERY, visitor_id: visitor(3) }, { address });
    expect(ok.headers.get("x-landing-requests-left")).toBe(String(LANDING.perVisitor - 1));
  }, 60_000);

  it("stops a visitor at the limit with the sign-up prompt, and an address at its own", async () => {
    const address = nextAddress();
    for (let i = 0; i < LANDING.perVisitor; i++) {
      const r = await speak({ text: "Hi.", voice_id: AVERY, visitor_id: visitor(4) }, { address });
      expect(r.status).toBe(200);
    }
    const refused = await speak({ text: "Hi.", voice_id: AVERY, visitor_id: visitor(4) }, { address });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await refused.json()) as { detail: { status: string; message: string } }).detail).toEqual({ status: "landing_limit_reached", message: landingMessages.limitReached });
    // The same visitor from another address is still refused (the cookie counts)...
    expect((await speak({ text: "Hi.", voice_id: AVERY, visitor_id: visitor(4) }, { address: nextAddress() })).status).toBe(429);
    // ...and new visitors from the first address are served until the address's own limit.
    let served = LANDING.perVisitor;
    for (let v = 100; served < LANDING.perAddress; v++) {
      for (let i = 0; i < LANDING.perVisitor && served < LANDING.perAddress; i++, served++) {
        expect((await speak({ text: "Hi.", voice_id: AVERY, visitor_id: visitor(v) }, { address })).status).toBe(200);
      }
    }
    expect((await speak({ text: "Hi.", voice_id: AVERY, visitor_id: visitor(999) }, { address })).status).toBe(429);
  }, 120_000);

  it("charges no workspace and writes no history", async () => {
    const account = await createTestAccount(stack, "free");
    const before = (await (await apiFetch(stack, account.apiKey, "/v1/user/subscription")).json()) as { character_count: number };
    expect((await speak({ text: "Nobody pays for this.", voice_id: AVERY, visitor_id: visitor(5) }, { address: nextAddress() })).status).toBe(200);
    const after = (await (await apiFetch(stack, account.apiKey, "/v1/user/subscription")).json()) as { character_count: number };
    expect(after.character_count).toBe(before.character_count);
    const history = (await (await apiFetch(stack, account.apiKey, "/v1/history")).json()) as { history: unknown[] };
    expect(history.history).toEqual([]);
  }, 60_000);

  it("runs one landing synthesis at a time: beyond the short queue visitors hear the system is busy, and keep their request", async () => {
    const text = "This sentence is long enough to keep the engine busy for a little while, so that several visitors arrive together. ".repeat(2).slice(0, LANDING.maxCharacters);
    const address = () => nextAddress();
    const n = LANDING.queue + 8;
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => speak({ text, voice_id: AVERY, visitor_id: visitor(200 + i) }, { address: address() })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(LANDING.queue + 1);
    const busy = answers.filter((r) => r.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    for (const r of busy) expect(((await r.json()) as { detail: { status: string } }).detail.status).toBe("system_busy");
    // A busy answer gave its request back: that visitor still has all of them.
    const i = statuses.indexOf(503);
    const again = await speak({ text: "Hi.", voice_id: AVERY, visitor_id: visitor(200 + i) }, { address: nextAddress() });
    expect(again.headers.get("x-landing-requests-left")).toBe(String(LANDING.perVisitor - 1));
  }, 120_000);
});
