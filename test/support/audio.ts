import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * ffprobe's view of some audio bytes: codec, sample rate, channels, duration in seconds.
 * Asynchronous on purpose: most callers run the embedded stack in their own process, and a
 * synchronous ffprobe blocked its event loop. Under load the block outlasted the server's 5 s
 * keep-alive, so the idle-socket timer fired right after the client had put its next request on
 * that socket (the client's own timer, 1 s earlier, had been blocked too): `fetch failed`,
 * ECONNRESET, in test/speech/tts.test.ts. Real clients do not share the server's loop.
 */
export async function probe(bytes: Uint8Array, inputArgs: string[] = []): Promise<{ codec: string; sampleRate: number; channels: number; duration: number }> {
  const dir = mkdtempSync(join(tmpdir(), "timbre-probe-"));
  const file = join(dir, "audio.bin");
  try {
    writeFileSync(file, bytes);
    const r = await run("ffprobe", ["-v", "error", ...inputArgs, "-show_entries", "stream=codec_name,sample_rate,channels:format=duration", "-of", "json", file]);
    if (r.status !== 0) throw new Error(`ffprobe failed: ${r.stderr}`);
    const j = JSON.parse(r.stdout) as { streams: Array<{ codec_name: string; sample_rate: string; channels: number }>; format: { duration?: string } };
    const duration = Number(j.format.duration ?? NaN);
    if (!Number.isFinite(duration)) {
      // Raw streams without a duration header: they must at least decode fully.
      const d = await run("ffmpeg", ["-v", "error", ...inputArgs, "-i", file, "-f", "null", "-"]);
      if (d.status !== 0) throw new Error(d.stderr);
    }
    const s = j.streams[0];
    return { codec: s.codec_name, sampleRate: Number(s.sample_rate), channels: s.channels, duration };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}

export const hasFfmpeg = spawnSync("ffprobe", ["-version"]).status === 0;

export async function readAll(stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): Promise<{ bytes: Uint8Array; chunks: number }> {
  const parts: Uint8Array[] = [];
  for await (const c of stream as AsyncIterable<Uint8Array>) parts.push(c);
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}
