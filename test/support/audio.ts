import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** ffprobe's view of some audio bytes: codec, sample rate, channels, duration in seconds. */
export function probe(bytes: Uint8Array, inputArgs: string[] = []): { codec: string; sampleRate: number; channels: number; duration: number } {
  const dir = mkdtempSync(join(tmpdir(), "timbre-probe-"));
  const file = join(dir, "audio.bin");
  try {
    writeFileSync(file, bytes);
    const r = spawnSync("ffprobe", ["-v", "error", ...inputArgs, "-show_entries", "stream=codec_name,sample_rate,channels:format=duration", "-of", "json", file], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`ffprobe failed: ${r.stderr}`);
    const j = JSON.parse(r.stdout) as { streams: Array<{ codec_name: string; sample_rate: string; channels: number }>; format: { duration?: string } };
    let duration = Number(j.format.duration ?? NaN);
    if (!Number.isFinite(duration)) {
      // Raw streams without a duration header: decode fully and count.
      const d = spawnSync("ffmpeg", ["-v", "error", ...inputArgs, "-i", file, "-f", "null", "-"], { encoding: "utf8" });
      if (d.status !== 0) throw new Error(d.stderr);
    }
    const s = j.streams[0];
    return { codec: s.codec_name, sampleRate: Number(s.sample_rate), channels: s.channels, duration };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const hasFfmpeg = spawnSync("ffprobe", ["-version"]).status === 0;

export async function readAll(stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): Promise<{ bytes: Uint8Array; chunks: number }> {
  const parts: Uint8Array[] = [];
  for await (const c of stream as AsyncIterable<Uint8Array>) parts.push(c);
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}
