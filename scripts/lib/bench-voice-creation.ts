import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { PASSAGES } from "../../functions/media/voice-analysis/fixtures/texts.js";
import { ensureServerBundle } from "./server-bundle.mjs";
import { procCpuSeconds, seedUser, sleep, startServer, VOICE } from "./bench-server.js";

/**
 * Voice creation against the product as `npm start` runs it, in a process of its own with a fresh
 * data folder (`npm run bench -- --only=voice-creation`); this process is only its client: a
 * design call (3 previews of 100 characters), an instant clone from 60 s of samples, a
 * verification decision for a 10 s recording, and what each adds to `GET /v1/voices` running
 * beside it (against the idle server in the same run). The samples and the readings are one
 * premade voice's speech from the server's own text to speech. Asserts nothing.
 */
const q = (v: number[], p: number) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(p * v.length))];
const f0 = (x: number) => x.toFixed(0);

export interface VoiceCreationFigures {
  designP50Ms: number;
  cloneP50Ms: number;
  cloneCpuP50Ms: number;
  verifyP50Ms: number;
  listIdleP95Ms: number;
  listBusyP95Ms: number;
}

const PCM_RATE = 22_050;
const PREVIEW_TEXT = "The quick brown fox jumps over the lazy dog, then rests by the river bank until the golden evening light fades.";

export async function benchVoiceCreation(): Promise<VoiceCreationFigures> {
  await ensureServerBundle();
  const dataDir = mkdtempSync(join(tmpdir(), "timbre-bench-create-"));
  const { server } = await startServer(dataDir);
  try {
    // The first start synthesises the premade voices' previews in the background: not measured.
    const waitStart = performance.now();
    while (!/previews ready/.test(server.output()) && performance.now() - waitStart < 600_000) await sleep(250);
    const key = seedUser(dataDir, `bench-create-${Date.now()}@example.test`, "creator").apiKey;
    const call = async (path: string, init: RequestInit = {}) => {
      const t = performance.now();
      const r = await fetch(`${server.url}${path}`, { ...init, headers: { "xi-api-key": key, ...(init.headers ?? {}) } });
      const body = await r.arrayBuffer();
      return { ms: performance.now() - t, status: r.status, body };
    };
    const json = (b: ArrayBuffer) => JSON.parse(Buffer.from(b).toString("utf8")) as Record<string, unknown>;
    /** The premade voice reading `text`: 16-bit PCM at PCM_RATE. */
    const speak = async (text: string, seed: number): Promise<Int16Array> => {
      const r = await call(`/v1/text-to-speech/${VOICE}?output_format=pcm_${PCM_RATE}`, { method: "POST", body: JSON.stringify({ text, seed }), headers: { "content-type": "application/json" } });
      if (r.status !== 200) throw new Error(`text to speech: ${r.status} ${Buffer.from(r.body).toString()}`);
      return new Int16Array(r.body.slice(0, r.body.byteLength - (r.body.byteLength % 2)));
    };

    // GET /v1/voices sampled every 50 ms while `work` runs (or alone, for the idle baseline).
    const listDuring = async (work: Promise<unknown>): Promise<number[]> => {
      const times: number[] = [];
      let done = false;
      void work.finally(() => (done = true));
      while (!done) {
        times.push((await call("/v1/voices")).ms);
        await new Promise((r) => setTimeout(r, 50));
      }
      return times;
    };
    for (let i = 0; i < 3; i++) await call("/v1/voices");
    // The idle baseline is sampled in windows between the calls, as long in all as the calls
    // themselves: the machine is shared and its load drifts, and the p95 of a few dozen samples
    // taken once moved by 10 ms from run to run.
    const idle: number[] = [];
    const idleFor = async (ms: number) => idle.push(...(await listDuring(new Promise((r) => setTimeout(r, ms)))));
    await idleFor(1000);

    const busy: number[] = [];
    const beside = { design: [] as number[], clone: [] as number[], verification: [] as number[] };
    const design: number[] = [];
    const seedBase = 700;
    if (PREVIEW_TEXT.length < 100) throw new Error("preview text under 100 characters");
    for (let i = 0; i < 6; i++) {
      const body = JSON.stringify({ voice_description: "a warm, calm middle-aged woman with a low voice", text: PREVIEW_TEXT, seed: seedBase + i, model_id: "eleven_multilingual_ttv_v2" });
      if (i > 0) await idleFor(300);
      const run = call("/v1/text-to-voice/design", { method: "POST", body, headers: { "content-type": "application/json" } });
      const times = await listDuring(run);
      const r = await run;
      if (r.status !== 200 || (json(r.body).previews as unknown[]).length !== 3) throw new Error(`design: ${r.status}`);
      if (i > 0) {
        design.push(r.ms);
        busy.push(...times); beside.design.push(...times);
      }
    }

    // 60 s of one speaker: four WAV files of about 15 s.
    const texts = PASSAGES.en.tuning.concat(PASSAGES.en.heldOut);
    const files: Uint8Array[] = [];
    let seconds = 0;
    for (let k = 0; seconds < 60; k++) {
      const samples = await speak(`${texts[k % texts.length]} ${texts[(k + 1) % texts.length]}`, 30 + k);
      const take = Math.min(samples.length, Math.round((60 - seconds) * PCM_RATE));
      if (take < 5 * PCM_RATE && files.length) break;
      files.push(encodeWav(samples.subarray(0, take), PCM_RATE));
      seconds += take / PCM_RATE;
    }
    const clone: number[] = [];
    // CPU seconds of the server's process (request loop and every worker thread) per clone: on a
    // shared machine the wall time depends on the load, this much less.
    const cloneCpu: number[] = [];
    let voiceId = "";
    for (let i = 0; i < 6; i++) {
      if (i > 0) await idleFor(2000);
      const form = new FormData();
      form.append("name", `Bench clone ${i}`);
      files.forEach((f, k) => form.append("files", new Blob([new Uint8Array(f)], { type: "audio/wav" }), `sample-${k}.wav`));
      const cpu = procCpuSeconds(server.pid);
      const run = call("/v1/voices/add", { method: "POST", body: form });
      const times = await listDuring(run);
      const r = await run;
      const used = procCpuSeconds(server.pid) - cpu;
      if (r.status !== 200) throw new Error(`clone: ${r.status} ${Buffer.from(r.body).toString()}`);
      voiceId = json(r.body).voice_id as string;
      if (i > 0) {
        clone.push(r.ms);
        cloneCpu.push(used * 1000);
        busy.push(...times); beside.clone.push(...times);
      }
    }

    // A 10 s recording of the sentence asked for (the speaker, padded with silence); up to 5 attempts per voice.
    const verify: number[] = [];
    for (let i = 0; i < 4; i++) {
      const state = json((await call(`/v1/voices/${voiceId}/verification`)).body);
      const reading = await speak(state.text as string, 90 + i);
      const ten = new Int16Array(10 * PCM_RATE);
      const lead = Math.round(0.5 * PCM_RATE);
      ten.set(reading.subarray(0, ten.length - lead), lead);
      const form = new FormData();
      form.append("recording", new Blob([new Uint8Array(encodeWav(ten, PCM_RATE))], { type: "audio/wav" }), "recording.wav");
      await idleFor(700);
      const run = call(`/v1/voices/${voiceId}/verification?wait=30`, { method: "POST", body: form });
      const times = await listDuring(run);
      const r = await run;
      if (r.status === 202) throw new Error("verification: no decision within 30 s");
      verify.push(r.ms);
      busy.push(...times); beside.verification.push(...times);
      if (r.status === 200) break;
    }

    const figures = { designP50Ms: q(design, 0.5), cloneP50Ms: q(clone, 0.5), cloneCpuP50Ms: q(cloneCpu, 0.5), verifyP50Ms: q(verify, 0.5), listIdleP95Ms: q(idle, 0.95), listBusyP95Ms: q(busy, 0.95) };
    console.log(`\nvoice creation (the server in its own process, ${files.length} files, ${seconds.toFixed(1)} s of samples):`);
    console.log(`  design, 3 previews of ${PREVIEW_TEXT.length} characters: p50 ${f0(figures.designP50Ms)} ms (${design.map(f0).join(", ")}) goal <= 1500 ms`);
    console.log(`  clone from 60 s: p50 ${f0(figures.cloneP50Ms)} ms (${clone.map(f0).join(", ")}) goal <= 3000 ms; CPU p50 ${f0(figures.cloneCpuP50Ms)} ms (${cloneCpu.map(f0).join(", ")}) on ${availableParallelism()} cores`);
    console.log(`  verification decision, 10 s recording: p50 ${f0(figures.verifyP50Ms)} ms (${verify.map(f0).join(", ")}) goal <= 2000 ms`);
    console.log(`  GET /v1/voices p95: idle ${f0(figures.listIdleP95Ms)} ms (n=${idle.length}, p50 ${f0(q(idle, 0.5))}), beside the calls above ${f0(figures.listBusyP95Ms)} ms (n=${busy.length}, p50 ${f0(q(busy, 0.5))}; added ${f0(figures.listBusyP95Ms - figures.listIdleP95Ms)} ms, goal <= 20 ms; beside ${Object.entries(beside).map(([k, v]) => `${k} ${f0(q(v, 0.95))}`).join(", ")})`);
    return figures;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
