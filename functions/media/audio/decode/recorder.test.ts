import { existsSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { decodeAudio, probeAudio } from "./decode.js";

/**
 * What browsers really upload: Chromium's MediaRecorder writing WebM/Opus from a live stream
 * (unknown element sizes, no Duration). A 220 Hz oscillator is recorded for about 1.5 s.
 */
const CHROMIUM = "/usr/bin/chromium";
let browser: Browser | null = null;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--autoplay-policy=no-user-gesture-required"],
  });
}, 60_000);
afterAll(() => browser?.close());

it.skipIf(!existsSync(CHROMIUM))("decodes a recording made by Chromium's MediaRecorder", async () => {
  const page = await browser!.newPage();
  const recorded = await page.evaluate(async () => {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    osc.frequency.value = 220;
    const gain = ctx.createGain();
    gain.gain.value = 0.5;
    const dest = ctx.createMediaStreamDestination();
    osc.connect(gain).connect(dest);
    osc.start();
    const rec = new MediaRecorder(dest.stream, { mimeType: "audio/webm;codecs=opus" });
    const parts: Blob[] = [];
    rec.ondataavailable = (e) => parts.push(e.data);
    const stopped = new Promise((r) => (rec.onstop = r));
    rec.start(250);
    await new Promise((r) => setTimeout(r, 1500));
    rec.stop();
    await stopped;
    await ctx.close();
    const bytes = new Uint8Array(await new Blob(parts).arrayBuffer());
    let s = "";
    for (const b of bytes) s += String.fromCharCode(b);
    return { type: rec.mimeType, base64: btoa(s) };
  });
  await page.close();
  expect(recorded.type).toContain("webm");
  const bytes = new Uint8Array(Buffer.from(recorded.base64, "base64"));
  const probe = probeAudio(bytes);
  expect(probe).toMatchObject({ container: "webm", codec: "opus", sampleRate: 48000 });
  // Timer-driven recording: about 1.5 s, give or take the scheduling of a shared machine.
  expect(probe.durationSecs!).toBeGreaterThan(1);
  expect(probe.durationSecs!).toBeLessThan(3);
  const d = await decodeAudio(bytes, { sampleRate: 16000 });
  expect(Math.abs(d.durationSecs - probe.durationSecs!)).toBeLessThan(0.1);
  // The oscillator is there: the strongest period in the middle is 220 Hz (zero crossings).
  const mid = d.samples.subarray(Math.floor(d.samples.length * 0.3), Math.floor(d.samples.length * 0.7));
  let crossings = 0;
  for (let i = 1; i < mid.length; i++) if (mid[i - 1] < 0 && mid[i] >= 0) crossings++;
  expect(crossings / (mid.length / 16000)).toBeCloseTo(220, -1);
}, 60_000);
