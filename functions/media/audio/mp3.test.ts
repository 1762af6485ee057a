import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { concatBytes } from "./bytes.js";
import { parseOutputFormat, type OutputFormatId } from "./formats.js";
import { MP3_DELAY, Mp3Stream, lameCrc16, mp3StreamSamples, mp3WithInfoFrame } from "./mp3.js";
import { encodeSegment } from "./segment.js";

// ffmpeg is the referee (Debian package `ffmpeg`, installed by .ci/run).
const dir = mkdtempSync(join(tmpdir(), "timbre-mp3-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function ffmpegDecode(bytes: Uint8Array, rate: number): Int16Array {
  const file = join(dir, `${files++}.mp3`);
  writeFileSync(file, bytes);
  const pcm = execFileSync("ffmpeg", ["-v", "error", "-xerror", "-i", file, "-f", "s16le", "-ac", "1", "-ar", String(rate), "-"], { maxBuffer: 64 << 20 });
  return new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
}

function ffprobeEncoderTag(bytes: Uint8Array): string | undefined {
  const file = join(dir, `${files++}.mp3`);
  writeFileSync(file, bytes);
  const out = execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream_tags=encoder", "-of", "json", file], { encoding: "utf8" });
  return (JSON.parse(out) as { streams: Array<{ tags?: { encoder?: string } }> }).streams[0]?.tags?.encoder;
}

const peakAt = (x: Int16Array) => x.reduce((best, v, i) => (Math.abs(v) > Math.abs(x[best]) ? i : best), 0);

/** Silence with one click at `at`: where it comes out says how far the audio moved. */
function click(n: number, at: number): Float32Array {
  const x = new Float32Array(n);
  x[at] = 0.9;
  return x;
}

const FORMATS: Array<[number, number]> = [
  [44100, 128],
  [44100, 32],
  [22050, 32],
  [24000, 48],
  [16000, 8],
  [48000, 320],
];

describe("MP3 delay and padding", () => {
  it.each(FORMATS)("%i Hz %i kbps: LAME's frames alone decode 1105 samples late and longer than the input", (rate, kbps) => {
    const s = new Mp3Stream(rate, kbps);
    const raw = concatBytes([s.encode(click(rate, 3000)), s.finish()]);
    const decoded = ffmpegDecode(raw, rate);
    expect(peakAt(decoded) - 3000).toBe(MP3_DELAY);
    expect(decoded.length).toBeGreaterThan(rate + MP3_DELAY);
  });

  it.each(FORMATS)("%i Hz %i kbps: with the Info frame, ffmpeg plays exactly the input's samples at their places", (rate, kbps) => {
    // (Down to 100 samples: ffmpeg makes 530 of a single one at 16 kHz, its own limit.)
    for (const n of [Math.round(0.77 * rate), 100, 4000]) {
      const at = Math.min(n - 1, 3000);
      const s = new Mp3Stream(rate, kbps);
      const raw = concatBytes([s.encode(click(n, at)), s.finish()]);
      expect(s.samples).toBe(n);
      const file = mp3WithInfoFrame(raw, n);
      const decoded = ffmpegDecode(file, rate);
      expect(decoded.length).toBe(n);
      if (n > 1) expect(peakAt(decoded)).toBe(at);
      // ffmpeg exports the LAME tag's encoder name only when the tag's CRC-16 is right.
      expect(ffprobeEncoderTag(file)).toBe("LAME3.100");
    }
  });

  it("the Info frame: same version, rate and mode as the stream, frame count, byte count, delay 576, padding, CRCs", () => {
    const s = new Mp3Stream(22050, 32);
    const raw = concatBytes([s.encode(click(10000, 10)), s.finish()]);
    const file = mp3WithInfoFrame(raw, 10000);
    // MPEG-2, Layer III, no CRC, mono; 32 kbps is too small for the tag at 22,050 Hz: the smallest size that fits (56 kbps).
    expect([file[0], file[1], file[2] >> 4, (file[2] >> 2) & 3, file[3] >> 6]).toEqual([0xff, 0xf3, 7, (raw[2] >> 2) & 3, 3]);
    const info = 4 + 9;
    expect(Buffer.from(file.subarray(info, info + 4)).toString()).toBe("Info");
    const view = new DataView(file.buffer, file.byteOffset);
    const frames = Math.ceil((MP3_DELAY + 10000) / 576);
    expect(view.getUint32(info + 8)).toBe(frames);
    expect(view.getUint32(info + 12)).toBe(file.length);
    const infoLength = Math.floor((72 * 56000) / 22050);
    expect(mp3StreamSamples(file.subarray(infoLength))).toBe(frames * 576);
    const lame = info + 120;
    expect(Buffer.from(file.subarray(lame, lame + 9)).toString()).toBe("LAME3.100");
    const delayPadding = (file[lame + 21] << 16) | (file[lame + 22] << 8) | file[lame + 23];
    expect(delayPadding >> 12).toBe(576);
    expect(delayPadding & 0xfff).toBe(frames * 576 - 576 - 10000);
    expect(view.getUint32(lame + 28)).toBe(file.length);
    expect(view.getUint16(lame + 32)).toBe(lameCrc16(file.subarray(infoLength)));
    expect(view.getUint16(lame + 34)).toBe(lameCrc16(file.subarray(0, lame + 34)));
  });

  it("computes the tag's CRC-16 as its standard check value says (CRC-16/ARC of \"123456789\" is 0xBB3D)", () => {
    expect(lameCrc16(new TextEncoder().encode("123456789"))).toBe(0xbb3d);
    // Continuing from a previous value is the same as one pass over both parts.
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 131) & 0xff);
    expect(lameCrc16(bytes.subarray(400), lameCrc16(bytes.subarray(0, 400)))).toBe(lameCrc16(bytes));
  });

  it("is pure: the same stream and length give the same bytes", () => {
    const make = () => {
      const s = new Mp3Stream(44100, 128);
      return mp3WithInfoFrame(concatBytes([s.encode(click(30000, 100)), s.finish()]), 30000);
    };
    expect(Buffer.from(make()).equals(Buffer.from(make()))).toBe(true);
  });

  it.each(["mp3_44100_128", "mp3_22050_32"] as OutputFormatId[])(
    "%s: concatenated segments, longer or shorter than their PCM, become a file of exactly the PCM's length",
    (id) => {
      const f = parseOutputFormat(id);
      const sentence = (voiced: number, pause: number) =>
        Int16Array.from({ length: voiced + pause }, (_, i) => (i < voiced ? Math.round(9000 * Math.sin(i / 4)) : 0));
      // A loud chunk with no silent tail comes out longer than its PCM; one with a short tail can round down.
      for (const chunks of [[sentence(22050, 0), sentence(9000, 5000)], [sentence(9000, 300), sentence(9000, 300), sentence(7000, 300)]]) {
        const segments = chunks.map((c) => encodeSegment(f, c, 22050));
        const pcm = segments.reduce((n, s) => n + s.formatSamples, 0);
        expect(pcm).toBe(chunks.reduce((n, c) => n + c.length, 0) * (f.sampleRate / 22050));
        const file = mp3WithInfoFrame(concatBytes(segments.map((s) => s.audio)), pcm);
        expect(ffmpegDecode(file, f.sampleRate).length).toBe(pcm);
      }
    },
  );
});
