import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { wavHeader } from "../../functions/media/audio/wav.js";
import { apiFetch, createTestAccount } from "../support/stack.js";
import { axeViolations, smallTargets } from "./axe.js";
import { closeBrowserStack, closeContext, newContext, openBrowserStack, signIn, visit, watchErrors } from "./helpers.js";

/**
 * Issue 25 §3 in a real browser: a workspace administrator adds a remote speech engine on the
 * settings page (a bad URL and a private address refused with clear messages), tests it, sees its
 * voices reach the workspace's voice list, and removes it; at desktop width and at 390 px. The
 * engine is a fake OpenAI-compatible server this file starts.
 */
let stack: EmbeddedStack;
let browser: Browser;
let fake: HttpServer;
let fakeUrl: string;
const KEY = "sk-browser-engine-key-77aa";
const seenKeys: Array<string | undefined> = [];
/** Speech requests the fake answered (the picker's preview is made through it once). */
let speechAsked = 0;
/** Seconds of a tone as a 16-bit mono WAV at 24 kHz, as a speech server answers. */
function toneWav(seconds: number): Buffer {
  const rate = 24000;
  const n = Math.round(seconds * rate);
  const pcm = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) pcm.writeInt16LE(Math.round(6000 * Math.sin((2 * Math.PI * 200 * i) / rate)), i * 2);
  return Buffer.concat([Buffer.from(wavHeader(rate, pcm.length)), pcm]);
}

beforeAll(async () => {
  fake = createServer((req, res) => {
    seenKeys.push(req.headers.authorization);
    if (req.url === "/v1/audio/voices") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ voices: ["af_sky", "bm_lewis"] }));
    if (req.url === "/v1/audio/speech" && req.method === "POST") {
      speechAsked++;
      return void res.writeHead(200, { "content-type": "audio/wav" }).end(toneWav(1.5));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  // The fake listens on loopback, which only WEBHOOK_ALLOW_LOCAL_TARGETS allows; private networks stay refused.
  ({ stack, browser } = await openBrowserStack({ WEBHOOK_ALLOW_LOCAL_TARGETS: "true" }));
}, 180_000);

afterAll(async () => {
  await closeBrowserStack(stack, browser);
  fake?.closeAllConnections();
  await new Promise((r) => fake?.close(r));
});

const toast = (page: Page, text: string | RegExp) => page.getByRole("region", { name: "Notifications" }).getByText(text);
const remoteVoices = async (apiKey: string) =>
  ((await (await apiFetch(stack, apiKey, "/v1/voices")).json()) as { voices: Array<{ name: string; labels: Record<string, string> }> }).voices.filter((v) => v.labels.engine === "remote").map((v) => v.name).sort();

async function walk(width: number) {
  const admin = await createTestAccount(stack, "business");
  const context = await newContext(browser, stack, { width, height: 900 });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await signIn(page, admin.email, admin.password);
  await visit(page, "/app/settings/engines");
  expect(await page.getByRole("heading", { name: "Speech engines", level: 1 }).isVisible()).toBe(true);
  expect(await page.getByText("No engines").isVisible()).toBe(true);

  const add = async (name: string, url: string) => {
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("URL").fill(url);
    await page.getByLabel("API key (optional)").fill(KEY);
    await page.getByRole("button", { name: "Add engine" }).click();
  };
  // A bad URL: said on the page, nothing sent.
  await add("kokoro", "tts.example.com");
  await expect.poll(() => page.getByText("Enter the server's full http:// or https:// URL, e.g. https://tts.example.com").isVisible()).toBe(true);
  // A private address: the webhook rules' refusal, naming the engine and the operator's setting.
  await add("kokoro", "http://10.1.2.3:8880");
  await expect.poll(() => page.getByText(/The engine "kokoro" points to a private address/).isVisible()).toBe(true);
  expect(await page.getByText(/WEBHOOK_ALLOW_PRIVATE=true/).isVisible()).toBe(true);

  await add("kokoro", fakeUrl);
  await expect.poll(() => toast(page, "kokoro added with 2 voices.").isVisible()).toBe(true);
  const card = page.getByTestId("engine-kokoro");
  await expect.poll(() => card.isVisible()).toBe(true);
  expect(await card.getByText("Key ••••77aa", { exact: false }).isVisible()).toBe(true);
  expect(await page.content()).not.toContain(KEY);
  expect(seenKeys).toContain(`Bearer ${KEY}`);
  expect(await remoteVoices(admin.apiKey)).toEqual(["af_sky (kokoro)", "bm_lewis (kokoro)"]);

  // The page fits the width (nothing scrolls sideways), passes axe, and its controls are large enough to tap.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  expect(await axeViolations(page, "main")).toEqual([]);
  expect(await smallTargets(page, "main")).toEqual([]);

  // In the Text to Speech picker, with the engine's name.
  const sky = (await (await apiFetch(stack, admin.apiKey, "/v1/voices")).json()) as { voices: Array<{ voice_id: string; name: string }> };
  await visit(page, `/app/speech-synthesis/text-to-speech?voice_id=${sky.voices.find((v) => v.name === "af_sky (kokoro)")!.voice_id}`);
  await expect.poll(() => page.getByRole("button", { name: "Voice: af_sky (kokoro)" }).count()).toBe(1);
  await page.getByRole("button", { name: "Voice: af_sky (kokoro)" }).click();
  await page.getByRole("combobox", { name: "Search voices" }).pressSequentially("kokoro");
  await expect.poll(() => page.getByRole("option").count()).toBe(2);
  await page.keyboard.press("Escape");
  // Its preview plays in the picker: made through the engine on the first Play.
  const asked0 = speechAsked;
  const play = page.getByRole("button", { name: /^Play preview of af_sky/ });
  await expect.poll(() => play.count()).toBe(1);
  await play.click();
  await expect.poll(() => page.getByRole("button", { name: /^Pause preview of af_sky/ }).count(), { timeout: 20_000 }).toBe(1);
  expect(speechAsked).toBe(asked0 + 1);
  await visit(page, "/app/settings/engines");

  await card.getByRole("button", { name: "Test connection" }).click();
  await expect.poll(() => toast(page, "kokoro answers (2 voices).").isVisible()).toBe(true);

  // Its timeouts: out of bounds said on the page, then changed in place.
  await card.getByText("Change timeouts").click();
  await card.getByLabel("First audio within (s)").fill("61");
  await card.getByRole("button", { name: "Save timeouts" }).click();
  await expect.poll(() => toast(page, "The first-byte timeout is a whole number of seconds from 1 to 60").isVisible()).toBe(true);
  if (!(await card.getByLabel("First audio within (s)").isVisible())) await card.getByText("Change timeouts").click();
  await card.getByLabel("First audio within (s)").fill("7");
  await card.getByLabel("Whole answer within (s)").fill("90");
  await card.getByRole("button", { name: "Save timeouts" }).click();
  await expect.poll(() => toast(page, "kokoro now waits 7 s for the first audio and 90 s in all.").isVisible()).toBe(true);
  await expect.poll(() => card.getByText("Timeouts 7 s first audio, 90 s in all", { exact: false }).isVisible()).toBe(true);
  const listed = (await (await apiFetch(stack, admin.apiKey, "/v1/workspace/engines")).json()) as { engines: Array<{ first_byte_timeout_s: number; total_timeout_s: number }> };
  expect(listed.engines[0]).toMatchObject({ first_byte_timeout_s: 7, total_timeout_s: 90 });
  // What the engines speak in, and that the assistant keeps the built-in voice.
  expect(await page.getByTestId("engines-scope").textContent()).toContain("The support assistant always speaks with Timbre's built-in voice.");

  await card.getByRole("button", { name: "Remove kokoro" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
  await expect.poll(() => toast(page, "kokoro removed, with its voices.").isVisible()).toBe(true);
  await expect.poll(() => page.getByTestId("engine-kokoro").count()).toBe(0);
  expect(await remoteVoices(admin.apiKey)).toEqual([]);
  expect(errors.pageErrors).toEqual([]);
  await closeContext(context);
}

describe("speech engines in the settings", () => {
  it("an admin adds (bad URL and private address refused), tests and removes an engine at desktop width", () => walk(1280), 120_000);
  it("the same at 390 px", () => walk(390), 120_000);
});
