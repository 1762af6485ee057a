import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { concatBytes } from "./bytes.js";
import { createEncoder, encodeAll } from "./encoder.js";
import { Mp3Stream } from "./mp3.js";
import { OUTPUT_FORMATS, parseOutputFormat, type OutputFormatId } from "./formats.js";

// ffmpeg/ffprobe are the referee here (Debian package `ffmpeg`).
const dir = mkdtempSync(join(tmpdir(), "timbre-enc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const INPUT_RATE = 22050;
const SECONDS = 1.2;
/** A 440 Hz tone with a slow swell: easy to recognise after any codec. */
const input = Int16Array.from({ length: Math.round(INPUT_RATE * SECONDS) }, (_, i) =>
  Math.round(12000 * Math.sin((2 * Math.PI * 440 * i) / INPUT_RATE) * (0.6 + 0.4 * Math.sin((2 * Math.PI * i) / INPUT_RATE))),
);

function streamEncode(id: OutputFormatId, chunk = 1013): Uint8Array {
  const enc = createEncoder(id, INPUT_RATE);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < input.length; i += chunk) parts.push(enc.write(input.subarray(i, i + chunk)));
  parts.push(enc.end());
  return concatBytes(parts);
}

const RAW_DEMUXER: Record<string, string> = { pcm: "s16le", ulaw: "mulaw", alaw: "alaw" };

function probe(file: string): { codec: string; sampleRate: number; duration: number } {
  const out = execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,sample_rate:format=duration", "-of", "json", file]);
  const j = JSON.parse(out.toString()) as { streams: Array<{ codec_name: string; sample_rate: string }>; format: { duration: string } };
  return { codec: j.streams[0].codec_name, sampleRate: Number(j.streams[0].sample_rate), duration: Number(j.format.duration) };
}

/** Decodes to 16-bit mono at the format's own rate through ffmpeg. */
function ffmpegDecode(file: string, id: OutputFormatId): Int16Array {
  const f = parseOutputFormat(id);
  const raw = RAW_DEMUXER[f.codec];
  const inputArgs = raw ? ["-f", raw, "-ar", String(f.sampleRate), "-ac", "1", "-i", file] : ["-i", file];
  const pcm = execFileSync("ffmpeg", ["-v", "error", ...inputArgs, "-f", "s16le", "-ac", "1", "-ar", String(f.sampleRate), "-"], { maxBuffer: 64 << 20 });
  return new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
}

/** Best normalised correlation of the decoded audio with a 440 Hz reference, over small lags. */
function toneMatch(decoded: Int16Array, rate: number): number {
  let best = 0;
  const from = Math.floor(rate * 0.3);
  const to = Math.floor(rate * 0.9);
  for (let lag = -Math.floor(rate / 440); lag <= Math.floor(rate / 440); lag++) {
    let s = 0, a = 0, b = 0;
    for (let i = from; i < to; i++) {
      const ref = Math.sin((2 * Math.PI * 440 * (i + lag)) / rate) * (0.6 + 0.4 * Math.sin((2 * Math.PI * (i + lag)) / rate));
      s += decoded[i] * ref;
      a += decoded[i] * decoded[i];
      b += ref * ref;
    }
    best = Math.max(best, s / Math.sqrt(a * b));
  }
  return best;
}

const EXPECTED_CODEC: Record<string, string> = { mp3: "mp3", opus: "opus", wav: "pcm_s16le" };

describe("every output_format decodes in ffmpeg", () => {
  it.each(OUTPUT_FORMATS.map((id) => [id]))("%s", (id) => {
    const f = parseOutputFormat(id);
    const file = join(dir, id);
    writeFileSync(file, streamEncode(id));
    if (EXPECTED_CODEC[f.codec]) {
      const p = probe(file);
      expect(p.codec).toBe(EXPECTED_CODEC[f.codec]);
      expect(p.sampleRate).toBe(f.sampleRate);
      // MP3 carries the encoder's priming and frame padding (< 2 frames); ffprobe counts Opus'
      // 6.5 ms pre-skip in the container duration; WAV is exact.
      expect(Math.abs(p.duration - SECONDS)).toBeLessThan(f.codec === "mp3" ? 0.08 : f.codec === "opus" ? 0.01 : 0.002);
    }
    const decoded = ffmpegDecode(file, id);
    const tolerance = f.codec === "mp3" ? 0.08 * f.sampleRate : 2;
    expect(Math.abs(decoded.length - SECONDS * f.sampleRate)).toBeLessThanOrEqual(tolerance);
    // Lossy codecs at low rates still keep a clean tone recognisable.
    expect(toneMatch(decoded, f.sampleRate)).toBeGreaterThan(f.codec === "mp3" || f.codec === "opus" ? 0.9 : 0.99);
  });
});

describe("streaming encoders", () => {
  it.each(["mp3_44100_128", "mp3_22050_32", "pcm_24000", "ulaw_8000", "alaw_8000", "wav_16000"] as const)(
    "%s gives the same bytes in chunks as in one call",
    (id) => {
      expect(streamEncode(id, 777)).toEqual(encodeAll(id, input, INPUT_RATE));
    },
  );

  it("opus in chunks decodes to the same samples as in one call (Ogg pages follow the writes)", () => {
    const a = join(dir, "chunked.ogg");
    const b = join(dir, "whole.ogg");
    writeFileSync(a, streamEncode("opus_48000_64", 777));
    writeFileSync(b, encodeAll("opus_48000_64", input, INPUT_RATE));
    expect(ffmpegDecode(a, "opus_48000_64")).toEqual(ffmpegDecode(b, "opus_48000_64"));
  });

  it("refuses writes after end", () => {
    const enc = createEncoder("pcm_16000", INPUT_RATE);
    enc.end();
    expect(() => enc.write(input)).toThrow(/ended/);
  });

  it("keeps several live encoders independent on one thread", () => {
    const a = createEncoder("opus_48000_32", INPUT_RATE);
    const b = createEncoder("opus_48000_32", INPUT_RATE);
    const c = createEncoder("mp3_44100_64", INPUT_RATE);
    const d = createEncoder("mp3_44100_64", INPUT_RATE);
    const silence = new Int16Array(input.length);
    const outA = concatBytes([a.write(input), a.end()]);
    const outB = concatBytes([b.write(silence), b.end()]);
    const outC = concatBytes([c.write(input), d.write(silence), c.end(), d.end()]);
    expect(outA).toEqual(encodeAll("opus_48000_32", input, INPUT_RATE));
    expect(outB).toEqual(encodeAll("opus_48000_32", silence, INPUT_RATE));
    expect(outC.length).toBeGreaterThan(0);
    const file = join(dir, "interleaved.ogg");
    writeFileSync(file, outA);
    expect(toneMatch(ffmpegDecode(file, "opus_48000_32"), 48000)).toBeGreaterThan(0.9);
  });
});

describe("MP3 against native LAME", () => {
  // The bench compares CPU per request with `ffmpeg … -c:a libmp3lame`: that comparison is fair only
  // if both do the same work. LAME is deterministic, so the same 16-bit input at the same settings
  // (its default quality, CBR) must give the same frames, byte for byte.
  it.each([
    [44100, 128],
    [22050, 32],
  ])("writes exactly the frames ffmpeg's libmp3lame writes at %i Hz, %i kbps", (rate, kbps) => {
    let seed = 3;
    const pcm = Int16Array.from({ length: rate * 3 }, (_, i) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return Math.round(9000 * Math.sin(i / 9) * Math.sin(i / 3000) + 1500 * (seed / 2 ** 32 - 0.5));
    });
    const file = join(dir, `lame-${rate}.s16`);
    writeFileSync(file, pcm);
    const native = execFileSync("ffmpeg", ["-v", "error", "-f", "s16le", "-ar", String(rate), "-ac", "1", "-i", file, "-c:a", "libmp3lame", "-b:a", `${kbps}k`, "-write_xing", "0", "-id3v2_version", "0", "-fflags", "+bitexact", "-f", "mp3", "-"]);
    const enc = new Mp3Stream(rate, kbps);
    const ours = Buffer.from(concatBytes([enc.encode(Float32Array.from(pcm, (v) => v / 32768)), enc.finish()]));
    expect(ours.length).toBe(native.length);
    expect(ours.equals(native)).toBe(true);
  });
});
