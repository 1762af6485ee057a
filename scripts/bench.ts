import "./lib/quiet.js";
/**
 * `npm run bench`: the product as `npm start` runs it (the bundled server, data on disk, in its
 * own process) measured by this process as its client, against baselines measured in the same run:
 * the native pipeline `espeak-ng … --stdout | ffmpeg … libmp3lame` when both are installed (else
 * the product's own engine in this process, and the table says so), the idle server, and the
 * previous serial encoding. Prints figures with their spread, then a Markdown table to paste into
 * the README. Asserts nothing; the machine may be shared, so read ratios, not absolute times.
 *
 *   npm run bench [-- --skip-lambda] [--skip-library] [--seconds=12]
 *   npm run bench -- --only=shared-voices
 *   npm run bench -- --only=similar-voices
 *   npm run bench -- --only=sts      (speech to speech and the voice isolator; --skip-sts leaves them out)
 *   npm run bench -- --only=voice-creation   (design, clone, verification: scripts/lib/bench-voice-creation.ts)
 *   npm run bench -- --only=pvc      (presigned upload, separation, fine-tuning, API p95 beside them: scripts/lib/bench-pvc.ts)
 *   npm run bench -- --only=pvc-upload [--rounds=N]   (the presigned upload figure alone, each round's ratio)
 *   npm run bench -- --only=resample | --only=lambda   (one row each)
 *   npm run bench -- --only=engines  (each embedded engine against its native command: scripts/lib/bench-engines.ts)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ensureServerBundle, ROOT } from "./lib/server-bundle.mjs";
import { benchSharedVoices, benchSimilarVoices, type LibraryFigures, type SimilarFigures } from "./lib/bench-library.js";
import { ensureWebBuild } from "./lib/web-build.js";
import { BENCH_TEXT } from "./lib/bench-text.js";
import { benchSpeechToSpeech, type StsBenchFigures } from "./lib/bench-sts.js";
import { benchPvc } from "./lib/bench-pvc.js";
import { benchVoiceCreation } from "./lib/bench-voice-creation.js";
import { benchEngines } from "./lib/bench-engines.js";
import { FORMAT, procCpuSeconds, rssMb, seedUser, sleep, startServer, tts, VOICE, type Server, type Timing } from "./lib/bench-server.js";
import { RUNTIME_FILES } from "../infra/constructs/function.js";
import { ENGINE_RUNTIME_PACKAGES, CONVERSION_RUNTIME_PACKAGES } from "../infra/constructs/api.js";
import { analyzeAsset } from "./lib/lambda-asset.js";
import type { SynthesisRequest } from "../functions/media/engine/port.js";


const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SECONDS = Number(option("seconds") ?? 12);
/** Lena's voice (female, German eSpeak NG base) in espeak-ng's own terms, as the per-engine table uses it. */
const NATIVE_VOICE = ["-v", "de+f3", "-s", "150"];
const LONG_TEXT = Array.from({ length: Math.ceil(10_000 / (BENCH_TEXT.length + 1)) }, () => BENCH_TEXT).join(" ").slice(0, 10_000);

// ---------------------------------------------------------------------------------------------
// Numbers.

const sorted = (v: number[]) => [...v].sort((a, b) => a - b);
const q = (v: number[], p: number) => (v.length ? sorted(v)[Math.min(v.length - 1, Math.floor(p * v.length))] : NaN);
const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : "n/a");
/** "p50 (min–max)": the middle and the spread of repeated measurements. */
const spread = (v: number[], digits = 0, unit = "") => `${fmt(q(v, 0.5), digits)}${unit} (${fmt(Math.min(...v), digits)}–${fmt(Math.max(...v), digits)})`;
const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : "n/a");

interface Row {
  figure: string;
  timbre: string;
  baseline: string;
  ratio: string;
  goal: string;
  met: boolean | null;
}
const rows: Row[] = [];
function row(r: Row): void {
  rows.push(r);
  const verdict = r.met === null ? "" : r.met ? "  [goal met]" : "  [goal NOT met]";
  console.log(`${r.figure}: Timbre ${r.timbre}; baseline ${r.baseline}; ratio ${r.ratio}${r.goal ? `; goal ${r.goal}` : ""}${verdict}`);
}

// ---------------------------------------------------------------------------------------------
// Requests: the product over HTTP, the native pipeline as two processes.


/** BENCH_NO_NATIVE=1 shows the fallback on a machine that has the native tools. */
const hasNative = !process.env.BENCH_NO_NATIVE && spawnSync("espeak-ng", ["--version"], { stdio: "ignore" }).status === 0 && spawnSync("ffmpeg", ["-version"], { stdio: "ignore" }).status === 0;

/**
 * The baseline of a request: the native pipeline, or without it the product's engine in this
 * process (synthesis and encoding only: no HTTP, no storage, no billing).
 */
interface Baseline {
  name: string;
  run(text: string): Promise<Timing>;
  /** CPU seconds spent on baseline work so far. */
  cpu(): number;
  close(): Promise<void>;
}

async function makeBaseline(): Promise<Baseline> {
  if (hasNative) return { name: "native espeak-ng + ffmpeg", run: nativePipeline, cpu: () => procCpuSeconds("self", true), close: async () => undefined };
  const [{ EspeakEngine }, { premadeVoiceRecords }] = await Promise.all([import("../functions/media/engine/espeak/engine.js"), import("../functions/platform/domain/premadeVoices.js")]);
  const engine = new EspeakEngine();
  await engine.warm();
  const voice = premadeVoiceRecords().find((v) => v.voice_id === VOICE)!;
  let n = 0;
  return {
    name: "Timbre's engine in the bench process (no native espeak-ng/ffmpeg here)",
    async run(text) {
      const req: SynthesisRequest = {
        text,
        voice: voice.profile,
        settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 },
        seed: ++n,
        model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: true },
      };
      const t0 = performance.now();
      let ttfb = 0;
      let bytes = 0;
      for await (const c of engine.synthesizeEncoded(req, FORMAT)) {
        if (!ttfb && c.audio.length) ttfb = performance.now() - t0;
        bytes += c.audio.length;
      }
      return { ttfb, total: performance.now() - t0, bytes };
    },
    cpu: () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    },
    close: () => engine.close(),
  };
}

function nativePipeline(text: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const espeak = spawn("espeak-ng", [...NATIVE_VOICE, "--stdout", text], { stdio: ["ignore", "pipe", "ignore"] });
    const ffmpeg = spawn("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "wav", "-i", "pipe:0", "-ar", "44100", "-c:a", "libmp3lame", "-b:a", "128k", "-f", "mp3", "pipe:1"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    espeak.stdout.pipe(ffmpeg.stdin);
    let ttfb = 0;
    let bytes = 0;
    ffmpeg.stdout.on("data", (d: Buffer) => {
      if (!ttfb) ttfb = performance.now() - t0;
      bytes += d.length;
    });
    let exits = 0;
    const done = (code: number | null) => {
      if (code !== 0) reject(new Error(`native pipeline exited with ${code}`));
      else if (++exits === 2) resolve({ ttfb, total: performance.now() - t0, bytes });
    };
    espeak.on("exit", done);
    ffmpeg.on("exit", done);
  });
}

/** Runs `one` from `clients` loops for `seconds`; requests per second over the whole span. */
async function saturate(clients: number, seconds: number, one: () => Promise<Timing>, onTick?: () => void): Promise<{ rps: number; ttfb: number[] }> {
  const ttfb: number[] = [];
  let count = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const tick = onTick ? setInterval(onTick, 200) : undefined;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        ttfb.push((await one()).ttfb);
        count++;
      }
    }),
  );
  if (tick) clearInterval(tick);
  return { rps: count / ((performance.now() - t0) / 1000), ttfb };
}

// ---------------------------------------------------------------------------------------------
// Lambda: the API function's asset as `cdk synth` bundles it, loaded the way Lambda loads it.

function dirBytes(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((n, e) => n + dirBytes(join(path, e)), 0);
}

function lambdaFigures(): void {
  const out = mkdtempSync(join(tmpdir(), "timbre-bench-cdk-"));
  try {
    console.log("\nLambda: bundling every function with `cdk synth` (about a minute)…");
    const synth = spawnSync(process.execPath, [join(ROOT, "node_modules", "aws-cdk", "bin", "cdk"), "synth", "--quiet", "--output", out], { cwd: ROOT, encoding: "utf8", timeout: 600_000 });
    if (synth.status !== 0) throw new Error(`cdk synth failed: ${synth.stderr}`);
    const template = JSON.parse(readFileSync(join(out, "Timbre.template.json"), "utf8")) as { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };
    const fn = Object.values(template.Resources).find((r) => r.Type === "AWS::Lambda::Function" && String(r.Properties.Description).includes("/v1"))!;
    const asset = join(out, `asset.${(fn.Properties.Code as { S3Key: string }).S3Key.replace(/\.zip$/, "")}`);
    // Which files the code in the asset can load, from its entry (the handler's module) on:
    // static and dynamic imports, worker entries, package resolution, files named by path
    // (scripts/lib/lambda-asset.ts). Source maps count as read when NODE_OPTIONS says so.
    const entry = `${String(fn.Properties.Handler).split(".")[0]}.mjs`;
    const nodeOptions = String((fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables?.NODE_OPTIONS ?? "");
    const report = analyzeAsset(asset, { entries: [entry], sourceMaps: nodeOptions.includes("--enable-source-maps") });
    const size = report.totalBytes / 1e6;
    const mb = (bytes: number) => `${fmt(bytes / 1e6, 2)} MB`;
    const byRole = (role: string) => report.files.filter((f) => f.role === role);
    for (const role of ["module", "data", "source-map", "notice", "unused"]) {
      const files = byRole(role);
      console.log(`  ${role.padEnd(10)} ${mb(files.reduce((n, f) => n + f.bytes, 0)).padStart(9)}  ${files.length} file(s)${role === "unused" && files.length ? `: ${files.map((f) => f.path).join(", ")}` : ""}`);
    }
    console.log(
      `  source maps are read by --enable-source-maps (NODE_OPTIONS "${nodeOptions}") for stack traces; licence notices are never loaded and kept on purpose; ` +
        `data held twice among what is loaded: ${mb(report.duplicatedBytes)}; never loaded: ${report.unusedBytes} bytes`,
    );
    // Information only: the asset with the runtime packages copied whole (before issue 14).
    const packages = [...ENGINE_RUNTIME_PACKAGES, ...CONVERSION_RUNTIME_PACKAGES];
    const wholePackages = packages.reduce((n, p) => n + dirBytes(join(ROOT, "node_modules", p)), 0);
    const trimmed = packages.reduce((n, p) => n + RUNTIME_FILES[p].reduce((m, f) => m + statSync(join(ROOT, "node_modules", p, f)).size, 0), 0);
    console.log(`  (for information: with the runtime packages copied whole it would be ${fmt(size + (wholePackages - trimmed) / 1e6, 1)} MB)`);
    // INIT: a fresh Node process importing the handler module (top-level await included), with a
    // stand-in for the runtime's awslambda global; the engine warms inside.
    const probe = `
      globalThis.awslambda = { streamifyResponse: (h) => h, HttpResponseStream: { from(s, m) { s.meta = m; return s; } } };
      const t = performance.now();
      await import(${JSON.stringify(join(asset, "index.mjs"))});
      process.stdout.write(JSON.stringify({ init: performance.now(), importMs: performance.now() - t }));
      process.exit(0);`;
    const inits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", probe], {
        env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", TIMBRE_MODE: "aws", SESSION_SECRET: "s".repeat(40), AWS_REGION: "us-east-1", LOG_LEVEL: "silent", AWS_EC2_METADATA_DISABLED: "true", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", NODE_OPTIONS: "--enable-source-maps" },
        encoding: "utf8",
        timeout: 60_000,
      });
      if (r.status !== 0) throw new Error(`loading the API bundle failed: ${r.stderr}`);
      inits.push((JSON.parse(r.stdout) as { init: number }).init);
    }
    row({
      figure: "Lambda API asset (bundle, workers, runtime files)",
      timbre: `${fmt(size, 1)} MB (${report.files.length} files)`,
      baseline: `${mb(report.unusedBytes)} never loaded`,
      ratio: "n/a",
      goal: "no file it never uses (the ~3.4 MB of the issue dropped)",
      met: report.unusedBytes === 0,
    });
    row({ figure: "Lambda INIT, engine warmed (fresh Node importing the bundle), n=3", timbre: spread(inits, 0, " ms"), baseline: "n/a", ratio: "n/a", goal: "engine warm during INIT", met: null });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------

async function resamplerFigures(): Promise<void> {
  // The product's resampler on 57 s of speech-like audio, against ffmpeg's on the same samples,
  // each in a process of its own (scripts/lib/bench-resample.ts).
  const n = 22050 * 57;
  const pcm = Int16Array.from({ length: n }, (_, i) => Math.round(8000 * Math.sin(i / 7) * Math.sin(i / 900)));
  const run = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts", "lib", "bench-resample.ts")], { cwd: ROOT, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`resampling bench failed: ${run.stderr}`);
  const ours = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as number[];
  let theirs: number[] = [];
  if (hasNative) {
    const raw = Buffer.from(pcm.buffer);
    for (let rep = 0; rep < 7; rep++) {
      const before = procCpuSeconds("self", true);
      spawnSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "s16le", "-ar", "22050", "-ac", "1", "-i", "pipe:0", "-ar", "44100", "-f", "s16le", "pipe:1"], { input: raw, maxBuffer: 64 << 20 });
      theirs.push((procCpuSeconds("self", true) - before) * 1000);
    }
  } else theirs = [NaN];
  row({
    figure: "Resampling 22.05 → 44.1 kHz, CPU per 57 s of audio (n=7)",
    timbre: spread(ours, 0, " ms"),
    baseline: hasNative ? `ffmpeg process ${spread(theirs, 0, " ms")} (start-up included)` : "n/a",
    ratio: ratio(q(ours, 0.5), q(theirs, 0.5)),
    goal: "≤ 30 ms",
    met: q(ours, 0.5) <= 30,
  });
}

async function main(): Promise<void> {
  const model = cpus()[0]?.model ?? "unknown CPU";
  const startLoad = loadavg()[0];
  const date = new Date().toISOString().slice(0, 10);
  const machine = `${availableParallelism()} cores, ${model.trim()}, Node ${process.version}`;
  console.log(`Timbre bench, ${date}: ${machine}; load average at start ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  if (loadavg()[0] > availableParallelism()) {
    // The engine's workers run at nice 10 (so the request loop stays responsive); on a machine
    // busy with other work they get a small share of it, and the native pipeline (nice 0) does not.
    console.log("WARNING: the machine is busy (load average above the core count): the engine's workers run at nice 10 and get a small share of it; these figures are not representative");
  }
  console.log(`Text: ${BENCH_TEXT.length} characters (and ${LONG_TEXT.length} for the long request), ${FORMAT}, voice Avery`);
  console.log(
    hasNative
      ? `Baseline: the native pipeline \`espeak-ng ${NATIVE_VOICE.join(" ")} --stdout TEXT | ffmpeg -f wav -i - -ar 44100 -c:a libmp3lame -b:a 128k -f mp3 -\``
      : "Baseline: espeak-ng or ffmpeg is not installed here, so there is no native anchor: ratios against it are n/a (install both for the full bench)",
  );
  if (await ensureServerBundle()) console.log("Bundled the server into build/server");
  // A stale web build would be rebuilt by the first start and counted as start-up (25 s here):
  // build it first, as `npm install && npm start` on a fresh machine builds it once.
  ensureWebBuild((l) => console.log(l));
  const base = await makeBaseline();

  const dataDir = mkdtempSync(join(tmpdir(), "timbre-bench-"));
  let server: Server | undefined;
  try {
    // Start-up as a user sees it: `npm start` on a fresh folder, then a restart, to the first audio.
    const fresh = await startServer(dataDir);
    server = fresh.server;
    console.log(`\nfresh start: running after ${fmt(fresh.readyMs)} ms, first audio byte at ${fmt(fresh.firstAudioMs)} ms`);
    const key = seedUser(dataDir, "bench@example.test", "business").apiKey;
    // The first start synthesises the voice previews in the background: let it finish, so the
    // figures below measure requests, not that.
    const waitStart = performance.now();
    while (!/previews ready/.test(server.output()) && performance.now() - waitStart < 600_000) await sleep(250);
    await server.stop();
    const restarts: number[] = [];
    const restartAudio: number[] = [];
    for (let i = 0; i < 3; i++) {
      const again = await startServer(dataDir);
      restarts.push(again.readyMs);
      restartAudio.push(again.firstAudioMs);
      server = again.server;
      if (i < 2) await server.stop();
    }
    row({ figure: "`npm start` on a fresh folder to the first audio byte", timbre: `${fmt(fresh.firstAudioMs)} ms`, baseline: "n/a", ratio: "n/a", goal: "≤ 6 s", met: fresh.firstAudioMs <= 6000 });
    row({ figure: "restart to the first audio byte (n=3)", timbre: spread(restartAudio, 0, " ms"), baseline: "n/a", ratio: "n/a", goal: "≤ 3 s", met: q(restartAudio, 0.5) <= 3000 });
    const s = server;

    // Warm the HTTP path and the JIT of the request loop.
    for (let i = 0; i < 3; i++) await tts(s.url, key, BENCH_TEXT, true);
    await sleep(2000);
    const rssIdle = rssMb(s.pid);

    // One client, product and native interleaved so the machine's noise hits both alike.
    const RUNS = 20;
    const product = { cpu: [] as number[], ttfb: [] as number[], total: [] as number[], bytes: 0 };
    const native = { cpu: [] as number[], ttfb: [] as number[], total: [] as number[], bytes: 0 };
    for (let i = 0; i < RUNS; i++) {
      const c0 = procCpuSeconds(s.pid);
      const t = await tts(s.url, key, BENCH_TEXT, true);
      product.cpu.push((procCpuSeconds(s.pid) - c0) * 1000);
      product.ttfb.push(t.ttfb);
      product.total.push(t.total);
      product.bytes = t.bytes;
      {
        const n0 = base.cpu();
        const n = await base.run(BENCH_TEXT);
        native.cpu.push((base.cpu() - n0) * 1000);
        native.ttfb.push(n.ttfb);
        native.total.push(n.total);
        native.bytes = n.bytes;
      }
    }
    const audioSeconds = (b: number) => (b * 8) / 128_000;
    console.log(`\naudio per request: Timbre ${fmt(audioSeconds(product.bytes), 1)} s, native ${fmt(audioSeconds(native.bytes), 1)} s`);
    const nat = (v: number[]) => spread(v, 0, " ms");
    row({ figure: `CPU per request, 1k characters (n=${RUNS}; Timbre: the whole server process)`, timbre: spread(product.cpu, 0, " ms"), baseline: nat(native.cpu), ratio: ratio(q(product.cpu, 0.5), q(native.cpu, 0.5)), goal: "≤ 1.25× native", met: hasNative ? q(product.cpu, 0.5) / q(native.cpu, 0.5) <= 1.25 : null });
    row({ figure: `\`/stream\` whole response, 1 client (n=${RUNS})`, timbre: spread(product.total, 0, " ms"), baseline: nat(native.total), ratio: ratio(q(product.total, 0.5), q(native.total, 0.5)), goal: "", met: null });
    row({
      figure: `time to first audio byte, 1 client: p50 / p95 (n=${RUNS})`,
      timbre: `${fmt(q(product.ttfb, 0.5))} / ${fmt(q(product.ttfb, 0.95))} ms`,
      baseline: `${fmt(q(native.ttfb, 0.5))} / ${fmt(q(native.ttfb, 0.95))} ms`,
      ratio: ratio(q(product.ttfb, 0.5), q(native.ttfb, 0.5)),
      goal: "p50 ≤ 60 ms",
      met: q(product.ttfb, 0.5) <= 60,
    });

    // Throughput and time to first byte under load, 1/2/4/8 clients, for a fixed time each.
    let rssLoad = 0;
    const best = { product: 0, native: 0 };
    for (const clients of [1, 2, 4, 8]) {
      const p = await saturate(clients, SECONDS, () => tts(s.url, key, BENCH_TEXT, true), () => (rssLoad = Math.max(rssLoad, rssMb(s.pid))));
      const n = await saturate(clients, SECONDS, () => base.run(BENCH_TEXT));
      best.product = Math.max(best.product, p.rps);
      best.native = Math.max(best.native, n.rps);
      row({ figure: `throughput, ${clients} client${clients > 1 ? "s" : ""} (${SECONDS} s)`, timbre: `${fmt(p.rps, 2)} req/s`, baseline: `${fmt(n.rps, 2)} req/s`, ratio: ratio(p.rps, n.rps), goal: "", met: null });
      if (clients === 4) {
        row({
          figure: `time to first audio byte, 4 clients: p50 / p95 (n=${p.ttfb.length})`,
          timbre: `${fmt(q(p.ttfb, 0.5))} / ${fmt(q(p.ttfb, 0.95))} ms`,
          baseline: `${fmt(q(n.ttfb, 0.5))} / ${fmt(q(n.ttfb, 0.95))} ms`,
          ratio: ratio(q(p.ttfb, 0.5), q(n.ttfb, 0.5)),
          goal: "p50 ≤ 150 ms",
          met: q(p.ttfb, 0.5) <= 150,
        });
      }
    }
    row({ figure: "throughput at saturation (best of 1/2/4/8 clients)", timbre: `${fmt(best.product, 2)} req/s`, baseline: `${fmt(best.native, 2)} req/s`, ratio: ratio(best.product, best.native), goal: "≥ 0.8× native", met: hasNative ? best.product / best.native >= 0.8 : null });
    row({ figure: "RSS of the server: idle / under load (1–8 clients)", timbre: `${fmt(rssIdle)} / ${fmt(rssLoad)} MB`, baseline: "n/a", ratio: ratio(rssLoad, rssIdle) + " load/idle", goal: "", met: null });

    // GET /v1/voices while syntheses run, against the idle server.
    const voicesCall = async () => {
      const t = performance.now();
      await (await fetch(`${s.url}/v1/voices`, { headers: { "xi-api-key": key } })).arrayBuffer();
      return performance.now() - t;
    };
    const idle: number[] = [];
    for (let i = 0; i < 30; i++) idle.push(await voicesCall());
    const busy: number[] = [];
    let running = true;
    const load = Promise.all(Array.from({ length: 4 }, async () => {
      while (running) await tts(s.url, key, BENCH_TEXT, true);
    }));
    await sleep(300);
    for (let i = 0; i < 30; i++) {
      busy.push(await voicesCall());
      await sleep(20);
    }
    running = false;
    await load;
    row({
      figure: "`GET /v1/voices` p50 / p95 while 4 syntheses run (baseline: idle server)",
      timbre: `${fmt(q(busy, 0.5), 1)} / ${fmt(q(busy, 0.95), 1)} ms`,
      baseline: `${fmt(q(idle, 0.5), 1)} / ${fmt(q(idle, 0.95), 1)} ms`,
      ratio: ratio(q(busy, 0.95), q(idle, 0.95)),
      goal: `added p95 ${fmt(q(busy, 0.95) - q(idle, 0.5), 1)} ms`,
      met: null,
    });

    // One long request: parallel encoding against the previous serial encoding (same run, a
    // restart with ENGINE_ENCODING=serial) and against the native pipeline.
    const long = async (srv: Server) => {
      const c0 = procCpuSeconds(srv.pid);
      const t = await tts(srv.url, key, LONG_TEXT, false);
      const cpu = procCpuSeconds(srv.pid) - c0;
      return { ms: t.total, cores: cpu / (t.total / 1000) };
    };
    const parallel = [await long(s), await long(s), await long(s)];
    await s.stop();
    server = undefined;
    const serialStart = await startServer(dataDir, { ENGINE_ENCODING: "serial" });
    server = serialStart.server;
    const serial = [await long(server), await long(server), await long(server)];
    await server.stop();
    server = undefined;
    const nativeLong = [await base.run(LONG_TEXT), await base.run(LONG_TEXT), await base.run(LONG_TEXT)].map((t) => t.total);
    const pMs = parallel.map((r) => r.ms);
    const sMs = serial.map((r) => r.ms);
    row({
      figure: `one ${LONG_TEXT.length.toLocaleString("en-US")}-character \`/convert\` (n=3; cores busy)`,
      timbre: `${spread(pMs, 0, " ms")}, ${fmt(q(parallel.map((r) => r.cores), 0.5), 2)} cores`,
      baseline: `serial encoding ${spread(sMs, 0, " ms")}, ${fmt(q(serial.map((r) => r.cores), 0.5), 2)} cores`,
      ratio: ratio(q(pMs, 0.5), q(sMs, 0.5)),
      goal: "≤ 0.6× serial",
      met: q(pMs, 0.5) / q(sMs, 0.5) <= 0.6,
    });
    row({ figure: "the same long request against the baseline", timbre: spread(pMs, 0, " ms"), baseline: spread(nativeLong, 0, " ms"), ratio: ratio(q(pMs, 0.5), q(nativeLong, 0.5)), goal: "", met: null });
  } finally {
    await server?.stop();
    await base.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  await resamplerFigures();
  if (!flag("skip-lambda")) lambdaFigures();
  let library: LibraryFigures | undefined;
  if (!flag("skip-library")) library = await benchSharedVoices();
  if (library) {
    row({
      figure: "`GET /v1/shared-voices`, language + gender + age over 10,000 voices (baseline: unfiltered first page)",
      timbre: `p50 ${fmt(library.filteredP50, 1)} ms, p95 ${fmt(library.filteredP95, 1)} ms`,
      baseline: `p50 ${fmt(library.baselineP50, 1)} ms`,
      ratio: ratio(library.filteredP50, library.baselineP50),
      goal: "p50 ≤ 20 ms",
      met: library.filteredP50 <= 20,
    });
  }
  let similar: SimilarFigures | undefined;
  if (!flag("skip-library")) similar = await benchSimilarVoices();
  if (similar) {
    row({
      figure: "`POST /v1/similar-voices-by-id` over 10,000 library embeddings, top 10 (baseline: `GET /v1/shared-voices/{id}` of one listing)",
      timbre: `p50 ${fmt(similar.p50, 1)} ms, p95 ${fmt(similar.p95, 1)} ms`,
      baseline: `p50 ${fmt(similar.baselineP50, 1)} ms`,
      ratio: ratio(similar.p50, similar.baselineP50),
      goal: "p50 ≤ 50 ms",
      met: similar.p50 <= 50,
    });
  }
  let sts: StsBenchFigures | undefined;
  if (!flag("skip-sts")) sts = await benchSpeechToSpeech();
  if (sts) {
    row({
      figure: `speech to speech real-time factor, ${fmt(sts.inputSeconds)} s input, \`mp3_44100_128\` (baseline: the bare conversion on one thread, no HTTP or codecs)`,
      timbre: fmt(sts.conversionRtf, 3),
      baseline: fmt(sts.bareConversionRtf, 3),
      ratio: ratio(sts.conversionRtf, sts.bareConversionRtf),
      goal: "≤ 0.2",
      met: sts.conversionRtf <= 0.2,
    });
    row({
      figure: "`/v1/speech-to-speech/{id}/stream` time to first audio byte, upload included: p50 / p95 (baseline: text to speech `/stream`, 1k characters)",
      timbre: `${fmt(sts.streamTtfbP50Ms)} / ${fmt(sts.streamTtfbP95Ms)} ms`,
      baseline: `${fmt(sts.ttsTtfbP50Ms)} ms`,
      ratio: ratio(sts.streamTtfbP50Ms, sts.ttsTtfbP50Ms),
      goal: "p50 ≤ 500 ms",
      met: sts.streamTtfbP50Ms <= 500,
    });
    row({
      figure: `voice isolator real-time factor, ${fmt(sts.inputSeconds)} s input (baseline: RNNoise alone on one thread)`,
      timbre: fmt(sts.isolationRtf, 3),
      baseline: fmt(sts.bareRnnoiseRtf, 3),
      ratio: ratio(sts.isolationRtf, sts.bareRnnoiseRtf),
      goal: "≤ 0.1",
      met: sts.isolationRtf <= 0.1,
    });
  }

  const baselineName = hasNative ? "native espeak-ng + ffmpeg (or as named)" : "Timbre's engine in process (no native anchor here), or as named";
  console.log(`\nload average at the end: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  console.log("\n--- paste into the README ---\n");
  console.log(`Measured ${date} on ${machine} by \`npm run bench\` (one run; load average ${startLoad.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end). Ranges are min–max of the repeats.\n`);
  console.log(`| Figure | Timbre | ${baselineName} | Ratio | Goal | |`);
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.figure} | ${r.timbre} | ${r.baseline} | ${r.ratio} | ${r.goal} | ${r.met === null ? "" : r.met ? "met" : "**not met**"} |`);
}

const only = option("only");
/** `--only=<name>` runs one part on its own stack. */
const parts: Record<string, () => Promise<unknown>> = {
  "shared-voices": benchSharedVoices,
  "similar-voices": benchSimilarVoices,
  sts: benchSpeechToSpeech,
  "voice-creation": benchVoiceCreation,
  pvc: () => benchPvc(),
  "pvc-upload": () => benchPvc({ uploadOnly: true, rounds: Number(option("rounds") ?? 3) }),
  resample: async () => {
    await resamplerFigures();
  },
  lambda: async () => lambdaFigures(),
  engines: () => benchEngines(Number(option("runs") ?? 10)),
};
(only ? (parts[only] ?? (() => Promise.reject(new Error(`--only: one of ${Object.keys(parts).join(", ")}`))))() : main())
  .catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });

