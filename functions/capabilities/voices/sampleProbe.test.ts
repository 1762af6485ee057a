import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sniffAudioType } from "../../media/audio/sniff.js";
import { encodeWav } from "../../media/audio/wav.js";
import { probeDuration } from "./sampleProbe.js";

const hasFfmpeg = spawnSync("ffmpeg", ["-version"]).status === 0;
const dir = mkdtempSync(join(tmpdir(), "timbre-probe-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 6.5 s of tone in a container, made by ffmpeg. */
function encoded(name: string, args: string[]): Uint8Array {
  const file = join(dir, name);
  const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=6.5", ...args, file]);
  if (r.status !== 0) throw new Error(String(r.stderr));
  return new Uint8Array(readFileSync(file));
}

describe("sample durations from container headers", () => {
  it("reads a WAV's data size", () => {
    const wav = encodeWav(new Int16Array(22_050 * 3), 22_050);
    expect(probeDuration("wav", wav)).toBeCloseTo(3, 3);
  });

  it("knows nothing about bytes that are not what they claim", () => {
    expect(probeDuration("mp3", new Uint8Array(1000))).toBeNull();
    expect(probeDuration("ogg", new Uint8Array(1000))).toBeNull();
  });

  // ffmpeg writes the containers; CI installs it (.ci/run), so this only skips on a bare machine.
  it.skipIf(!hasFfmpeg)("reads every container ffmpeg writes within 0.1 s (CBR and VBR MP3, Opus, Vorbis, FLAC, M4A, WebM)", () => {
    const cases: Array<[string, string[]]> = [
      ["a.wav", []],
      ["cbr.mp3", ["-b:a", "128k"]],
      ["vbr.mp3", ["-q:a", "4"]],
      ["opus.ogg", ["-c:a", "libopus"]],
      ["vorbis.ogg", ["-c:a", "libvorbis"]],
      ["a.flac", []],
      ["a.m4a", ["-c:a", "aac"]],
      ["a.webm", ["-c:a", "libopus"]],
    ];
    for (const [name, args] of cases) {
      const bytes = encoded(name, args);
      const type = sniffAudioType(bytes);
      expect(type, name).not.toBeNull();
      const d = probeDuration(type!, bytes);
      expect(d, name).not.toBeNull();
      expect(Math.abs(d! - 6.5), `${name}: ${d}`).toBeLessThan(0.1);
    }
  });
});
