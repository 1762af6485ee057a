/**
 * `npm run bench -- --only=engines`: each embedded engine through `/v1` against its native
 * command on the same text (issue 25 §5): eSpeak NG (Lena, German) against `espeak-ng -v de+f3 |
 * ffmpeg`, flite (Avery, slt base) against Debian's `flite -voice slt -t TEXT -o FILE` then ffmpeg
 * to the same MP3. Per engine: real-time factor (whole response over audio seconds, 1 client),
 * first audio byte at 1 and 4 clients, CPU per request (the server process; the native commands'
 * own CPU). The product streams MP3 44.1 kHz 128 kb/s, as the native pipelines write.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { BENCH_TEXT } from "./bench-text.js";
import { procCpuSeconds, seedUser, sleep, startServer, tts, type Timing } from "./bench-server.js";
import { ensureServerBundle } from "./server-bundle.mjs";
import { ensureWebBuild } from "./web-build.js";

const MP3 = ["-ar", "44100", "-c:a", "libmp3lame", "-b:a", "128k", "-f", "mp3", "pipe:1"];
const has = (cmd: string, arg: string) => spawnSync(cmd, [arg], { stdio: "ignore" }).status === 0;

/** Runs `first`, then ffmpeg on what it wrote (stdout, or the file `wav`), to MP3 on stdout. */
function pipeline(first: string[], wav: string | null): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let ttfb = 0;
    let bytes = 0;
    const encode = (input: string) => {
      const ff = spawn("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "wav", "-i", input, ...MP3], { stdio: [input === "pipe:0" ? "pipe" : "ignore", "pipe", "ignore"] });
      ff.stdout!.on("data", (d: Buffer) => {
        if (!ttfb) ttfb = performance.now() - t0;
        bytes += d.length;
      });
      ff.on("exit", (code) => (code === 0 ? resolve({ ttfb, total: performance.now() - t0, bytes }) : reject(new Error(`ffmpeg exited with ${code}`))));
      return ff;
    };
    const p = spawn(first[0], first.slice(1), { stdio: ["ignore", wav ? "ignore" : "pipe", "ignore"] });
    if (!wav) p.stdout!.pipe(encode("pipe:0").stdin!);
    p.on("exit", (code) => {
      if (code !== 0) reject(new Error(`${first[0]} exited with ${code}`));
      else if (wav) encode(wav);
    });
  });
}

const sorted = (v: number[]) => [...v].sort((a, b) => a - b);
const q = (v: number[], p: number) => (v.length ? sorted(v)[Math.min(v.length - 1, Math.floor(p * v.length))] : NaN);
const f = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : "n/a");
const r = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : "n/a");

export async function benchEngines(runs = 10): Promise<void> {
  if (await ensureServerBundle()) console.log("Bundled the server into build/server");
  ensureWebBuild((l) => console.log(l));
  const dir = mkdtempSync(join(tmpdir(), "timbre-bench-engines-"));
  let files = 0;
  const engines = [
    { name: "eSpeak NG", voice: premadeVoiceId("Lena"), native: has("espeak-ng", "--version") ? () => pipeline(["espeak-ng", "-v", "de+f3", "-s", "150", "--stdout", BENCH_TEXT], null) : null, label: "espeak-ng -v de+f3 | ffmpeg" },
    {
      name: "flite",
      voice: premadeVoiceId("Avery"),
      // Each run its own file, so that four clients at once do not share one.
      native: has("flite", "-lv") ? () => { const file = join(dir, `native-${++files}.wav`); return pipeline(["flite", "-voice", "slt", "-t", BENCH_TEXT, "-o", file], file); } : null,
      label: "flite -voice slt -t TEXT -o FILE; ffmpeg",
    },
  ];
  const { server } = await startServer(dir);
  const rows: string[] = [];
  try {
    const start = performance.now();
    while (!/previews ready/.test(server.output()) && performance.now() - start < 600_000) await sleep(250);
    const key = seedUser(dir, "engines@example.test", "business").apiKey;
    for (const e of engines) {
      const one = () => tts(server.url, key, BENCH_TEXT, true, undefined, e.voice);
      for (let i = 0; i < 3; i++) await one();
      const p = { cpu: [] as number[], ttfb: [] as number[], total: [] as number[], bytes: 0 };
      const n = { cpu: [] as number[], ttfb: [] as number[], total: [] as number[], bytes: 0 };
      for (let i = 0; i < runs; i++) {
        const c0 = procCpuSeconds(server.pid);
        const t = await one();
        p.cpu.push((procCpuSeconds(server.pid) - c0) * 1000);
        p.ttfb.push(t.ttfb);
        p.total.push(t.total);
        p.bytes = t.bytes;
        if (e.native) {
          const n0 = procCpuSeconds("self", true);
          const u = await e.native();
          n.cpu.push((procCpuSeconds("self", true) - n0) * 1000);
          n.ttfb.push(u.ttfb);
          n.total.push(u.total);
          n.bytes = u.bytes;
        }
      }
      // Four clients at once, each making `runs / 2` requests, product then native.
      const four = async (call: () => Promise<Timing>) => (await Promise.all(Array.from({ length: 4 }, async () => {
        const t: number[] = [];
        for (let i = 0; i < Math.max(2, runs / 2); i++) t.push((await call()).ttfb);
        return t;
      }))).flat();
      const p4 = await four(one);
      const n4 = e.native ? await four(e.native) : [];
      const secs = (b: number) => (b * 8) / 128_000;
      const rtf = (x: typeof p) => q(x.total, 0.5) / 1000 / secs(x.bytes);
      console.log(`\n${e.name}: audio per request Timbre ${f(secs(p.bytes), 1)} s, native ${f(secs(n.bytes), 1)} s`);
      const add = (figure: string, a: number, b: number, unit: string, d = 0) => {
        rows.push(`| ${e.name} | ${figure} | ${f(a, d)}${unit} | ${e.native ? `${f(b, d)}${unit}` : "n/a"} | ${r(a, b)} |`);
        console.log(`${e.name} ${figure}: Timbre ${f(a, d)}${unit}, native ${f(b, d)}${unit}, ratio ${r(a, b)}`);
      };
      add(`real-time factor, 1 client (n=${runs})`, rtf(p), rtf(n), "", 3);
      add("first audio byte p50, 1 client", q(p.ttfb, 0.5), q(n.ttfb, 0.5), " ms");
      add(`first audio byte p50, 4 clients (n=${p4.length})`, q(p4, 0.5), q(n4, 0.5), " ms");
      add("CPU per request p50", q(p.cpu, 0.5), q(n.cpu, 0.5), " ms");
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log("\n--- paste into the README ---\n");
  console.log(`| Engine | Figure (${BENCH_TEXT.length} characters, MP3 128 kb/s) | Timbre | Native command | Ratio |`);
  console.log("|---|---|---|---|---|");
  for (const l of rows) console.log(l);
  console.log(`\nNative commands: ${engines.map((e) => `${e.name}: \`${e.label}\``).join("; ")}.`);
}
