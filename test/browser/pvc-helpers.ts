import { type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { expect, type ExpectStatic } from "vitest";
import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, createTestUser } from "../support/stack.js";
import { pvcMessages } from "../../web/app/components/pvc/wizard.js";
import { newContext, signIn, visit, watchErrors } from "./helpers.js";

/**
 * What the professional clone wizard's browser tests share (pvc-verification, pvc-recorder,
 * pvc-walks): the sizes they walk at, a clone made through the API and the wizard opened on it,
 * reading the captcha, and the width checks.
 */
export const PVC_SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1440, height: 900 },
] as const;

export const WIZARD = "/app/voice-lab?mode=create&creationType=professionalVoiceClone";
export const verifyUrl = (voiceId: string) => `${WIZARD}&createdVoiceId=${voiceId}&pvcMode=verify`;

/** A creator's professional clone that needs verification, made through the SDK, with `sample` (a WAV), if given, as its one sample. */
export async function cloneNeedingVerification(stack: EmbeddedStack, name: string, sample?: Uint8Array) {
  const acct = await createTestAccount(stack, "creator");
  const client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
  const { voiceId } = await client.voices.pvc.create({ name, language: "en" });
  // The front admits two large bodies per address at a time and answers 429 too_many_uploads with
  // retry-after: 2 to the rest; the tests run at once from one address, so the upload retries as
  // the SDK does by default (a client with maxRetries: 0 otherwise, so that other calls fail plainly).
  if (sample) await client.voices.pvc.samples.create(voiceId, { files: [new File([new Uint8Array(sample)], "reading.wav", { type: "audio/wav" })] }, { maxRetries: 6 });
  return { acct, client, voiceId };
}

/** The user signed in on `context` (a profile of its own), on the clone's Verification screen; `ex`: a concurrent test's own `expect`. */
export async function openVerificationScreen(context: BrowserContext, acct: { email: string; password: string }, voiceId: string, ex: ExpectStatic = expect) {
  const page = await context.newPage();
  const errors = watchErrors(page);
  await signIn(page, acct.email, acct.password, ex);
  await visit(page, verifyUrl(voiceId), ex);
  const screen = page.getByRole("dialog", { name: pvcMessages.verifyTitle });
  await screen.getByRole("link", { name: "Terms of Service" }).waitFor();
  return { page, errors, screen };
}

/** Every open dialog and everything in it ends inside the viewport. */
export const dialogsFitWidth = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll<HTMLElement>("dialog[open], dialog[open] *")].every((e) => e.getBoundingClientRect().right <= window.innerWidth + 1));

/** The topmost open dialog neither scrolls sideways nor ends past the viewport. */
export const topDialogFits = (page: Page) =>
  page.locator("dialog[open]").last().evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth + 1);

/**
 * Record, Start recording: the captcha image appears (a decoded PNG); stop once the page's own
 * recording time ('5.3 s / 15 s') reaches `seconds`: what the recording holds, instead of a sleep
 * of the test's own counted from when it saw the timer.
 * `ex`: a concurrent test's own `expect`.
 */
export async function readCaptcha(page: Page, seconds: number, ex: ExpectStatic = expect) {
  const dialog = page.getByRole("dialog", { name: pvcMessages.verifyTitle });
  await dialog.getByRole("button", { name: "Record", exact: true }).click();
  await dialog.getByRole("button", { name: "Start recording" }).click();
  const image = dialog.getByRole("img", { name: pvcMessages.captchaAlt });
  await ex.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 }).toBeGreaterThan(200);
  const timer = dialog.getByRole("timer");
  await ex.poll(() => timer.count(), { timeout: 8000 }).toBe(1);
  await ex.poll(async () => parseFloat((await timer.textContent()) ?? "0"), { timeout: seconds * 1000 + 30_000, interval: 100 }).toBeGreaterThanOrEqual(seconds);
  await dialog.getByRole("button", { name: "Stop" }).click();
  return dialog;
}

/** A signed-in page on the Voice Data step of a new clone named Reader (`language`: its samples' language); `ex`: a concurrent test's own `expect`. */
export async function openVoiceData(browser: Browser, stack: EmbeddedStack, opts: { width: number; microphone?: boolean; language?: string }, ex: ExpectStatic = expect) {
  const acct = await createTestAccount(stack, "creator");
  const created = await apiFetch(stack, acct.apiKey, "/v1/voices/pvc", { method: "POST", body: JSON.stringify({ name: "Reader", language: opts.language ?? "en" }) });
  const { voice_id } = (await created.json()) as { voice_id: string };
  const context = await newContext(browser, stack, { width: opts.width, height: opts.width < 500 ? 844 : 900, microphone: opts.microphone });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await signIn(page, acct.email, acct.password, ex);
  await visit(page, `${WIZARD}&createdVoiceId=${voice_id}`, ex);
  const data = page.getByRole("dialog", { name: "Voice Data" });
  await ex.poll(() => data.getByLabel("Voice name").inputValue(), { timeout: 10_000 }).toBe("Reader");
  return { page, data, errors, voiceId: voice_id, acct };
}

export async function openRecorder(page: Page, data: Locator) {
  await data.getByRole("button", { name: "Record yourself" }).click();
  const rec = page.getByRole("dialog", { name: pvcMessages.recorderTitle });
  await rec.waitFor();
  return rec;
}

/** A server administrator (who reviews manual verification requests on the administration page). */
export async function createServerAdmin(stack: EmbeddedStack): Promise<{ email: string; password: string }> {
  const admin = { email: `admin-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`, password: "operator password" };
  await createTestUser(stack, { email: admin.email, password: admin.password, tier: "free", serverAdmin: true });
  return admin;
}

/** The administrator signed in on a profile of its own, on the administration page, at the request for `voiceName`; `ex`: a concurrent test's own `expect`. */
export async function openAdminRequest(browser: Browser, stack: EmbeddedStack, admin: { email: string; password: string }, size: { width: number; height: number }, voiceName: string, ex: ExpectStatic = expect) {
  const context = await newContext(browser, stack, size);
  const page = await context.newPage();
  await signIn(page, admin.email, admin.password, ex);
  await visit(page, "/app/settings/administration", ex);
  const request = page.getByRole("listitem", { name: `Request for ${voiceName}` });
  await request.waitFor();
  return { context, page, request };
}
