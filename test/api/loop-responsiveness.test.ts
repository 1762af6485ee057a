import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { loopBoundMs, loopDelayDuring } from "../support/loop.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/**
 * The acceptance of the hardening issue: while hostile inputs are refused or processed, /healthz
 * keeps answering, and the event loop is never held for 100 ms (p99 of its delay, measured here,
 * in the server's own process; no wall-clock assertion).
 */
let stack: EmbeddedStack;
let apiKey: string;

beforeAll(async () => {
  stack = await startTestStack();
  apiKey = (await createTestAccount(stack, "pro")).apiKey;
});
afterAll(async () => stack?.close());

async function whileRunning(work: () => Promise<unknown>): Promise<{ p99Ms: number; boundMs: number; healthDuring: boolean }> {
  const { result: healthDuring, p99Ms, idleP99Ms } = await loopDelayDuring(async () => {
    let done = false;
    const running = work().finally(() => (done = true));
    await new Promise((r) => setTimeout(r, 30));
    const health = await fetch(`${stack.url}/healthz`);
    const during = health.ok && !done;
    await running;
    return during;
  });
  return { p99Ms, boundMs: loopBoundMs(idleP99Ms), healthDuring };
}

const head = '<?xml version="1.0"?><lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en">\n';
const upload = (body: string) => {
  const form = new FormData();
  form.set("name", "Hostile");
  form.set("file", new Blob([`${head}${body}</lexicon>`]), "hostile.pls");
  return apiFetch(stack, apiKey, "/v1/pronunciation-dictionaries/add-from-file", { method: "POST", body: form });
};

describe("the event loop under hostile input", () => {
  it("stays free while PLS files of 80,000 lexemes and of 9,999 invalid ones are refused", async () => {
    const statuses: number[] = [];
    const r = await whileRunning(async () => {
      for (const body of ["<lexeme/>\n".repeat(80_000), "<lexeme><grapheme>abc</grapheme></lexeme>\n".repeat(9_999)]) {
        statuses.push((await upload(body)).status);
      }
    });
    expect(statuses).toEqual([400, 400]);
    expect(r.healthDuring).toBe(true);
    expect(r.p99Ms).toBeLessThan(r.boundMs);
  });

  it("stays free while a long flash request without punctuation is synthesised and streamed", async () => {
    const text = Array.from({ length: 700 }, (_, i) => `word${i % 13}`).join(" "); // ~4,500 characters, one sentence
    const r = await whileRunning(async () => {
      const res = await apiFetch(stack, apiKey, `/v1/text-to-speech/${premadeVoiceId("Avery")}/stream?output_format=mp3_22050_32`, {
        method: "POST",
        body: JSON.stringify({ text, model_id: "eleven_flash_v2_5" }),
      });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    });
    expect(r.healthDuring).toBe(true);
    expect(r.p99Ms).toBeLessThan(r.boundMs);
  });
});
