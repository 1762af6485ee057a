import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeFlac, flacFromWav, FLAC_BLOCK_SIZE } from "./flac.js";
import { encodeWav } from "./wav.js";

/** ffmpeg's decoding of a FLAC file to 16-bit PCM (a decoder Timbre did not write), checking every CRC. */
function decodeWithFfmpeg(flac: Uint8Array): { pcm: Int16Array; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), "timbre-flac-"));
  try {
    writeFileSync(join(dir, "a.flac"), flac);
    const r = spawnSync("ffmpeg", ["-v", "error", "-xerror", "-err_detect", "crccheck+bitstream+explode", "-i", join(dir, "a.flac"), "-f", "s16le", "-"], { maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(r.stderr.toString());
    const b = r.stdout;
    return { pcm: new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)), stderr: r.stderr.toString() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Speech-like test signal: tones, a loud click at full scale, noise, silence; not a multiple of the block size. */
function signal(n: number): Int16Array {
  const s = new Int16Array(n);
  let seed = 12345;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const noise = ((seed >>> 16) / 65536 - 0.5) * 2000;
    const tone = 9000 * Math.sin((2 * Math.PI * 220 * i) / 24000) + 4000 * Math.sin((2 * Math.PI * 1870 * i) / 24000);
    s[i] = i > n * 0.8 ? 0 : Math.max(-32768, Math.min(32767, Math.round(tone + noise)));
  }
  s[1000] = 32767;
  s[1001] = -32768;
  return s;
}

describe("FLAC encoder", () => {
  it("writes a file ffmpeg decodes back to exactly the same samples, smaller than the PCM", () => {
    const pcm = signal(3 * FLAC_BLOCK_SIZE + 1234);
    const flac = encodeFlac(pcm, 24000);
    expect(Buffer.from(flac.subarray(0, 4)).toString()).toBe("fLaC");
    const back = decodeWithFfmpeg(flac);
    expect(back.stderr).toBe("");
    expect(back.pcm.length).toBe(pcm.length);
    expect(Buffer.from(back.pcm.buffer).equals(Buffer.from(pcm.buffer))).toBe(true);
    expect(flac.byteLength).toBeLessThan(pcm.byteLength * 0.8);
    // The check is real: one flipped bit in the last frame's residual fails its CRC.
    const bad = flac.slice();
    bad[bad.length - 40] ^= 0x10;
    expect(() => decodeWithFfmpeg(bad)).toThrow();
  });

  it("says the rate, one channel, 16 bits and the sample count in STREAMINFO", () => {
    const flac = encodeFlac(signal(5000), 24000);
    const v = new DataView(flac.buffer, flac.byteOffset);
    expect(flac[4]).toBe(0x80); // last metadata block, STREAMINFO
    expect(v.getUint32(4) & 0xffffff).toBe(34);
    // Bytes 18..25: rate (20 bits), channels - 1 (3), bits - 1 (5), total samples (36).
    const hi = v.getUint32(18);
    expect(hi >>> 12).toBe(24000);
    expect((hi >>> 9) & 7).toBe(0);
    expect((hi >>> 4) & 31).toBe(15);
    expect((hi & 15) * 2 ** 32 + v.getUint32(22)).toBe(5000);
  });

  it("encodes silence, a block shorter than the predictor, and many frames (coded frame numbers past 127)", () => {
    for (const pcm of [new Int16Array(4096), Int16Array.from([5, -3]), signal(200 * FLAC_BLOCK_SIZE + 7)]) {
      expect(Buffer.from(decodeWithFfmpeg(encodeFlac(pcm, 24000)).pcm.buffer).equals(Buffer.from(pcm.buffer))).toBe(true);
    }
  });

  it("reads its samples from Timbre's own 16-bit mono WAV, and refuses anything else", () => {
    const pcm = signal(7000);
    const wav = encodeWav(pcm, 24000);
    expect(Buffer.from(flacFromWav(wav)).equals(Buffer.from(encodeFlac(pcm, 24000)))).toBe(true);
    expect(() => flacFromWav(new Uint8Array(100))).toThrow("16-bit mono WAV");
  });
});
