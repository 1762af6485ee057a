/** Test helpers: encode with ffmpeg (installed where CI runs; never used at run time) and compare signals. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeWav } from "../wav.js";

export const hasFfmpeg = spawnSync("ffmpeg", ["-version"]).status === 0;

/** 16-bit mono PCM through ffmpeg with the given output arguments; `ext` picks the container. */
export function ffmpegEncode(pcm: Int16Array, sampleRate: number, ext: string, args: string[]): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "timbre-ffmpeg-"));
  try {
    const input = join(dir, "in.wav");
    const output = join(dir, `out.${ext}`);
    writeFileSync(input, encodeWav(pcm, sampleRate));
    const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-i", input, ...args, output], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
    return new Uint8Array(readFileSync(output));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Highest normalised cross-correlation between two signals at lags up to `maxLag` samples: 1 for
 * the same waveform (a codec's delay and gain do not matter), near 0 for unrelated audio. Over
 * the whole of `a`, or over `window` (`start`, `span` samples of `a`).
 */
export function bestCorrelation(a: ArrayLike<number>, b: ArrayLike<number>, maxLag: number, window?: { start: number; span: number }): { r: number; lag: number } {
  let best = { r: -1, lag: 0 };
  const from = Math.max(maxLag, window?.start ?? 0);
  const n = window ? Math.min(a.length, b.length - maxLag, from + window.span) : Math.min(a.length, b.length) - maxLag;
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    let ab = 0, aa = 0, bb = 0;
    for (let i = from; i < n; i++) {
      const x = a[i];
      const y = b[i + lag];
      ab += x * y;
      aa += x * x;
      bb += y * y;
    }
    const r = ab / Math.sqrt(aa * bb || 1);
    if (r > best.r) best = { r, lag };
  }
  return best;
}
