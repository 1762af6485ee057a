import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseConfig } from "../../functions/platform/config.js";
import { startEmbedded } from "../../infra/local/stack.js";
import { createAccount, createApiKey } from "../../functions/platform/domain/accounts.js";
import { createLogger } from "../../functions/platform/adapters/log.js";
import { EMULATOR_KEY_HEADER } from "../../functions/platform/adapters/aws.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { floatToInt16 } from "../../functions/media/audio/resample.js";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { premadeVoices } from "../../functions/media/voice-analysis/fixtures/voices.js";
import { HELD_OUT_LINES, distinctHeldOutPairs, makeConversation } from "../../functions/media/separation/fixtures/conversation.js";
import { speech } from "../../test/pvc/support.js";

/**
 * Professional voice cloning on an in-process embedded stack of its own (`npm run bench --
 * --only=pvc`), issue 11's figures:
 * - a presigned upload of a 100 MB file through the product's origin (`/storage/…`: signature,
 *   expiry and length checked before the bytes reach the store), against a plain PUT of the same
 *   bytes to the same store through the AWS SDK, in the same run;
 * - speaker separation of about 10 minutes of a two-speaker conversation through the API and the
 *   workflow, and fine-tuning on 30 minutes of samples;
 * - `GET /v1/voices` p95 while each of these runs, against the idle server.
 * Prints rows in the README's table format. Asserts nothing. `uploadOnly` (`--only=pvc-upload`,
 * with `--rounds=N`, default 3) runs the upload figure alone and prints every round's ratio.
 */
const q = (v: number[], p: number) => (v.length ? [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(p * v.length))]! : NaN);
const ms = (x: number) => `${x.toFixed(1)} ms`;

export async function benchPvc(opts: { uploadOnly?: boolean; rounds?: number } = {}): Promise<void> {
  const startLoad = loadavg()[0];
  const stack = await startEmbedded({ config: parseConfig({ PORT: "0", LOG_LEVEL: "error" }), web: false, log: createLogger("error") });
  const engine = new EspeakEngine();
  const rows: string[] = [];
  try {
    const { user, workspace } = await createAccount(stack.ctx, { email: `bench-pvc-${Date.now()}@example.test`, password: "bench password", tier: "business" });
    const { value: key } = await createApiKey(stack.ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "bench" });
    const call = async (path: string, init: RequestInit = {}) => {
      const r = await fetch(`${stack.url}${path}`, { ...init, headers: { "xi-api-key": key, ...(typeof init.body === "string" ? { "content-type": "application/json" } : {}), ...(init.headers ?? {}) } });
      if (!r.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${r.status} ${await r.text()}`);
      return r;
    };
    /** `GET /v1/voices` every 50 ms until `work` settles: the API's latency while it runs. */
    const loopDelay: Record<string, number[]> = {};
    const listDuring = async (work: Promise<unknown>, phase = "other"): Promise<number[]> => {
      const times: number[] = [];
      // The server runs in this process: how long its loop was held, beside the API's latency.
      const h = monitorEventLoopDelay({ resolution: 10 });
      h.enable();
      let done = false;
      void work.finally(() => (done = true)).catch(() => undefined);
      while (!done) {
        const t = performance.now();
        await (await call("/v1/voices")).arrayBuffer();
        times.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
      await work;
      h.disable();
      (loopDelay[phase] ??= []).push(h.max / 1e6);
      return times;
    };
    const newVoice = async (name: string) => ((await (await call("/v1/voices/pvc", { method: "POST", body: JSON.stringify({ name, language: "en" }) })).json()) as { voice_id: string }).voice_id;

    await stack.engineReady;
    await stack.previewsReady;
    for (let i = 0; i < 5; i++) await call("/v1/voices");
    const idle = await listDuring(new Promise((r) => setTimeout(r, 3000)), "idle");
    console.log(`GET /v1/voices idle: p50 ${ms(q(idle, 0.5))} p95 ${ms(q(idle, 0.95))} (n=${idle.length})`);

    // 1. A 100 MB WAV (about 52 minutes of 16 kHz speech, one reading repeated), uploaded the way the wizard does.
    const reading = await speech(engine, premadeVoices().find((v) => v.name === "Marcus")!.profile, 40, 41);
    const frames = Math.floor((100 * 1024 * 1024 - 44) / 2);
    const long = new Float32Array(frames);
    for (let at = 0; at < frames; at += reading.length) long.set(reading.subarray(0, Math.min(reading.length, frames - at)), at);
    const file = encodeWav(floatToInt16(long), 16_000);
    const uploadVoice = await newVoice("Bench upload");
    const presigned: number[] = [];
    const plain: number[] = [];
    const busyUpload: number[] = [];
    const busyPlain: number[] = [];
    // The server's CPU time (this process: the origin, the store, the API answering the probes) per upload.
    const cpu: Record<"plain" | "presigned", number[]> = { plain: [], presigned: [] };
    const cpuOf = async <T>(which: "plain" | "presigned", work: Promise<T>) => {
      const before = process.cpuUsage();
      const out = await work;
      const d = process.cpuUsage(before);
      cpu[which].push((d.user + d.system) / 1000);
      return out;
    };
    // The client runs in a process of its own, as a browser would: the server's loop is measured alone.
    const dir = mkdtempSync(join(tmpdir(), "bench-pvc-"));
    const path = join(dir, "long.wav");
    writeFileSync(path, file);
    const client = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./bench-put-client.ts", import.meta.url)), path], { stdio: ["pipe", "pipe", "inherit"] });
    const answers = createInterface({ input: client.stdout! })[Symbol.asyncIterator]();
    const next = async () => JSON.parse(((await answers.next()).value as string | undefined) ?? "{}") as { ready?: boolean; ms?: number };
    await next();
    const send = async (puts: Array<{ url: string; headers: Record<string, string>; from: number; to: number }>) => {
      client.stdin!.write(JSON.stringify({ puts }) + "\n");
      const { ms } = await next();
      if (ms === undefined) throw new Error("the upload client stopped");
      return ms;
    };
    try {
      for (let round = 0; round < (opts.rounds ?? 3); round++) {
        // The baseline: the same client sends the same file in one plain PUT to the same store
        // (the embedded S3 on loopback, with the run's key the store requires).
        const plainKey = `bench/plain-${round}.wav`;
        busyPlain.push(...(await cpuOf("plain", listDuring(send([{ url: `${stack.endpoints.s3}/${stack.ctx.blobs.bucket}/${plainKey}`, headers: { "content-type": "audio/wav", [EMULATOR_KEY_HEADER]: stack.endpoints.key }, from: 0, to: file.length }]).then((ms) => plain.push(ms)), "plain PUT"))));
        await stack.ctx.blobs.deleteMany([plainKey]);

        const ticket = (await (await call(`/v1/voices/pvc/${uploadVoice}/uploads`, { method: "POST", body: JSON.stringify({ file_name: `long-${round}.wav`, content_type: "audio/wav", size_bytes: file.length }) })).json()) as {
          upload_id: string;
          kind: "single" | "multipart";
          url: string | null;
          headers: Record<string, string>;
          parts: Array<{ url: string; size_bytes: number; headers: Record<string, string> }>;
        };
        let offset = 0;
        const puts = ticket.kind === "single" ? [{ url: ticket.url!, headers: ticket.headers, from: 0, to: file.length }] : ticket.parts.map((p) => ({ url: p.url, headers: p.headers, from: offset, to: (offset += p.size_bytes) }));
        busyUpload.push(...(await cpuOf("presigned", listDuring(send(puts).then((ms) => presigned.push(ms)), "presigned upload"))));
        // Not kept: the figure is the transfer; completing would add 52 minutes of audio to process.
        await call(`/v1/voices/pvc/${uploadVoice}/uploads/${ticket.upload_id}`, { method: "DELETE" });
      }
    } finally {
      client.stdin!.end();
      rmSync(dir, { recursive: true, force: true });
    }
    const mbps = (x: number) => (100 / (x / 1000)).toFixed(0);
    const pMed = q(presigned, 0.5);
    const bMed = q(plain, 0.5);
    rows.push(`| presigned upload of a 100 MB file through the embedded origin (parts of 16 MB, n=${presigned.length}; baseline: the same client's plain PUT of the same file to the same store) | ${mbps(pMed)} MB/s (${(pMed / 1000).toFixed(2)} s) | ${mbps(bMed)} MB/s (${(bMed / 1000).toFixed(2)} s) | ${(bMed / pMed).toFixed(2)}× throughput | ≥ 0.8× | ${bMed / pMed >= 0.8 ? "met" : "**not met**"} |`);

    if (opts.uploadOnly) {
      console.log(`rounds: presigned ${presigned.map((x) => (x / 1000).toFixed(2)).join(" ")} s; plain ${plain.map((x) => (x / 1000).toFixed(2)).join(" ")} s; ratios ${plain.map((b, i) => (b / presigned[i]!).toFixed(2)).join(" ")}`);
      console.log(`server CPU per upload: presigned ${cpu.presigned.map((x) => x.toFixed(0)).join(" ")} ms; plain ${cpu.plain.map((x) => x.toFixed(0)).join(" ")} ms`);
      console.log(`longest event-loop delay of the server: ${Object.entries(loopDelay).map(([k, v]) => `${k} ${Math.max(...v).toFixed(0)} ms`).join(", ")}; load average ${startLoad.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} now`);
      console.log(rows[0]);
      return;
    }

    // 2. Separation of about 10 minutes of a two-speaker conversation, through the API and the workflow.
    const [a, b] = distinctHeldOutPairs().find(([x, y]) => x.gender !== y.gender)!;
    const once = await makeConversation(engine, [a, b], HELD_OUT_LINES, { seed: 7 });
    const rounds = Math.max(1, Math.round((10 * 60 * 16_000) / once.samples.length));
    const conversation = rounds === 1 ? once : await makeConversation(engine, [a, b], HELD_OUT_LINES, { seed: 7, rounds });
    const minutes = conversation.samples.length / 16_000 / 60;
    const sepVoice = await newVoice("Bench separation");
    const form = new FormData();
    form.append("files", new Blob([Buffer.from(encodeWav(floatToInt16(conversation.samples), 16_000))], { type: "audio/wav" }), "conversation.wav");
    const added = (await (await call(`/v1/voices/pvc/${sepVoice}/samples`, { method: "POST", body: form })).json()) as Array<{ sample_id: string }>;
    const sampleId = added[0]!.sample_id;
    let t = performance.now();
    const separation = (async () => {
      await call(`/v1/voices/pvc/${sepVoice}/samples/${sampleId}/separate-speakers`, { method: "POST" });
      for (;;) {
        const s = (await (await call(`/v1/voices/pvc/${sepVoice}/samples/${sampleId}/speakers`)).json()) as { status: string; speakers: Record<string, unknown> | null };
        if (s.status !== "pending") return s;
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const busySeparation = await listDuring(separation, "separation");
    const sepSeconds = (performance.now() - t) / 1000;
    const sep = await separation;
    rows.push(`| speaker separation of ${minutes.toFixed(1)} min of a two-speaker conversation, through the API and the workflow | ${sepSeconds.toFixed(1)} s (${sep.status}, ${Object.keys(sep.speakers ?? {}).length} speakers) | n/a | n/a | ≤ 60 s | ${sepSeconds <= 60 && sep.status === "completed" ? "met" : "**not met**"} |`);

    // 3. Fine-tuning on 30 minutes: six five-minute samples of one voice.
    const ftVoice = await newVoice("Bench fine-tuning");
    const voice = premadeVoices().find((v) => v.name === "Marcus")!.profile;
    for (let i = 0; i < 6; i++) {
      const f = new FormData();
      f.append("files", new Blob([Buffer.from(encodeWav(floatToInt16(await speech(engine, voice, 300, 100 + i)), 16_000))], { type: "audio/wav" }), `part-${i}.wav`);
      await call(`/v1/voices/pvc/${ftVoice}/samples`, { method: "POST", body: f });
    }
    t = performance.now();
    const training = (async () => {
      await call(`/v1/voices/pvc/${ftVoice}/train`, { method: "POST", body: JSON.stringify({ model_id: "eleven_multilingual_v2" }) });
      for (;;) {
        const v = (await (await call(`/v1/voices/${ftVoice}`)).json()) as { fine_tuning: { state: Record<string, string> } };
        const state = v.fine_tuning.state.eleven_multilingual_v2;
        if (state === "fine_tuned" || state === "failed") return state;
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const busyTraining = await listDuring(training, "fine-tuning");
    const ftSeconds = (performance.now() - t) / 1000;
    const state = await training;
    rows.push(`| fine-tuning on 30 min of samples, through the API and the workflow | ${ftSeconds.toFixed(0)} s (${state}) | n/a | n/a | ≤ 5 min | ${ftSeconds <= 300 && state === "fine_tuned" ? "met" : "**not met**"} |`);

    const p95 = (x: number[]) => q(x, 0.95);
    const worst = Math.max(p95(busyUpload), p95(busySeparation), p95(busyTraining));
    rows.push(
      `| \`GET /v1/voices\` p95 while these run: presigned upload / separation / fine-tuning (baseline: idle, p95; during the plain PUT ${ms(p95(busyPlain))}) | ${ms(p95(busyUpload))} / ${ms(p95(busySeparation))} / ${ms(p95(busyTraining))} (n=${busyUpload.length}/${busySeparation.length}/${busyTraining.length}) | ${ms(p95(idle))} | ${(worst / p95(idle)).toFixed(2)}× (worst) | p95 < 50 ms | ${worst < 50 ? "met" : "**not met**"} |`,
    );
    console.log(`longest event-loop delay of the server per phase: ${Object.entries(loopDelay).map(([k, v]) => `${k} ${Math.max(...v).toFixed(0)} ms`).join(", ")}`);
  } finally {
    await engine.close();
    await stack.close();
  }
  const machine = `${(await import("node:os")).cpus().length} cores`;
  console.log(`\nMeasured ${new Date().toISOString().slice(0, 10)} on ${machine} by \`npm run bench -- --only=pvc\` (one run; load average ${startLoad.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end).\n`);
  console.log("| Figure | Timbre | Baseline | Ratio | Goal | |");
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) console.log(r);
}
