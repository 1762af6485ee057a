/**
 * Checks the offline browser channel (test/voice-verification/browser-channel.ts) against the real one (issue 26): each
 * reading below is played by Chromium's fake microphone (Debian's /usr/bin/chromium, --use-file-for-fake-audio-capture),
 * recorded by MediaRecorder as the web app records it (raw microphone, audio/webm, the voice-creation recorder's default
 * bit rate and the professional clone recorder's 48 kbit/s), decoded by the server's decoder, denoised like the
 * workflow's prepare step and analysed; the same reading goes through the emulation. Prints the embedding cosines (plain
 * and in the fitted speaker space) between the real capture, the emulation and the clean reading.
 *
 *   node --import tsx scripts/voice-verification-browser-channel.ts
 */
import { createServer } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { analyzeVoice } from "../functions/media/voice-analysis/analyze.js";
import { similarity } from "../functions/media/voice-analysis/search.js";
import { decodeAudio } from "../functions/media/audio/decode/decode.js";
import { floatToInt16, resample } from "../functions/media/audio/resample.js";
import { encodeWav } from "../functions/media/audio/wav.js";
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { speak } from "../functions/media/voice-analysis/fixtures/voices.js";
import { profileFromLabels } from "../functions/media/engine/espeak/voices.js";
import { spaceSpeakerSimilarity } from "../functions/capabilities/voice-verification/scoring.js";
import { outsidePcm, prepared } from "../test/voice-verification/outside-measures.js";
import { SPEAKER_TEXTS } from "../test/voice-verification/outside-texts.js";
import { browserChannel } from "../test/voice-verification/browser-channel.js";

const dir = mkdtempSync(join(tmpdir(), "timbre-browser-capture-"));
const page = `<!doctype html><meta charset="utf-8"><script>
async function record(ms, bits) {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
  const rec = new MediaRecorder(stream, bits ? { mimeType: "audio/webm", audioBitsPerSecond: bits } : { mimeType: "audio/webm" });
  const chunks = [];
  rec.ondataavailable = (e) => chunks.push(e.data);
  const done = new Promise((r) => (rec.onstop = r));
  rec.start(100);
  await new Promise((r) => setTimeout(r, ms));
  rec.stop();
  await done;
  stream.getTracks().forEach((t) => t.stop());
  const buf = new Uint8Array(await new Blob(chunks).arrayBuffer());
  let s = "";
  for (const b of buf) s += String.fromCharCode(b);
  return btoa(s);
}
</script>`;
const server = createServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end(page));
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;

/** The reading as Chromium records it: padded with a second of silence each side, recorded for its length. */
async function capture(pcm: Float32Array, rate: number, bits: number | 0): Promise<Float32Array> {
  const padded = new Float32Array(pcm.length + 2 * rate);
  padded.set(pcm, rate);
  const wav = join(dir, `mic-${Date.now()}.wav`);
  writeFileSync(wav, encodeWav(floatToInt16(padded), rate));
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-dev-shm-usage", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-audio-capture=${wav}`, "--autoplay-policy=no-user-gesture-required"],
  });
  try {
    const p = await browser.newPage();
    await p.goto(url);
    const b64 = await p.evaluate(([ms, b]) => (window as unknown as { record: (ms: number, b: number) => Promise<string> }).record(ms, b), [Math.round((padded.length / rate) * 1000), bits] as const);
    return (await decodeAudio(new Uint8Array(Buffer.from(b64, "base64")), { sampleRate: 16000 })).samples;
  } finally {
    await browser.close();
  }
}

const embed = async (x: Float32Array, rate: number) => analyzeVoice(await prepared(x), rate).embedding;
const r3 = (x: number) => x.toFixed(3);
const readings: Array<{ name: string; pcm: Float32Array; rate: number }> = [];
for (const [id, k] of [["flite-slt", 0], ["flite-awb", 1], ["fest-ked", 2]] as const) readings.push({ name: `${id} test ${k}`, pcm: await outsidePcm(id, SPEAKER_TEXTS.en.test[k]), rate: 16000 });
const engine = new EspeakEngine();
await engine.warm();
const designed = profileFromLabels({ language: "en", gender: "male", age: "middle_aged" }, 7);
readings.push({ name: "engine designed male", pcm: await speak(engine, designed, SPEAKER_TEXTS.en.test[0], { seed: 21 }), rate: 22050 });
await engine.close();

for (const r of readings) {
  const clean = await embed(r.rate === 16000 ? r.pcm : resample(r.pcm, r.rate, 16000), 16000);
  const emulated = await embed(await browserChannel(r.pcm, r.rate), 16000);
  for (const bits of [0, 48_000]) {
    const real = await embed(await capture(r.pcm, r.rate, bits), 16000);
    console.log(
      `${r.name} @${bits || "default"}: cosine real-emulated ${r3(similarity(real, emulated))} (space ${r3(spaceSpeakerSimilarity(real, emulated))}), real-clean ${r3(similarity(real, clean))} (space ${r3(spaceSpeakerSimilarity(real, clean))}), emulated-clean ${r3(similarity(emulated, clean))} (space ${r3(spaceSpeakerSimilarity(emulated, clean))})`,
    );
  }
}
server.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
