import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./server-bundle.mjs";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/**
 * The product as `npm start` runs it, in a process of its own, for the bench's parts that measure
 * it as a client: start-up, CPU and RSS from /proc, a seeded user, a text-to-speech request.
 */
export const FORMAT = "mp3_44100_128";
/** An eSpeak NG voice (the English premades speak on Flite since issue 25): the main table is eSpeak against native espeak-ng. */
export const VOICE = premadeVoiceId("Lena");
export const DEMO_KEY = "sk_bench_demo_key_000000000000000001";
const CLK_TCK = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Processes: CPU from /proc (clock ticks), RSS, the server.

export function procCpuSeconds(pid: number | "self", children = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the command: state is field 3; utime 14, stime 15, cutime 16, cstime 17.
  const ticks = children ? Number(f[13]) + Number(f[14]) : Number(f[11]) + Number(f[12]);
  return ticks / CLK_TCK;
}

export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

export interface Server {
  pid: number;
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<{ server: Server; readyMs: number; firstAudioMs: number }> {
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, "scripts", "start.mjs")], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: "0",
      LOG_LEVEL: "info",
      DEMO_API_KEY: DEMO_KEY,
      DEMO_PASSWORD: "bench password",
      // Every client of the bench comes from 127.0.0.1.
      MAX_CONNECTIONS_PER_ADDRESS: "4096",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => (out = (out + d.toString()).slice(-200_000)));
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  let url: string | undefined;
  while (!(url = /running at (http:\/\/\S+)/.exec(out)?.[1])) {
    if (child.exitCode !== null) throw new Error(`server exited: ${err || out}`);
    if (performance.now() - t0 > 180_000) throw new Error(`server did not start: ${out} ${err}`);
    await sleep(10);
  }
  const readyMs = performance.now() - t0;
  const first = await tts(url, DEMO_KEY, "Ready when you are.", true, 1);
  const firstAudioMs = readyMs + first.ttfb;
  const server: Server = {
    pid: child.pid!,
    url,
    output: () => out,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
  return { server, readyMs, firstAudioMs };
}


export interface Timing {
  ttfb: number;
  total: number;
  bytes: number;
}

let seed = 1000;
export async function tts(url: string, key: string, text: string, stream: boolean, requestSeed = ++seed, voice = VOICE): Promise<Timing> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/text-to-speech/${voice}${stream ? "/stream" : ""}?output_format=${FORMAT}`, {
    method: "POST",
    headers: { "xi-api-key": key, "content-type": "application/json" },
    // A distinct seed per request: no free regenerations, every request is charged and synthesised.
    body: JSON.stringify({ text, seed: requestSeed }),
  });
  if (res.status !== 200) throw new Error(`TTS answered ${res.status}: ${await res.text()}`);
  const reader = res.body!.getReader();
  let ttfb = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!ttfb && value.byteLength) ttfb = performance.now() - t0;
    bytes += value.byteLength;
  }
  return { ttfb, total: performance.now() - t0, bytes };
}

/** A user on `tier` with an API key, made by `npm run seed` against the running server's data. */
export function seedUser(dataDir: string, email: string, tier: string): { apiKey: string } {
  const out = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts", "seed.ts"), "--email", email, "--tier", tier], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: "utf8",
  });
  if (out.status !== 0) throw new Error(`seeding failed: ${out.stderr}`);
  return { apiKey: (JSON.parse(out.stdout.trim().split("\n").at(-1)!) as { api_key: string }).api_key };
}
