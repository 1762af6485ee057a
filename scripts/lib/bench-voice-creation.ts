import { availableParallelism } from "node:os";
import { parseConfig } from "../../functions/config.js";
import { startEmbedded } from "../../infra/local/stack.js";
import { createAccount, createApiKey } from "../../functions/domain/accounts.js";
import { createLogger } from "../../functions/adapters/log.js";
import { encodeWav } from "../../functions/audio/wav.js";
import { floatToInt16 } from "../../functions/audio/resample.js";
import { profileFromLabels } from "../../functions/engine/espeak/voices.js";
import { speakPcm } from "../../functions/voice-clone/render.js";
import { PASSAGES } from "../../functions/voice-analysis/fixtures/texts.js";

/**
 * Voice creation on an in-process stack of its own (`npm run bench -- --only=voice-creation`):
 * a design call (3 previews of 100 characters), an instant clone from 60 s of samples, a
 * verification decision for a 10 s recording, and what each adds to `GET /v1/voices` running
 * beside it (against the idle server in the same run). Asserts nothing.
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

const PREVIEW_TEXT = "The quick brown fox jumps over the lazy dog, then rests by the river bank until the golden evening light fades.";
const SPEAKER = profileFromLabels({ language: "en", gender: "female", age: "middle_aged" }, 515_151);

export async function benchVoiceCreation(): Promise<VoiceCreationFigures> {
  const stack = await startEmbedded({ config: parseConfig({ PORT: "0", LOG_LEVEL: "error" }), web: false, log: createLogger("error") });
  try {
    const { user, workspace } = await createAccount(stack.ctx, { email: `bench-create-${Date.now()}@example.test`, password: "bench password", tier: "creator" });
    const { value: key } = await createApiKey(stack.ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "bench" });
    const call = async (path: string, init: RequestInit = {}) => {
      const t = performance.now();
      const r = await fetch(`${stack.url}${path}`, { ...init, headers: { "xi-api-key": key, ...(init.headers ?? {}) } });
      const body = await r.arrayBuffer();
      return { ms: performance.now() - t, status: r.status, body };
    };
    const json = (b: ArrayBuffer) => JSON.parse(Buffer.from(b).toString("utf8")) as Record<string, unknown>;

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
    const idle = await listDuring(new Promise((r) => setTimeout(r, 3000)));

    const busy: number[] = [];
    const beside = { design: [] as number[], clone: [] as number[], verification: [] as number[] };
    const design: number[] = [];
    const seedBase = 700;
    if (PREVIEW_TEXT.length < 100) throw new Error("preview text under 100 characters");
    for (let i = 0; i < 6; i++) {
      const body = JSON.stringify({ voice_description: "a warm, calm middle-aged woman with a low voice", text: PREVIEW_TEXT, seed: seedBase + i, model_id: "eleven_multilingual_ttv_v2" });
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
      const { samples, sampleRate } = await speakPcm(stack.ctx, SPEAKER, `${texts[k % texts.length]} ${texts[(k + 1) % texts.length]}`, { seed: 30 + k });
      const take = Math.min(samples.length, Math.round((60 - seconds) * sampleRate));
      if (take < 5 * sampleRate && files.length) break;
      files.push(encodeWav(floatToInt16(samples.subarray(0, take)), sampleRate));
      seconds += take / sampleRate;
    }
    const clone: number[] = [];
    // CPU seconds of the whole process (request loop and every worker thread) per clone: on a
    // shared machine the wall time depends on the load, this much less.
    const cloneCpu: number[] = [];
    let voiceId = "";
    for (let i = 0; i < 4; i++) {
      const form = new FormData();
      form.append("name", `Bench clone ${i}`);
      files.forEach((f, k) => form.append("files", new Blob([new Uint8Array(f)], { type: "audio/wav" }), `sample-${k}.wav`));
      const cpu = process.cpuUsage();
      const run = call("/v1/voices/add", { method: "POST", body: form });
      const times = await listDuring(run);
      const r = await run;
      const used = process.cpuUsage(cpu);
      if (r.status !== 200) throw new Error(`clone: ${r.status} ${Buffer.from(r.body).toString()}`);
      voiceId = json(r.body).voice_id as string;
      if (i > 0) {
        clone.push(r.ms);
        cloneCpu.push((used.user + used.system) / 1000);
        busy.push(...times); beside.clone.push(...times);
      }
    }

    // A 10 s recording of the sentence asked for (the speaker, padded with silence); up to 5 attempts per voice.
    const verify: number[] = [];
    for (let i = 0; i < 4; i++) {
      const state = json((await call(`/v1/voices/${voiceId}/verification`)).body);
      const reading = await speakPcm(stack.ctx, SPEAKER, state.text as string, { seed: 90 + i });
      const ten = new Float32Array(10 * reading.sampleRate);
      ten.set(reading.samples.subarray(0, ten.length), Math.round(0.5 * reading.sampleRate));
      const form = new FormData();
      form.append("recording", new Blob([new Uint8Array(encodeWav(floatToInt16(ten), reading.sampleRate))], { type: "audio/wav" }), "recording.wav");
      const run = call(`/v1/voices/${voiceId}/verification?wait=30`, { method: "POST", body: form });
      const times = await listDuring(run);
      const r = await run;
      if (r.status === 202) throw new Error("verification: no decision within 30 s");
      verify.push(r.ms);
      busy.push(...times); beside.verification.push(...times);
      if (r.status === 200) break;
    }

    const figures = { designP50Ms: q(design, 0.5), cloneP50Ms: q(clone, 0.5), cloneCpuP50Ms: q(cloneCpu, 0.5), verifyP50Ms: q(verify, 0.5), listIdleP95Ms: q(idle, 0.95), listBusyP95Ms: q(busy, 0.95) };
    console.log(`\nvoice creation (in process, ${files.length} files, ${seconds.toFixed(1)} s of samples):`);
    console.log(`  design, 3 previews of ${PREVIEW_TEXT.length} characters: p50 ${f0(figures.designP50Ms)} ms (${design.map(f0).join(", ")}) goal <= 1500 ms`);
    console.log(`  clone from 60 s: p50 ${f0(figures.cloneP50Ms)} ms (${clone.map(f0).join(", ")}) goal <= 3000 ms; CPU p50 ${f0(figures.cloneCpuP50Ms)} ms (${cloneCpu.map(f0).join(", ")}) on ${availableParallelism()} cores`);
    console.log(`  verification decision, 10 s recording: p50 ${f0(figures.verifyP50Ms)} ms (${verify.map(f0).join(", ")}) goal <= 2000 ms`);
    console.log(`  GET /v1/voices p95: idle ${f0(figures.listIdleP95Ms)} ms, beside the calls above ${f0(figures.listBusyP95Ms)} ms (added ${f0(figures.listBusyP95Ms - figures.listIdleP95Ms)} ms, goal <= 20 ms; beside ${Object.entries(beside).map(([k, v]) => `${k} ${f0(q(v, 0.95))}`).join(", ")})`);
    return figures;
  } finally {
    await stack.close();
  }
}
