/**
 * Makes the professional clone's tips video (issue 28 §7): web/public/media/pvc-tips.webm, its
 * captions (pvc-tips.en.vtt) and poster (pvc-tips.jpg). The pictures are the product's own
 * screens (the embedded stack and the web app, in Debian's Chromium) with each tip written over
 * them; the narration is Timbre's own text to speech through /v1; ffmpeg (VP9 + Opus) encodes it
 * small. The shipped files are committed; run again when the tips or the screens change:
 *
 *   node --import tsx scripts/make-tips-video.ts
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ensureWebBuild, ROOT } from "./lib/web-build.js";
import { startTestStack, createTestAccount, apiFetch } from "../test/support/stack.js";
import { premadeVoiceId } from "../functions/platform/domain/premadeVoices.js";
import { encodeWav } from "../functions/media/audio/wav.js";
import { INTRO_TIPS, TIPS_VIDEO } from "../web/app/components/pvc/wizard.js";
import { pvcMessages } from "../functions/platform/contract/pvc.js";
import { tipsCues, toWebVtt } from "./lib/video-captions.js";

const RATE = 16_000;
const GAP_SECONDS = 0.6;
const VOICE = premadeVoiceId("Harriet");
const OUT = join(ROOT, "web", "public", "media");
/** The enterprise tip is about contracts, not recording: the video keeps to how to record. */
const LINES = [TIPS_VIDEO.title + ".", ...INTRO_TIPS.filter((t) => !t.startsWith("Enterprise"))];

const work = mkdtempSync(join(tmpdir(), "timbre-tips-video-"));
ensureWebBuild((l) => process.stdout.write(`${l}\n`));
const stack = await startTestStack({ web: true });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const acct = await createTestAccount(stack, "creator");

  // The narration: one request per line, 16 kHz PCM.
  const speech: Int16Array[] = [];
  for (const text of LINES) {
    const res = await apiFetch(stack, acct.apiKey, `/v1/text-to-speech/${VOICE}?output_format=pcm_16000`, { method: "POST", body: JSON.stringify({ text, seed: 7 }) });
    if (res.status !== 200) throw new Error(`text to speech answered ${res.status}: ${await res.text()}`);
    const b = new Uint8Array(await res.arrayBuffer());
    speech.push(new Int16Array(b.buffer, b.byteOffset, b.byteLength >> 1).slice());
  }
  const cues = tipsCues(LINES, speech.map((s) => s.length / RATE), GAP_SECONDS);
  const gap = new Int16Array(Math.round(GAP_SECONDS * RATE));
  const all = new Int16Array(speech.reduce((n, s) => n + s.length + gap.length, 0));
  let at = 0;
  for (const s of speech) {
    all.set(s, at);
    at += s.length + gap.length;
  }
  writeFileSync(join(work, "narration.wav"), encodeWav(all, RATE));

  // The screens: the intro and Voice Data, signed in, at 1280x720.
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  await page.goto(`${stack.url}/sign-in`);
  await page.getByLabel("Email").fill(acct.email);
  await page.getByLabel("Password").fill(acct.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/app(\/|$|\?)/);
  await page.goto(`${stack.url}/app/voice-lab?mode=create&creationType=professionalVoiceClone`);
  await page.getByRole("button", { name: pvcMessages.createNewClone }).waitFor();
  await page.waitForTimeout(500);
  const intro = (await page.screenshot()).toString("base64");
  await page.getByRole("button", { name: pvcMessages.createNewClone }).click();
  await page.getByRole("dialog", { name: "Voice Data" }).getByLabel("Voice name").waitFor();
  await page.waitForTimeout(500);
  const data = (await page.screenshot()).toString("base64");

  // One slide per line: the screen dimmed, the line written large.
  const slide = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  const escape = (s: string) => s.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!);
  const concat: string[] = [];
  for (const [i, line] of LINES.entries()) {
    const background = i < 2 ? intro : data;
    await slide.setContent(`<!doctype html><html><body style="margin:0;width:1280px;height:720px;position:relative;font-family:'DejaVu Sans',sans-serif;overflow:hidden">
      <img src="data:image/png;base64,${background}" style="position:absolute;inset:0;width:1280px;height:720px;filter:blur(2px) brightness(0.45)">
      <div style="position:absolute;left:80px;right:80px;top:0;bottom:0;display:flex;flex-direction:column;justify-content:center;color:#fff">
        <div style="font-size:28px;opacity:.8;margin-bottom:24px">${i === 0 ? "Timbre" : `Tip ${i} of ${LINES.length - 1}`}</div>
        <div style="font-size:${i === 0 ? 64 : 48}px;line-height:1.25;font-weight:700">${escape(line)}</div>
      </div></body></html>`);
    const png = join(work, `slide-${i}.png`);
    await slide.screenshot({ path: png });
    concat.push(`file '${png}'`, `duration ${(cues[i].end - cues[i].start + (cues[i + 1] ? cues[i + 1].start - cues[i].end : GAP_SECONDS)).toFixed(3)}`);
  }
  // The concat demuxer takes the last file's duration only when it is listed once more.
  concat.push(concat[concat.length - 2]);
  writeFileSync(join(work, "slides.txt"), `${concat.join("\n")}\n`);

  mkdirSync(OUT, { recursive: true });
  const ffmpeg = (args: string[]) => execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args], { stdio: "inherit" });
  ffmpeg([
    "-f", "concat", "-safe", "0", "-i", join(work, "slides.txt"),
    "-i", join(work, "narration.wav"),
    "-vf", "scale=640:360:flags=lanczos,fps=5,format=yuv420p",
    "-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "42", "-row-mt", "1", "-deadline", "good", "-cpu-used", "4",
    "-c:a", "libopus", "-b:a", "24k", "-ac", "1",
    "-shortest", join(OUT, "pvc-tips.webm"),
  ]);
  ffmpeg(["-i", join(work, "slide-0.png"), "-vf", "scale=640:360", "-q:v", "6", join(OUT, "pvc-tips.jpg")]);
  writeFileSync(join(OUT, "pvc-tips.en.vtt"), toWebVtt(cues));
  process.stdout.write(`wrote ${OUT}/pvc-tips.webm, .en.vtt, .jpg (${LINES.length} lines, ${(all.length / RATE).toFixed(1)} s)\n`);
} finally {
  await browser.close();
  await stack.close();
  rmSync(work, { recursive: true, force: true });
}
