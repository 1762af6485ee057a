import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../../infra/local/stack.js";
import { createTestAccount, insertOwnVoice, startTestStack } from "../../../test/support/stack.js";
import { speechWav } from "../../../test/pvc/support.js";
import { EspeakEngine } from "../../media/engine/espeak/engine.js";
import { premadeVoices } from "../../media/voice-analysis/fixtures/voices.js";
import { newId } from "../../platform/adapters/ids.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import type { VoiceSampleRecord } from "../../platform/stores/voices.js";
import { fitRun, prepareSample, runFolder } from "./train.js";

/**
 * A retrain of unchanged samples takes the earlier run's analysis and fit (reuse.ts) and ends
 * with the same voice; a changed trim is analysed and fitted again; another voice with the same
 * bytes does not read this voice's results. Calls the workflow's steps directly, as the workflow does.
 */
const MODEL = "eleven_multilingual_v2";
let stack: EmbeddedStack;
let wav: Uint8Array;

beforeAll(async () => {
  const engine = new EspeakEngine();
  try {
    wav = await speechWav(engine, premadeVoices().find((v) => v.name === "Marcus")!.profile, 12, 3);
  } finally {
    await engine.close();
  }
  stack = await startTestStack();
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

async function voiceWithSample() {
  const acct = await createTestAccount(stack, "creator");
  const ws = acct.workspace.workspace_id;
  const sampleId = newId();
  const objectKey = workspaceKey(ws, "voices", "samples", `${sampleId}.wav`);
  await stack.ctx.blobs.put(objectKey, wav, "audio/wav");
  const sample: VoiceSampleRecord = {
    sample_id: sampleId,
    file_name: "reading.wav",
    mime_type: "audio/wav",
    size_bytes: wav.byteLength,
    hash: createHash("sha256").update(wav).digest("hex"),
    duration_secs: 12,
    object_key: objectKey,
    remove_background_noise: false,
    isolated_object_key: null,
    trim_start: null,
    trim_end: null,
    speaker_separation: null,
    created_at_unix: Math.floor(Date.now() / 1000),
  };
  const voice = await insertOwnVoice(stack, ws, acct.user.user_id, "Reader", { category: "professional", samples: [sample] });
  return { ws, voiceId: voice.voice_id, sampleId };
}

async function train(ws: string, voiceId: string, sampleId: string, run: string) {
  const r = { workspace_id: ws, voice_id: voiceId, model_id: MODEL, run_id: run };
  const cpu = process.cpuUsage();
  const sample = await prepareSample(stack.ctx, { ...r, sample_id: sampleId, total: 1 });
  const fitted = await fitRun(stack.ctx, { ...r, sample_ids: [sampleId] });
  const used = process.cpuUsage(cpu);
  // Reported, not asserted (docs/decisions/2026-12-07-suite-cpu.md): this process' CPU, its worker threads included.
  console.log(`run ${run} of ${voiceId}: ${((used.user + used.system) / 1e6).toFixed(2)} s of CPU, sample reused ${sample.reused}, fit reused ${fitted.reused_fit}`);
  const folder = runFolder(ws, voiceId, MODEL, run);
  const text = async (key: string) => Buffer.from((await stack.ctx.blobs.getBytes(key))!.bytes).toString("utf8");
  const voice = (await stack.ctx.stores.voices.get(ws, voiceId))!;
  return {
    sample,
    fitted,
    analysis: JSON.parse(await text(`${folder}/analysis/${sampleId}.json`)) as unknown,
    dataset: (await stack.ctx.blobs.getBytes(`${folder}/dataset/${sampleId}.wav`))!.bytes,
    profile: JSON.parse(await text(`${folder}/profile.json`)) as unknown,
    voiceProfile: voice.profile,
    state: voice.fine_tuning.state[MODEL],
  };
}

describe("fine-tuning the same samples again", () => {
  it("reuses the analysis and the fit of unchanged samples, and redoes them when the trim changes", async () => {
    const { ws, voiceId, sampleId } = await voiceWithSample();
    const first = await train(ws, voiceId, sampleId, "1");
    expect(first.sample.reused).toBe(false);
    expect(first.fitted.reused_fit).toBe(false);
    expect(first.state).toBe("fine_tuned");

    // A retrain: nothing changed, so nothing is analysed or fitted again, and the result is the same.
    const second = await train(ws, voiceId, sampleId, "2");
    expect(second.sample.reused).toBe(true);
    expect(second.fitted.reused_fit).toBe(true);
    expect(second.sample.seconds).toBe(first.sample.seconds);
    expect(second.analysis).toEqual(first.analysis);
    expect(Buffer.from(second.dataset).equals(Buffer.from(first.dataset))).toBe(true);
    expect(second.profile).toEqual(first.profile);
    expect(second.voiceProfile).toEqual(first.voiceProfile);
    expect(second.fitted.similarity).toBe(first.fitted.similarity);
    expect(second.state).toBe("fine_tuned");

    // A new trim is new input: analysed and fitted again, on the shorter audio.
    const v = (await stack.ctx.stores.voices.get(ws, voiceId))!;
    await stack.ctx.stores.voices.patch(ws, voiceId, { samples: v.samples.map((s) => ({ ...s, trim_start: 2000 })) });
    const third = await train(ws, voiceId, sampleId, "3");
    expect(third.sample.reused).toBe(false);
    expect(third.fitted.reused_fit).toBe(false);
    expect(third.sample.seconds).toBeLessThan(first.sample.seconds);
  }, 180_000);

  it("keeps each voice's results to itself: another voice with the same bytes analyses them", async () => {
    const a = await voiceWithSample();
    expect((await train(a.ws, a.voiceId, a.sampleId, "1")).sample.reused).toBe(false);
    const b = await voiceWithSample();
    const other = await train(b.ws, b.voiceId, b.sampleId, "1");
    expect(other.sample.reused).toBe(false);
    expect(other.fitted.reused_fit).toBe(false);
  }, 180_000);
});
