import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { changeLimit, currentUsage } from "../../functions/platform/domain/credits.js";
import { premadeVoiceRecords } from "../../functions/platform/domain/premadeVoices.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { floatToInt16 } from "../../functions/media/audio/resample.js";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { speak } from "../../functions/media/voice-analysis/fixtures/voices.js";
import type { VoiceProfile } from "../../functions/media/engine/port.js";
import { stsMessages } from "../../functions/platform/contract/sts.js";
import { modelMessages } from "../../web/app/components/tts/models.js";
import { createTestAccount, insertOwnVoice } from "../support/stack.js";
import { closeContext, newContext, signIn, visit, watchErrors, openBrowserStack, closeBrowserStack, launchChromium, downloadedBytes } from "./helpers.js";

/**
 * The Voice Changer's queue and the Voice Isolator in Chromium against the embedded stack, with
 * real conversions: queue three files (two chosen, one dropped), convert, regenerate one, remove
 * one, play and download; the history tab (play, download, regenerate, delete); model switching between the tabs; quota and unreadable files; a
 * microphone recording (Chromium's fake capture device reads a WAV).
 */
let stack: EmbeddedStack;
let browser: Browser;
const engine = new EspeakEngine({ size: 1 });
const dir = mkdtempSync(join(tmpdir(), "timbre-sts-browser-"));
const clips: Record<string, { path: string; seconds: number }> = {};

beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack());
  const marcus = premadeVoiceRecords().find((v) => v.name === "Marcus")!.profile as VoiceProfile;
  const texts = { "first take.wav": "Good morning, this is the first take.", "second take.wav": "And here comes the second one.", "third take.wav": "The third take is the last." };
  for (const [name, text] of Object.entries(texts)) {
    const x = await speak(engine, marcus, text);
    const path = join(dir, name);
    writeFileSync(path, encodeWav(floatToInt16(x), 22_050));
    clips[name] = { path, seconds: x.length / 22_050 };
  }
  writeFileSync(join(dir, "broken.wav"), new TextEncoder().encode("RIFF....WAVEthis is not really audio"));
});
afterAll(async () => {
  await closeBrowserStack(stack, browser);
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const STS = "/app/speech-synthesis/speech-to-speech";
const TTS = "/app/speech-synthesis/text-to-speech";

async function open(opts: { tier?: "free" | "pro"; limit?: number; width?: number; path?: string; on?: Browser } = {}) {
  const account = await createTestAccount(stack, opts.tier ?? "pro");
  if (opts.limit !== undefined) await changeLimit(stack.ctx, account.workspace.workspace_id, opts.limit);
  const context = await newContext(opts.on ?? browser, stack, opts.width ? { width: opts.width, height: 844 } : {});
  const page = await context.newPage();
  const errors = watchErrors(page);
  await signIn(page, account.email, account.password);
  await visit(page, opts.path ?? STS);
  return { account, page, errors };
}

const item = (page: Page, name: string) => page.getByTestId("sts-item").filter({ hasText: name });
const status = (row: Locator) => row.getByTestId("sts-status").textContent();
const cost = (seconds: number) => Math.ceil(Math.round(seconds * 60 * 1e6) / 1e6);

/** Drops files on the drop zone the way a browser does (a drop event with a DataTransfer of Files). */
async function drop(page: Page, files: Array<{ name: string; bytes: Buffer }>) {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: "audio/wav" }));
    return dt;
  }, files.map((f) => ({ name: f.name, b64: f.bytes.toString("base64") })));
  await page.getByTestId("sts-dropzone").dispatchEvent("drop", { dataTransfer: transfer });
}

async function expectPlaying(audio: Locator) {
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState >= 2 && a.duration > 0), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 10_000 }).toBeGreaterThan(0);
}

describe("Voice Changer page", () => {
  it.each([390, 1440])("queues three files, converts them, regenerates one, removes one, plays and downloads (%i px wide)", async (width) => {
    const { account, page, errors } = await open({ width });
    expect(await page.getByRole("button", { name: /^Model:/ }).textContent()).toContain("Eleven Multilingual v2 (speech to speech)");
    await page.getByLabel("Audio files to convert").setInputFiles([clips["first take.wav"].path, clips["second take.wav"].path]);
    await drop(page, [{ name: "third take.wav", bytes: readFileSync(clips["third take.wav"].path) }]);
    await expect.poll(() => page.getByTestId("sts-item").count()).toBe(3);
    // The queue fits the width: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    for (const name of Object.keys(clips)) {
      expect(await status(item(page, name))).toBe("Pending");
      // The cost is shown before converting: seconds x 60 x the model's multiplier.
      await expect.poll(() => item(page, name).textContent()).toContain(`${cost(clips[name].seconds).toLocaleString("en-US")} credits`);
    }
    const total = Object.values(clips).reduce((n, c) => n + cost(c.seconds), 0);
    expect(await page.getByTestId("sts-pending-cost").textContent()).toContain(`${total.toLocaleString("en-US")} credits`);

    await page.getByRole("button", { name: "Convert all" }).click();
    for (const name of Object.keys(clips)) await expect.poll(() => status(item(page, name)), { timeout: 60_000 }).toBe("Converted");
    await expect.poll(async () => (await currentUsage(stack.ctx, account.workspace.workspace_id)).character_count).toBe(total);

    // Regenerate one: back through pending and processing to converted, charged again.
    const first = item(page, "first take.wav");
    const before = await first.locator("a[download]").getAttribute("href");
    await first.getByRole("button", { name: "Regenerate" }).click();
    await expect.poll(() => status(first), { timeout: 60_000 }).toBe("Converted");
    await expect.poll(() => first.locator("a[download]").getAttribute("href")).not.toBe(before);
    await expect.poll(async () => (await currentUsage(stack.ctx, account.workspace.workspace_id)).character_count).toBe(total + cost(clips["first take.wav"].seconds));

    // Remove one.
    await page.getByRole("button", { name: "Remove second take.wav" }).click();
    await expect.poll(() => page.getByTestId("sts-item").count()).toBe(2);
    expect(await item(page, "second take.wav").count()).toBe(0);

    // Play a converted file.
    const third = item(page, "third take.wav");
    await third.getByRole("button", { name: "Play Converted third take.wav" }).click();
    await expectPlaying(third.locator("audio"));

    // Download one: an MP3 named after the upload and the voice.
    const [download] = await Promise.all([page.waitForEvent("download"), first.getByRole("link", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^first take_.+\.mp3$/);
    const saved = await downloadedBytes(download);
    expect(saved.byteLength).toBeGreaterThan(5000);
    expect(saved[0] === 0xff || saved.subarray(0, 3).toString() === "ID3").toBe(true);

    // The history keeps every conversion as speech to speech.
    const items = await stack.ctx.stores.history.list(account.workspace.workspace_id, { userId: account.user.user_id, pageSize: 10, source: "STS" });
    expect(items.items).toHaveLength(4);

    // The History tab lists them (replacing the history entry, keeping the query): play, download,
    // convert again from the kept input, delete.
    const entries = await page.evaluate(() => window.history.length);
    await page.getByRole("tab", { name: "History" }).click();
    await page.waitForURL(/[?&]tab=history/);
    expect(await page.evaluate(() => window.history.length)).toBe(entries);
    const rows = page.getByRole("list", { name: "Conversions" }).getByTestId("history-item");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(4);
    expect(await rows.first().textContent()).toMatch(/Converted into .+·.+credits/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await rows.first().getByRole("button", { name: /^Play conversion/ }).click();
    await expectPlaying(rows.first().locator("audio"));
    const [historyDownload] = await Promise.all([page.waitForEvent("download"), rows.nth(1).getByRole("button", { name: "Download" }).click()]);
    expect(historyDownload.suggestedFilename()).toMatch(/\.mp3$/);
    const historyBytes = await downloadedBytes(historyDownload);
    expect(historyBytes[0] === 0xff || historyBytes.subarray(0, 3).toString() === "ID3").toBe(true);
    const charged = (await currentUsage(stack.ctx, account.workspace.workspace_id)).character_count;
    await rows.first().getByRole("button", { name: "Regenerate" }).click();
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(5);
    expect((await currentUsage(stack.ctx, account.workspace.workspace_id)).character_count).toBeGreaterThan(charged);
    const newest = (await stack.ctx.stores.history.list(account.workspace.workspace_id, { userId: account.user.user_id, pageSize: 10, source: "STS" })).items;
    expect(newest).toHaveLength(5);
    // The new conversion came from the kept input of the one regenerated, into the same voice.
    expect(newest[0].sts_input!.file_name).toBe(newest[1].sts_input!.file_name);
    expect(newest[0].voice_id).toBe(newest[1].voice_id);
    await rows.nth(2).getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => rows.count()).toBe(4);
    expect((await stack.ctx.stores.history.list(account.workspace.workspace_id, { userId: account.user.user_id, pageSize: 10, source: "STS" })).items).toHaveLength(4);
    // Back on the Convert tab, the queue is still there.
    await page.getByRole("tab", { name: "Convert" }).click();
    await expect.poll(() => page.url()).not.toContain("tab=history");
    expect(await page.getByTestId("sts-item").count()).toBe(2);
    // Home lists conversions among the latest generations, named by their voice (they have no text).
    await visit(page, "/app");
    await expect.poll(() => page.getByTestId("home-generation").count()).toBe(4);
    expect(await page.getByTestId("home-generation").first().textContent()).toContain("Converted into");
    expect(errors.pageErrors).toEqual([]);
    await closeContext(page.context());
  }, 180_000);

  it("switches to a voice-conversion model on this tab and back on the text to speech tab, keeping the query", async () => {
    const avery = premadeVoiceRecords().find((v) => v.name === "Avery")!.voice_id;
    const { page } = await open({ path: `${TTS}?voice_id=${avery}` });
    const tab = (name: string) => page.locator("main").getByRole("link", { name, exact: true });
    await page.getByRole("button", { name: /^Model:/ }).click();
    await page.getByRole("option", { name: /Eleven Flash v2\.5/ }).click();
    await tab("Voice Changer").click();
    await page.waitForURL(new RegExp(`speech-to-speech\\?voice_id=${avery}$`));
    await expect.poll(() => page.getByRole("button", { name: /^Model:/ }).textContent()).toContain("Eleven Multilingual v2 (speech to speech)");
    // Only voice-conversion models are offered here.
    await page.getByRole("button", { name: /^Model:/ }).click();
    expect(await page.getByRole("option").allTextContents()).toHaveLength(2);
    await page.getByRole("option", { name: /Eleven English v2 \(speech to speech\)/ }).click();
    await tab("Text to Speech").click();
    await page.waitForURL(new RegExp(`text-to-speech\\?voice_id=${avery}$`));
    await expect.poll(() => page.getByRole("button", { name: /^Model:/ }).textContent()).toContain("Eleven Flash v2.5");
    await tab("Voice Changer").click();
    await expect.poll(() => page.getByRole("button", { name: /^Model:/ }).textContent()).toContain("Eleven English v2 (speech to speech)");
    await closeContext(page.context());
  });

  it("warns about a professional voice that is not fine-tuned and switches to eleven_multilingual_sts_v2", async () => {
    const account = await createTestAccount(stack, "pro");
    const pro = await insertOwnVoice(stack, account.workspace.workspace_id, account.user.user_id, "Studio Pro", { category: "professional", high_quality_base_model_ids: [] });
    const context = await newContext(browser, stack);
    const page = await context.newPage();
    await signIn(page, account.email, account.password);
    await visit(page, STS);
    await page.getByRole("button", { name: /^Model:/ }).click();
    await page.getByRole("option", { name: /Eleven English v2 \(speech to speech\)/ }).click();
    await visit(page, `${STS}?voice_id=${pro.voice_id}`);
    await expect.poll(() => page.getByRole("status").filter({ hasText: "fine-tuned" }).textContent()).toBe(
      modelMessages.notFineTuned("Studio Pro", "Eleven English v2 (speech to speech)", "Eleven Multilingual v2 (speech to speech)"),
    );
    expect(await page.getByRole("button", { name: /^Model:/ }).textContent()).toContain("Eleven Multilingual v2 (speech to speech)");
    await closeContext(context);
  });

  it("marks an item over the quota as an error with the quota message, and an unreadable file with the spec's message", async () => {
    const { account, page } = await open({ tier: "free", limit: 100 });
    await page.getByLabel("Audio files to convert").setInputFiles([clips["first take.wav"].path, join(dir, "broken.wav")]);
    await expect.poll(() => item(page, "first take.wav").textContent()).toContain("credits");
    await item(page, "first take.wav").getByRole("button", { name: "Convert" }).click();
    await expect.poll(() => status(item(page, "first take.wav"))).toBe("Error");
    expect(await item(page, "first take.wav").getByTestId("sts-error").textContent()).toContain(`This request exceeds your quota of 100. You have 100 credits remaining, while ${cost(clips["first take.wav"].seconds)} credits are required`);
    await changeLimit(stack.ctx, account.workspace.workspace_id, 100_000);
    await item(page, "broken.wav").getByRole("button", { name: "Convert" }).click();
    await expect.poll(() => status(item(page, "broken.wav")), { timeout: 30_000 }).toBe("Error");
    expect(await item(page, "broken.wav").getByTestId("sts-error").textContent()).toBe(`${stsMessages.conversionFailed}: ${stsMessages.audioUnreadable}`);
    expect((await currentUsage(stack.ctx, account.workspace.workspace_id)).character_count).toBe(0);
    await closeContext(page.context());
  }, 90_000);

  it("records from the microphone into the queue and converts the recording", async () => {
    const mic = await launchChromium({ microphone: clips["second take.wav"].path });
    try {
      const { page } = await open({ on: mic, width: 1440 });
      await page.getByRole("button", { name: "Record audio" }).click();
      // The get-ready countdown (3 s) comes first, counting down, then the recording.
      const timer = page.getByRole("timer");
      await expect.poll(() => timer.textContent()).toMatch(/Recording in [123]/);
      const seen = new Set<string>();
      await expect.poll(async () => {
        const t = (await timer.count()) ? await timer.textContent().catch(() => null) : null;
        if (t) seen.add(t.replace(/\D/g, ""));
        return page.getByRole("button", { name: /Stop recording/ }).count();
      }, { timeout: 10_000, interval: 100 }).toBe(1);
      expect(seen.size).toBeGreaterThanOrEqual(2);
      // Two seconds of recording by the recorder's own clock (its button counts them), not a fixed wait after the button appeared.
      const stopButton = page.getByRole("button", { name: /Stop recording/ });
      const recordedSeconds = async () => {
        const clock = ((await stopButton.textContent()) ?? "").match(/\((\d+):(\d\d)\)/);
        return clock ? Number(clock[1]) * 60 + Number(clock[2]) : 0;
      };
      await expect.poll(recordedSeconds, { timeout: 10_000, interval: 100 }).toBeGreaterThanOrEqual(2);
      await stopButton.click();
      const recording = item(page, "Recording 1");
      await expect.poll(() => recording.count()).toBe(1);
      await expect.poll(() => recording.textContent(), { timeout: 10_000 }).toContain("credits");
      // Cancelled during the countdown: nothing is recorded.
      await page.getByRole("button", { name: "Record audio" }).click();
      await page.getByRole("button", { name: /Recording in .* Cancel/ }).click();
      await page.getByRole("button", { name: "Record audio" }).waitFor();
      expect(await item(page, "Recording 2").count()).toBe(0);
      await recording.getByRole("button", { name: "Convert" }).click();
      await expect.poll(() => status(recording), { timeout: 60_000 }).toBe("Converted");
      await closeContext(page.context());
    } finally {
      await mic.close();
    }
  }, 120_000);
});

describe("Voice Isolator page", () => {
  it("uploads a recording, shows its cost, isolates it, and offers before and after players and a download", async () => {
    const { account, page, errors } = await open({ path: "/app/voice-isolator" });
    expect(await page.getByRole("heading", { name: "Voice Isolator", level: 1 }).isVisible()).toBe(true);
    await page.getByLabel("Audio file to isolate").setInputFiles(clips["third take.wav"].path);
    const credits = Math.ceil((clips["third take.wav"].seconds / 60) * 1000);
    await expect.poll(() => page.getByTestId("isolator-cost").textContent()).toContain(`${credits.toLocaleString("en-US")} credits`);
    await page.getByRole("button", { name: "Isolate voice" }).click();
    const after = page.getByRole("region", { name: "After" });
    await after.getByRole("link", { name: "Download" }).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Play Isolated voice" }).click();
    await expectPlaying(after.locator("audio"));
    const [download] = await Promise.all([page.waitForEvent("download"), after.getByRole("link", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toBe("third take_isolated.mp3");
    expect(await page.getByRole("button", { name: "Play Original third take.wav" }).isVisible()).toBe(true);
    expect((await currentUsage(stack.ctx, account.workspace.workspace_id)).character_count).toBe(credits);
    expect(errors.pageErrors).toEqual([]);
    await closeContext(page.context());
  }, 90_000);
});
