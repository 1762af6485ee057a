import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, type Locator } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { premadeVoices, speak } from "../../functions/media/voice-analysis/fixtures/voices.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { floatToInt16 } from "../../functions/media/audio/resample.js";
import { BACKUP_KEY, passagesOf, pvcMessages, recorderText } from "../../web/app/components/pvc/recorder.js";
import { startTestStack } from "../support/stack.js";
import { atMost, closeBrowserStack, closeContext, reload, launchChromium } from "./helpers.js";
import { openRecorder, openVoiceData, topDialogFits } from "./pvc-helpers.js";
import { startApiGatewayStandIn, type ApiGatewayStandIn } from "../support/api-gateway-websocket.js";
import { createLiveHandler } from "../../functions/handlers/live.js";

/**
 * The PVC recorder in a real Chromium whose fake microphone plays the engine reading the first
 * passage of the English narrative script (after four seconds of quiet: the file starts with the
 * capture, and the countdown takes three): the countdown, the recording, the script's words lit
 * up as they are read (the live reading websocket), stop, and the recording arriving in the
 * wizard's sample list through the upload queue; a too-short recording's message; and a reload in
 * the middle of a recording, after which 'Recover unsaved recording' adds the backup as a sample.
 * At 390x844 and at a desktop size. One browser launch for the file. The stack backs up every
 * BACKUP_SECONDS instead of the spec's 30 (PVC_RECORDING_BACKUP_SECONDS), so the recovery test
 * waits for its second backup after 36 s of audio instead of 60 (a sample still needs 30 s).
 */
const BACKUP_SECONDS = 18;
let stack: EmbeddedStack;
let browser: Browser;
let dir: string;
const PASSAGE = passagesOf(readFileSync(join(import.meta.dirname, "..", "..", "web", "public", "pvc-scripts", "en", "narrative.txt"), "utf8"))[0];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pvc-recorder-"));
  const engine = new EspeakEngine();
  let wav: string;
  try {
    const voice = premadeVoices().find((v) => v.name === "Marcus")!.profile;
    const rate = engine.sampleRate;
    const speech = await speak(engine, voice, PASSAGE, { seed: 5, settings: { speed: 0.95 } });
    // 4 s of quiet, the reading, then quiet up to 45 s (the fake device loops the file).
    const x = new Float32Array(45 * rate);
    x.set(speech.subarray(0, x.length - 4 * rate), 4 * rate);
    let s = 99;
    for (let i = 0; i < x.length; i++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      x[i] += 0.0005 * (s / 2 ** 31 - 1);
    }
    wav = join(dir, "reading.wav");
    writeFileSync(wav, encodeWav(floatToInt16(x), rate));
  } finally {
    await engine.close();
  }
  [stack, browser] = await Promise.all([
    startTestStack({ web: true, env: { PVC_RECORDING_BACKUP_SECONDS: String(BACKUP_SECONDS) } }),
    launchChromium({ microphone: wav }),
  ]);
}, 180_000);
afterAll(async () => {
  await closeBrowserStack(stack, browser);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const elapsedSeconds = async (rec: Locator) => {
  const t = (await rec.getByRole("timer").textContent().catch(() => null)) ?? "0:00";
  const [m, s] = t.split(":").map(Number);
  return m * 60 + s;
};

// The tests are independent (each its own account, clone and profile; the fake microphone starts the
// file anew for each capture) and their time is real-time recording: the four suites run at once, and
// so do the tests inside each but the websocket suite's (each of those counts the handler's connections),
// two tests at a time (`recording`): five at once left the server's live aligner behind the audio on
// a busy machine. A test's timeout counts its wait for its turn.
const recording = atMost(2);
for (const size of [{ width: 1280 }, { width: 390 }]) {
  describe.concurrent(`the recorder at ${size.width} px`, () => {
    it("counts down, records, lights up the script as it is read, and adds the stopped recording to the samples", async ({ expect }) => recording(async () => {
      const { page, data, errors } = await openVoiceData(browser, stack, { width: size.width }, expect);
      const rec = await openRecorder(page, data);
      expect(await rec.getByRole("listitem").count()).toBe(4);
      await rec.getByLabel("Script", { exact: true }).selectOption("narrative");
      const script = rec.getByRole("region", { name: recorderText.scriptText });
      await expect.poll(() => script.textContent(), { timeout: 10_000 }).toContain(PASSAGE.slice(0, 40));
      expect(await topDialogFits(page)).toBe(true);

      await rec.getByRole("button", { name: recorderText.start }).click();
      await rec.getByText(/Recording starts in [123]/).waitFor();
      await rec.getByRole("timer").waitFor({ timeout: 15_000 });
      // The highlight starts and advances to (near) the passage's end, or on to the next passage.
      const read = rec.getByTestId("pvc-script-read");
      await expect.poll(async () => (await read.textContent())?.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(10);
      const first = (await read.textContent())!;
      expect(PASSAGE.startsWith(first)).toBe(true);
      await expect
        .poll(async () => (await rec.textContent())!.includes("Passage 2 of") || ((await read.textContent())?.length ?? 0) >= 0.8 * PASSAGE.length, { timeout: 40_000 })
        .toBe(true);
      expect(await topDialogFits(page)).toBe(true);

      await expect.poll(() => elapsedSeconds(rec), { timeout: 45_000 }).toBeGreaterThanOrEqual(33);
      await rec.getByRole("button", { name: recorderText.stop }).click();
      await rec.getByText(recorderText.added).waitFor();
      expect(await page.evaluate((k) => localStorage.getItem(k), BACKUP_KEY)).toBeNull();
      await rec.getByRole("button", { name: "Close" }).click();
      const samples = data.getByRole("list", { name: "Samples" });
      await expect.poll(() => samples.textContent(), { timeout: 30_000 }).toMatch(/recording [\d-]+ [\d:]+\.webm3\d s/);
      expect(errors.pageErrors).toEqual([]);
      await closeContext(page.context(), expect);
    }), 240_000);

    it("refuses a recording under 30 seconds with the spec's message", async ({ expect }) => recording(async () => {
      const { page, data, errors } = await openVoiceData(browser, stack, { width: size.width }, expect);
      const rec = await openRecorder(page, data);
      await rec.getByRole("button", { name: recorderText.start }).click();
      await rec.getByRole("timer").waitFor({ timeout: 15_000 });
      await expect.poll(() => elapsedSeconds(rec), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      await rec.getByRole("button", { name: recorderText.stop }).click();
      await expect.poll(() => rec.getByRole("alert").textContent(), { timeout: 10_000 }).toBe(pvcMessages.recordingTooShort(30));
      await rec.getByRole("button", { name: recorderText.start }).waitFor();
      expect(await topDialogFits(page)).toBe(true);
      expect(errors.pageErrors).toEqual([]);
      await closeContext(page.context(), expect);
      // Its own steps take under a minute; the rest is its turn behind the others'.
    }), 240_000);
  });
}

describe.concurrent("recovering a recording", () => {
  it("offers the backup after a reload in the middle of a recording, and Recover adds it as a sample", async ({ expect }) => recording(async () => {
    const { page, data, errors, voiceId } = await openVoiceData(browser, stack, { width: 390 }, expect);
    const rec = await openRecorder(page, data);
    await rec.getByRole("button", { name: recorderText.start }).click();
    await rec.getByRole("timer").waitFor({ timeout: 15_000 });
    // Backups every BACKUP_SECONDS: wait for the second (36 s of audio, enough for a sample).
    const backup = () => page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? "null") as { voiceId: string; seconds: number; audio: string } | null, BACKUP_KEY);
    await expect.poll(async () => (await backup())?.seconds ?? 0, { timeout: 90_000, interval: 1000 }).toBeGreaterThan(2 * BACKUP_SECONDS - 1);
    const kept = (await backup())!;
    expect(kept.voiceId).toBe(voiceId);
    expect(kept.audio.length).toBeGreaterThan(10_000);

    await reload(page, expect);
    const recover = page.getByRole("dialog", { name: pvcMessages.recoverTitle });
    await recover.waitFor();
    expect(await topDialogFits(page)).toBe(true);
    await recover.getByRole("button", { name: recorderText.recover }).click();
    const samples = page.getByRole("dialog", { name: "Voice Data" }).getByRole("list", { name: "Samples" });
    await expect.poll(() => samples.textContent(), { timeout: 30_000 }).toMatch(/recovered recording .*\.webm3\d s/);
    expect(await backup()).toBeNull();
    // Nothing is offered again.
    await reload(page, expect);
    await page.getByRole("dialog", { name: "Voice Data" }).getByLabel("Voice name").waitFor();
    expect(await page.getByRole("dialog", { name: pvcMessages.recoverTitle }).count()).toBe(0);
    expect(errors.pageErrors).toEqual([]);
    await closeContext(page.context(), expect);
  }), 240_000);
});

describe.concurrent("the recorder with the websocket on AWS", () => {
  // A second stack configured as on AWS: its pages get the websocket's URL from LIVE_READING_URL,
  // served by the Lambda handler behind a loopback stand-in for API Gateway.
  let aws: EmbeddedStack;
  let gateway: ApiGatewayStandIn;
  const accepted: string[] = [];
  beforeAll(async () => {
    gateway = await startApiGatewayStandIn();
    aws = await startTestStack({ web: true, env: { LIVE_READING_URL: gateway.url } });
    const handle = createLiveHandler(aws.ctx, gateway.connections);
    gateway.bind(async (event) => {
      const r = await handle(event);
      if (event.requestContext.routeKey === "$connect" && r.statusCode === 200) accepted.push(event.requestContext.connectionId);
      return r;
    });
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    await aws?.close();
    // Every $connect, message and $disconnect the handler saw finished without throwing.
    expect(gateway?.failures ?? []).toEqual([]);
  });

  for (const width of [390, 1280]) {
    // One after the other: each counts the connections the handler accepted during it.
    it.sequential(`lights up the script as it is read through the Lambda handler, at ${width} px`, async ({ expect }) => recording(async () => {
      const { page, data, errors } = await openVoiceData(browser, aws, { width }, expect);
      const rec = await openRecorder(page, data);
      await rec.getByLabel("Script", { exact: true }).selectOption("narrative");
      await expect.poll(() => rec.getByRole("region", { name: recorderText.scriptText }).textContent(), { timeout: 10_000 }).toContain(PASSAGE.slice(0, 40));
      const before = accepted.length;
      await rec.getByRole("button", { name: recorderText.start }).click();
      await rec.getByRole("timer").waitFor({ timeout: 15_000 });
      const read = rec.getByTestId("pvc-script-read");
      await expect.poll(async () => (await read.textContent())?.length ?? 0, { timeout: 45_000 }).toBeGreaterThan(10);
      expect(PASSAGE.startsWith((await read.textContent())!)).toBe(true);
      await expect
        .poll(async () => (await rec.textContent())!.includes("Passage 2 of") || ((await read.textContent())?.length ?? 0) >= 0.8 * PASSAGE.length, { timeout: 45_000 })
        .toBe(true);
      expect(accepted.length).toBe(before + 1);
      expect(await topDialogFits(page)).toBe(true);
      // The page's policy let it connect to the other origin; nothing failed.
      expect(errors.pageErrors).toEqual([]);
      await closeContext(page.context(), expect);
    }), 240_000);
  }
});

