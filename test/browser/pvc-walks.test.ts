import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PNG } from "pngjs";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, startTestStack } from "../support/stack.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { verificationMessages } from "../../functions/platform/contract/voiceCreation.js";
import { passagesOf, pvcMessages, recorderText } from "../../web/app/components/pvc/recorder.js";
import { closeBrowserStack, closeContext, launchChromium, newContext, reload, visit } from "./helpers.js";
import { PVC_SIZES, cloneNeedingVerification, createServerAdmin, dialogsFitWidth, openAdminRequest, openRecorder, openVerificationScreen, openVoiceData, readCaptcha, topDialogFits } from "./pvc-helpers.js";

/**
 * Walks of the professional clone wizard that pvc-verification and pvc-recorder leave out
 * (professional-voice-clone.md, messages word for word): an administrator rejecting a manual
 * verification request and what the user then sees; the maximum-attempts screen after the fifth
 * failed captcha (four failed through the API, the fifth read in the browser); the
 * already_verified toast when the voice was verified while the screen was open; the microphone
 * refused (in the recorder and on the Verification screen); and the recorder's 'Language
 * Mismatch' confirm for an uploaded script in another language. One Chromium launch: its fake
 * microphone plays near silence, and the microphone is granted per profile, so a profile that is
 * not granted it is refused as a user who answers Block.
 */
vi.setConfig({ testTimeout: 240_000, hookTimeout: 180_000 });

let stack: EmbeddedStack;
let browser: Browser;
let dir: string;
let admin: { email: string; password: string };
const [PHONE, DESKTOP] = PVC_SIZES;

/** Near silence (a faint noise floor), 16 kHz: the fake microphone loops it. */
function quietWav(seconds: number): Uint8Array {
  let s = 7;
  return encodeWav(
    Int16Array.from({ length: seconds * 16_000 }, () => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return Math.round(16 * (s / 2 ** 31 - 1));
    }),
    16_000,
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pvc-walks-"));
  const mic = join(dir, "quiet.wav");
  writeFileSync(mic, quietWav(20));
  [stack, browser] = await Promise.all([startTestStack({ web: true }), launchChromium({ microphone: mic, askPermission: true })]);
  admin = await createServerAdmin(stack);
});
afterAll(async () => {
  await closeBrowserStack(stack, browser);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The user's request for manual verification, through the API (the dialog itself is walked in pvc-verification). */
async function requestManualVerification(apiKey: string, voiceId: string) {
  const png = new PNG({ width: 8, height: 8 });
  png.data.fill(120);
  const form = new FormData();
  form.append("files", new Blob([new Uint8Array(PNG.sync.write(png))], { type: "image/png" }), "licence.png");
  form.append("extra_text", "The recordings are of my own voice.");
  const r = await apiFetch(stack, apiKey, `/v1/voices/pvc/${voiceId}/verification`, { method: "POST", body: form });
  expect(r.status, await r.clone().text()).toBe(200);
}

/** A signed-in user's page on the clone's Verification screen (`microphone`: the profile may use it). */
const verificationScreen = async (acct: { email: string; password: string }, voiceId: string, size: { width: number; height: number }, microphone: boolean) =>
  openVerificationScreen(await newContext(browser, stack, { width: size.width, height: size.height, microphone }), acct, voiceId);

/** A clone whose owner asked for manual verification (through the API), on its Verification screen, the request pending. */
async function pendingManualRequest(name: string, size: { width: number; height: number }, microphone: boolean) {
  const { acct, voiceId } = await cloneNeedingVerification(stack, name);
  await requestManualVerification(acct.apiKey, voiceId);
  const opened = await verificationScreen(acct, voiceId, size, microphone);
  const requested = opened.screen.getByRole("button", { name: pvcMessages.manualVerificationRequested });
  await requested.waitFor();
  expect(await requested.isDisabled()).toBe(true);
  return { acct, voiceId, ...opened };
}

describe("manual verification rejected, at 1440 px", () => {
  it("an administrator rejects the request with a reason; the user reads it on the Verification screen and in the notifications, and may ask again", async () => {
    const name = "Rejected desktop";
    // This profile is not granted the microphone: Record says so (§8).
    const { acct, voiceId, page, errors, screen } = await pendingManualRequest(name, DESKTOP, false);
    expect(await screen.textContent()).toContain(pvcMessages.manualPendingText);
    await screen.getByRole("button", { name: "Record", exact: true }).click();
    await expect.poll(() => screen.getByRole("alert").textContent()).toBe(pvcMessages.micDenied);

    // The administrator: a rejection needs a reason.
    const reason = "The licence does not name the speaker of the samples.";
    const adminView = await openAdminRequest(browser, stack, admin, DESKTOP, name);
    await adminView.request.getByRole("button", { name: "Reject" }).click();
    await expect.poll(() => adminView.page.getByRole("alert").textContent()).toContain("Give the user a reason.");
    await adminView.request.getByLabel("Reason for rejecting").fill(reason);
    await adminView.request.getByRole("button", { name: "Reject" }).click();
    await expect.poll(() => adminView.page.getByRole("listitem", { name: `Request for ${name}` }).count(), { timeout: 10_000 }).toBe(0);
    await closeContext(adminView.context);

    // The user hears of it in the notifications, whose link opens the Verification screen again.
    await visit(page, "/app");
    await page.getByRole("button", { name: /^Notifications/ }).click();
    const note = page.getByRole("dialog", { name: "Notifications" }).getByRole("listitem").filter({ hasText: pvcMessages.manualRejectedTitle(name) });
    await expect.poll(() => note.textContent(), { timeout: 10_000 }).toContain(`${pvcMessages.manualRejectedIntro} ${reason}`);
    await note.getByRole("link", { name: "Open" }).click();
    await page.waitForURL((u) => u.searchParams.get("pvcMode") === "verify" && u.searchParams.get("createdVoiceId") === voiceId);
    // The reason on the screen, the button offered again, the captcha still there.
    const declined = screen.getByRole("status").filter({ hasText: pvcMessages.manualRejectedIntro });
    await expect.poll(() => declined.textContent(), { timeout: 10_000 }).toBe(`${pvcMessages.manualRejectedIntro} ${reason}`);
    const again = screen.getByRole("button", { name: pvcMessages.manualVerification, exact: true });
    expect(await again.isEnabled()).toBe(true);
    expect(await screen.getByRole("button", { name: pvcMessages.manualVerificationRequested }).count()).toBe(0);
    expect(await screen.textContent()).not.toContain(pvcMessages.manualPendingText);
    expect(await screen.getByRole("button", { name: "Record", exact: true }).count()).toBe(1);
    expect(await dialogsFitWidth(page)).toBe(true);
    // Asking again opens the dialog for this voice.
    await again.click();
    await page.getByRole("dialog", { name: pvcMessages.manualVerificationTitle(name) }).waitFor();
    const v = (await (await apiFetch(stack, acct.apiKey, `/v1/voices/${voiceId}`)).json()) as { voice_verification: { is_verified: boolean } };
    expect(v.voice_verification.is_verified).toBe(false);
    expect(errors.pageErrors).toEqual([]);
    await closeContext(page.context());
  });
});

describe("the maximum-attempts screen, at 390 px", () => {
  it("the fourth failure read in the browser, the fifth through the API while the screen is open: recording again gets the server's max_verification_attempts_reached and the screen says when to try again", async () => {
    const { acct, voiceId } = await cloneNeedingVerification(stack, "Limit phone");
    const silence = new Uint8Array(encodeWav(new Int16Array(16_000 * 3), 16_000));
    /** One failed captcha attempt through the API: a silent recording. */
    const failThroughApi = async () => {
      expect((await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/captcha`)).status).toBe(200);
      const form = new FormData();
      form.append("recording", new Blob([silence], { type: "audio/wav" }), "recording.wav");
      const r = await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/captcha?wait=30`, { method: "POST", body: form });
      const body = (await r.json()) as { detail: { status: string; reasons: string[] } };
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(body.detail.reasons).toEqual([verificationMessages.noSpeech]);
    };
    for (let i = 0; i < 3; i++) await failThroughApi();

    const { page, errors, screen } = await verificationScreen(acct, voiceId, PHONE, true);
    expect(await screen.getByRole("button", { name: "2 attempts left" }).count()).toBe(1);
    await readCaptcha(page, 3);
    const failed = screen.getByRole("alert").filter({ hasText: pvcMessages.attemptFailed });
    await expect.poll(() => failed.count(), { timeout: 60_000 }).toBe(1);
    // Whichever checks refuse the quiet reading, their reasons are listed.
    expect(await failed.getByRole("listitem").count()).toBeGreaterThan(0);
    await screen.getByRole("button", { name: "1 attempt left" }).waitFor();
    await failed.getByRole("button", { name: pvcMessages.tryAgain }).click();

    // The last attempt goes elsewhere; this screen still offers a recording, and the server refuses the captcha (§8).
    await failThroughApi();
    await screen.getByRole("button", { name: "Record", exact: true }).click();
    await screen.getByRole("button", { name: "Start recording" }).click();
    const max = screen.getByRole("status").filter({ has: page.getByRole("heading", { name: pvcMessages.maxAttempts }) });
    await max.waitFor();
    // §4: the reset (24 hours after the first attempt) is ahead, so the screen says when.
    expect(await max.textContent()).toContain("You can try again in 24 hours.");
    expect(await screen.getByRole("button", { name: "Record", exact: true }).count()).toBe(0);
    expect(await screen.getByRole("timer").count()).toBe(0);
    expect(await max.getByRole("button", { name: pvcMessages.manualVerification }).count()).toBe(1);
    expect(await dialogsFitWidth(page)).toBe(true);

    // Coming back later: the count alone shows the screen, and the history holds the five failures.
    await reload(page);
    await max.waitFor();
    expect(await max.textContent()).toContain("You can try again in 24 hours.");
    await screen.getByRole("button", { name: "0 attempts left" }).click();
    const history = page.getByRole("dialog", { name: pvcMessages.verificationHistory });
    await expect.poll(() => history.getByRole("listitem").filter({ hasText: "Failed" }).count()).toBe(5);
    expect(await dialogsFitWidth(page)).toBe(true);
    await history.getByRole("button", { name: "Close" }).click();
    expect(errors.pageErrors).toEqual([]);
    await closeContext(page.context());
  });
});

describe("already verified, at 390 px", () => {
  it("verified elsewhere while the screen was open: recording says 'You have already verified this voice.' and the wizard moves on to Finish", async () => {
    const name = "Verified phone";
    const { acct, voiceId, page, errors, screen } = await pendingManualRequest(name, PHONE, true);

    // Meanwhile an administrator approves the request.
    const adminView = await openAdminRequest(browser, stack, admin, PHONE, name);
    await adminView.request.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => adminView.page.getByRole("listitem", { name: `Request for ${name}` }).count(), { timeout: 10_000 }).toBe(0);
    await closeContext(adminView.context);

    // The open screen still offers the captcha; starting a recording asks for it.
    await screen.getByRole("button", { name: "Record", exact: true }).click();
    await screen.getByRole("button", { name: "Start recording" }).click();
    const toasts = page.getByRole("region", { name: "Notifications" });
    await expect.poll(() => toasts.textContent()).toContain(pvcMessages.alreadyVerified);
    await page.getByRole("dialog", { name: pvcMessages.finishTitle }).waitFor();
    expect(await dialogsFitWidth(page)).toBe(true);
    const v = (await (await apiFetch(stack, acct.apiKey, `/v1/voices/${voiceId}`)).json()) as { voice_verification: { is_verified: boolean } };
    expect(v.voice_verification.is_verified).toBe(true);
    expect(errors.pageErrors).toEqual([]);
    await closeContext(page.context());
  });
});

const FRENCH = readFileSync(join(import.meta.dirname, "..", "..", "web", "public", "pvc-scripts", "fr", "narrative.txt"), "utf8");
const ENGLISH = readFileSync(join(import.meta.dirname, "..", "..", "web", "public", "pvc-scripts", "en", "narrative.txt"), "utf8");

describe.each(PVC_SIZES)("the recorder at $width px", (size) => {
  it("says the microphone was refused when the browser refuses it", async () => {
    const { page, data, errors } = await openVoiceData(browser, stack, { width: size.width, microphone: false });
    const rec = await openRecorder(page, data);
    await rec.getByRole("button", { name: recorderText.start }).click();
    await expect.poll(() => rec.getByRole("alert").textContent()).toBe(pvcMessages.micDenied);
    // Back to idle: Start again, nothing recording.
    await rec.getByRole("button", { name: recorderText.start }).waitFor();
    expect(await rec.getByRole("timer").count()).toBe(0);
    expect(await topDialogFits(page)).toBe(true);
    expect(errors.pageErrors).toEqual([]);
    await closeContext(page.context());
  });

  it("asks 'Language Mismatch' for an uploaded script in another language: Cancel keeps the script, Use anyway takes it", async () => {
    const { page, data, errors } = await openVoiceData(browser, stack, { width: size.width });
    const rec = await openRecorder(page, data);
    const script = rec.getByRole("region", { name: recorderText.scriptText });
    await script.waitFor();
    const before = await script.textContent();
    const upload = rec.locator(`input[type=file][aria-label="${recorderText.uploadScript}"]`);
    const french = { name: "mon-texte.txt", mimeType: "text/plain", buffer: Buffer.from(FRENCH) };

    await upload.setInputFiles(french);
    const confirm = page.getByRole("dialog", { name: pvcMessages.languageMismatch });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(recorderText.mismatch("French", "English"));
    expect(await topDialogFits(page)).toBe(true);
    await confirm.getByRole("button", { name: recorderText.cancel }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    expect(await script.textContent()).toBe(before);

    await upload.setInputFiles(french);
    await confirm.getByRole("button", { name: recorderText.useAnyway }).click();
    await expect.poll(() => script.textContent()).toContain(passagesOf(FRENCH)[0].slice(0, 30));
    expect(await rec.getByLabel("Script", { exact: true }).inputValue()).toBe("uploaded");

    // A script in the samples' language is taken without asking.
    await upload.setInputFiles({ name: "my-text.txt", mimeType: "text/plain", buffer: Buffer.from(ENGLISH) });
    await expect.poll(() => script.textContent()).toContain(passagesOf(ENGLISH)[0].slice(0, 30));
    expect(await confirm.count()).toBe(0);
    expect(errors.pageErrors).toEqual([]);
    await closeContext(page.context());
  });
});
