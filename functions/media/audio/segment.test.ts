import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { concatBytes } from "./bytes.js";
import { parseOutputFormat, type OutputFormatId } from "./formats.js";
import { encodeSegment, isSegmentable } from "./segment.js";

const dir = mkdtempSync(join(tmpdir(), "timbre-seg-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A "sentence": 0.6-1.4 s of a gliding tone, then 0.25 s of silence, as eSpeak ends a line. */
function sentence(seed: number): Int16Array {
  const voiced = Math.round(22050 * (0.6 + 0.2 * seed));
  return Int16Array.from({ length: voiced + 5512 }, (_, i) => (i < voiced ? Math.round(9000 * Math.sin((i * (0.08 + 0.01 * seed) * (1 + i / voiced)) / 2)) : 0));
}

const decode = (file: string, rate: number) =>
  execFileSync("ffmpeg", ["-v", "error", "-xerror", "-i", file, "-f", "s16le", "-ac", "1", "-ar", String(rate), "-"], { maxBuffer: 64 << 20 });

describe("segments", () => {
  it.each(["mp3_44100_128", "mp3_22050_32", "mp3_24000_48"] as OutputFormatId[])(
    "%s: separately encoded chunks concatenate into one stream that decodes whole, about as long as the PCM",
    (id) => {
      const f = parseOutputFormat(id);
      const chunks = [0, 1, 2, 3, 4].map(sentence);
      const segments = chunks.map((c) => encodeSegment(f, c, 22050));
      const file = join(dir, `${id}.mp3`);
      writeFileSync(file, concatBytes(segments.map((s) => s.audio)));
      const decoded = decode(file, f.sampleRate).length / 2;
      // `samples` is exactly what a decoder makes of each segment.
      expect(decoded).toBe(segments.reduce((n, s) => n + s.samples, 0));
      const pcm = chunks.reduce((n, c) => n + c.length, 0) * (f.sampleRate / 22050);
      expect(Math.abs(decoded - pcm) / f.sampleRate).toBeLessThan(0.05);
    },
  );

  it.each(["mp3_44100_128", "mp3_22050_32", "mp3_24000_48"] as OutputFormatId[])("%s: a head handed out early plus the rest are the bytes of one call", (id) => {
    const f = parseOutputFormat(id);
    // 0.2 s (shorter than the head), ~1 s and ~1.4 s of audio.
    for (const pcm of [sentence(0).subarray(0, 4410), sentence(2), sentence(4)]) {
      const whole = encodeSegment(f, pcm, 22050);
      const heads: Uint8Array[] = [];
      const rest = encodeSegment(f, pcm, 22050, (h) => heads.push(h));
      expect(heads.length).toBeLessThanOrEqual(1);
      if (pcm.length > 0.6 * 22050) expect(heads[0]?.length).toBeGreaterThan(0);
      expect(Buffer.from(concatBytes([...heads, rest.audio])).equals(Buffer.from(whole.audio))).toBe(true);
      expect(rest.samples).toBe(whole.samples);
    }
  });

  it("cuts only silence: a chunk without a silent tail keeps every sample (and is longer for it)", () => {
    const f = parseOutputFormat("mp3_44100_128");
    const loud = Int16Array.from({ length: 22050 }, (_, i) => Math.round(9000 * Math.sin(i / 3)));
    expect(encodeSegment(f, loud, 22050).samples).toBeGreaterThanOrEqual(44100 + 1152);
  });

  it("PCM and G.711 segments are the resampled samples, nothing added", () => {
    const c = sentence(1);
    expect(encodeSegment(parseOutputFormat("pcm_44100"), c, 22050).audio.length).toBe(c.length * 4);
    expect(encodeSegment(parseOutputFormat("ulaw_8000"), c, 22050).samples).toBe(Math.ceil((c.length * 8000) / 22050));
  });

  it("Ogg Opus is not segmentable", () => {
    expect(isSegmentable(parseOutputFormat("opus_48000_64"))).toBe(false);
    expect(() => encodeSegment(parseOutputFormat("opus_48000_64"), sentence(0), 22050)).toThrow();
  });
});
