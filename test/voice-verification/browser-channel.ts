/**
 * The product's browser recording path, offline (issue 26): what a reading goes through between the speaker and the
 * verification workflow when it is recorded in the web app. Chromium's microphone (the fake device in the browser
 * tests; echo cancellation, noise suppression and gain control off, web/app/components/voice-creation/Recorder.tsx)
 * delivers 48 kHz; MediaRecorder encodes Opus in WebM (the voice-creation recorder at Chromium's default rate, which is
 * libopus's automatic rate, about 48 kbit/s for mono speech; the professional clone's recorder at
 * RECORDER_BITS_PER_SECOND = 48 kbit/s, web/app/components/pvc/recorder.ts); the server decodes the WebM with its own
 * decoder to 16 kHz mono (functions/media/audio/decode). Here ffmpeg resamples to 48 kHz and encodes with libopus
 * (60 ms frames like Chromium's encoder) into WebM, and the server's decoder reads it back.
 *
 * Checked against a real capture of the same WAV through Chromium's fake microphone
 * (scripts/voice-verification-browser-channel.ts): the figures are in docs/decisions/2026-12-07-speaker-space-browser.md.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { decodeAudio } from "../../functions/media/audio/decode/decode.js";
import { floatToInt16 } from "../../functions/media/audio/resample.js";
import { encodeWav } from "../../functions/media/audio/wav.js";

const run = promisify(execFile);

/** Changes when the emulation changes (cached embeddings made through it are then made again). */
export const BROWSER_CHANNEL_VERSION = 1;

/** The recorder's Opus bit rate (bits per second). */
export const BROWSER_OPUS_BITRATE = 48_000;

/** `pcm` at `rate` as the server sees it after the browser recorded it: 16 kHz mono, decoded from WebM/Opus. */
export async function browserChannel(pcm: Float32Array, rate: number, bitrate = BROWSER_OPUS_BITRATE): Promise<Float32Array> {
  return decodeAudio(await browserWebm(pcm, rate, bitrate), { sampleRate: 16000 }).then((d) => d.samples);
}

/** The WebM/Opus file the browser's recorder would upload for `pcm`. */
export async function browserWebm(pcm: Float32Array, rate: number, bitrate = BROWSER_OPUS_BITRATE): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), "timbre-browser-channel-"));
  try {
    writeFileSync(join(dir, "in.wav"), encodeWav(floatToInt16(pcm), rate));
    await run("ffmpeg", ["-v", "error", "-y", "-i", join(dir, "in.wav"), "-ar", "48000", "-ac", "1", "-c:a", "libopus", "-b:a", String(bitrate), "-frame_duration", "60", "-application", "audio", "-f", "webm", join(dir, "out.webm")]);
    return new Uint8Array(readFileSync(join(dir, "out.webm")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
