import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { ASSISTANT, assistantMessages } from "../../functions/platform/contract/assistant.js";
import { charge } from "../../functions/platform/domain/credits.js";
import { micMessages } from "../../web/app/components/assistant/microphone.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { closeBrowserStack, closeContext, launchChromium, newContext, signIn, visit, watchErrors } from "./helpers.js";

/**
 * Talk to El by voice: a real Chromium whose fake microphone plays eSpeak saying the question
 * (after 0.8 s of quiet), a stack configured with a transcription server (a fake started here:
 * the one thing that cannot run here). The card records one utterance with echo cancellation,
 * sends it as WebM/Opus in `user_audio`; the fake decodes what arrived (ffmpeg) and, when it holds
 * speech, answers with the question's words; the card shows them and El's answer with the real
 * figure. El speaking a long answer is stopped when the user starts speaking (barge-in). A
 * profile that refuses the microphone gets the spec's message. At 390 px and 1280 px; one browser.
 */
const QUESTION = "how many credits do I have left";
let stack: EmbeddedStack;
let browser: Browser;
let dir: string;
let stt: { url: string; server: Server; heard: Array<{ mime: string; bytes: number; seconds: number; loudSeconds: number }> };

/** A fake OpenAI-compatible transcription server: it checks the upload is audio with speech in it. */
async function fakeTranscription(): Promise<typeof stt> {
  const heard: (typeof stt)["heard"] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const body = Buffer.concat(parts);
      const boundary = /boundary=(.+)$/.exec(req.headers["content-type"] ?? "")?.[1] ?? "";
      const start = body.indexOf('name="file"');
      const head = body.subarray(start, body.indexOf("\r\n\r\n", start)).toString();
      const from = body.indexOf("\r\n\r\n", start) + 4;
      const file = body.subarray(from, body.indexOf(`\r\n--${boundary}`, from));
      const pcm = execFileSync("ffmpeg", ["-v", "error", "-i", "pipe:0", "-f", "s16le", "-ac", "1", "-ar", "16000", "pipe:1"], { input: file, maxBuffer: 1 << 24 });
      const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
      let loud = 0;
      for (let i = 0; i + 320 <= samples.length; i += 320) {
        let s = 0;
        for (let j = i; j < i + 320; j++) s += (samples[j] / 32768) ** 2;
        if (Math.sqrt(s / 320) > 0.02) loud++;
      }
      heard.push({ mime: /Content-Type: (\S+)/i.exec(head)?.[1] ?? "", bytes: file.length, seconds: samples.length / 16000, loudSeconds: loud * 0.02 });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(loud * 0.02 >= 0.5 ? { text: QUESTION } : { text: "" }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, heard };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "assistant-voice-"));
  const speech = join(dir, "speech.wav");
  const wav = join(dir, "question.wav");
  execFileSync("espeak-ng", ["-v", "en-us", "-s", "150", "-w", speech, QUESTION]);
  // 0.8 s of quiet, the question, then 8 s of quiet (the fake device starts the file when capture starts).
  execFileSync("sox", [speech, "-r", "48000", "-b", "16", "-c", "1", wav, "pad", "0.8", "8"]);
  stt = await fakeTranscription();
  [stack, browser] = await Promise.all([
    startTestStack({ web: true, env: { ASSISTANT_TRANSCRIPTION_URL: stt.url } }),
    launchChromium({ microphone: wav, askPermission: true }),
  ]);
}, 180_000);
afterAll(async () => {
  await closeBrowserStack(stack, browser);
  stt?.server.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("Talk to El by voice (a transcription server configured)", () => {
  for (const width of [390, 1280]) {
    it(`at ${width} px: speaking over El stops its answer, and the recorded question is transcribed and answered with the real credits`, async () => {
      const account = await createTestAccount(stack, "creator");
      await charge(stack.ctx, { workspaceId: account.workspace.workspace_id, key: `voice-assistant-${width}`, amount: 2000 + width });
      const sub = (await (await apiFetch(stack, account.apiKey, "/v1/user/subscription")).json()) as { character_count: number; character_limit: number };
      const left = (sub.character_limit - sub.character_count).toLocaleString("en-US");
      const before = stt.heard.length;

      const context = await newContext(browser, stack, { width, height: 800, microphone: true });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await signIn(page, account.email, account.password);
      await visit(page, "/app");
      await page.getByRole("button", { name: "Talk to El" }).click();
      const card = page.getByRole("dialog", { name: assistantMessages.title });
      await expect.poll(() => card.getByRole("status").first().textContent(), { timeout: 15_000 }).toBe(assistantMessages.connected);

      // El starts a long spoken answer; the user speaks over it.
      await card.getByLabel("Ask the assistant").fill("how do I clone a voice");
      await card.getByRole("button", { name: "Send" }).click();
      const audioState = () => page.evaluate(() => document.documentElement.dataset.assistantAudio ?? null);
      await expect.poll(audioState, { timeout: 90_000, interval: 100 }).toBe("playing");
      const speak = card.getByRole("button", { name: "Speak" });
      expect(await speak.isVisible()).toBe(true);
      await speak.click();
      expect(await card.getByRole("button", { name: "Stop" }).getAttribute("aria-pressed")).toBe("true");
      await expect.poll(audioState, { timeout: 15_000, interval: 100 }).toBe("interrupted");

      // The pause after the question ends the recording; the server's transcript and El's answer show.
      await expect.poll(() => card.locator("li[data-who=you]", { hasText: QUESTION }).count(), { timeout: 60_000 }).toBe(1);
      await expect.poll(() => card.locator("li[data-who=el]", { hasText: `You have ${left} credits left` }).count(), { timeout: 60_000 }).toBe(1);
      expect(await card.getByRole("button", { name: "Speak" }).getAttribute("aria-pressed")).toBe("false");
      expect(await card.getByRole("alert").count()).toBe(0);

      // What arrived: one WebM/Opus clip within the message bound, holding the question (about 2 s of speech).
      expect(stt.heard.length).toBe(before + 1);
      const clip = stt.heard.at(-1)!;
      console.log(`${width} px: ${clip.mime}, ${clip.bytes} bytes, ${clip.seconds.toFixed(2)} s, ${clip.loudSeconds.toFixed(2)} s above -34 dBFS`);
      expect(clip.mime).toBe("audio/webm");
      expect(clip.bytes).toBeLessThanOrEqual(ASSISTANT.maxAudioBytes);
      expect(clip.loudSeconds).toBeGreaterThan(1);
      expect(clip.seconds).toBeGreaterThan(clip.loudSeconds);
      expect(errors.pageErrors).toEqual([]);
      await closeContext(context);
    }, 240_000);
  }

  it("says the spec's message when the microphone is refused, and typing still works", async () => {
    const account = await createTestAccount(stack, "creator");
    const context = await newContext(browser, stack, { width: 390, height: 800 });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, account.email, account.password);
    await visit(page, "/app");
    await page.getByRole("button", { name: "Talk to El" }).click();
    const card = page.getByRole("dialog", { name: assistantMessages.title });
    await expect.poll(() => card.getByRole("status").first().textContent(), { timeout: 15_000 }).toBe(assistantMessages.connected);
    await card.getByRole("button", { name: "Speak" }).click();
    await expect.poll(() => card.getByRole("alert").textContent(), { timeout: 10_000 }).toBe(micMessages.denied);
    expect(await card.getByRole("button", { name: "Speak" }).getAttribute("aria-pressed")).toBe("false");
    await card.getByLabel("Ask the assistant").fill(QUESTION);
    await card.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => card.locator("li[data-who=el]", { hasText: "credits left" }).count(), { timeout: 60_000 }).toBe(1);
    expect(errors.pageErrors).toEqual([]);
    await closeContext(context);
  }, 120_000);
});
