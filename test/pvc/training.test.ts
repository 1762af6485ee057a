import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { premadeVoices } from "../../functions/media/voice-analysis/fixtures/voices.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { floatToInt16 } from "../../functions/media/audio/resample.js";
import { pvcMessages } from "../../functions/platform/contract/pvc.js";
import type { UploadTicket } from "../../functions/capabilities/pvc/uploads.js";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";
import { interview as interviewReading, speechWav } from "./support.js";

/**
 * The professional clone's way from samples to speech, through the official SDK unchanged (and
 * the presigned upload routes the wizard uses): about 12 minutes of samples uploaded by presigned
 * URL, a two-speaker sample separated and one speaker chosen, fine-tuning started, its state per
 * model watched until fine_tuned, then speech with the voice; a signed webhook arrives for the
 * end of each workflow. The workspace is on the Business plan, which skips the voice captcha
 * (the verification workflow is another branch's work).
 */
const MODEL = "eleven_multilingual_v2";
let stack: EmbeddedStack;
let engine: EspeakEngine;
let client: ElevenLabsClient;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
let receiver: Receiver;
let webhookSecret: string;

beforeAll(async () => {
  [stack, engine, receiver] = await Promise.all([startTestStack({ env: { WEBHOOK_ALLOW_LOCAL_TARGETS: "true" } }), new EspeakEngine(), startReceiver()]);
  acct = await createTestAccount(stack, "business");
  client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
  const hook = await client.webhooks.create({ settings: { authType: "hmac", name: "PVC", webhookUrl: receiver.url } });
  webhookSecret = hook.webhookSecret!;
}, 120_000);
afterAll(async () => {
  await engine?.close();
  await stack?.close();
  await receiver?.close();
});

const errorOf = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ElevenLabsError);
  const err = e as ElevenLabsError;
  return { status: err.statusCode, detail: (err.body as { detail: { status: string; message: string } }).detail };
};

/** What the wizard does for one file: ask for URLs, PUT the bytes (in parts when large), complete. */
async function upload(voiceId: string, bytes: Uint8Array, name: string): Promise<string> {
  const started = await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/uploads`, {
    method: "POST",
    body: JSON.stringify({ file_name: name, content_type: "audio/wav", size_bytes: bytes.byteLength }),
  });
  expect(started.status).toBe(200);
  const t = (await started.json()) as UploadTicket;
  if (t.kind === "single") {
    expect((await fetch(t.url!, { method: "PUT", body: Buffer.from(bytes), headers: t.headers })).status).toBe(200);
  } else {
    let at = 0;
    for (const p of t.parts) {
      expect((await fetch(p.url, { method: "PUT", body: Buffer.from(bytes.subarray(at, at + p.size_bytes)), headers: p.headers })).status).toBe(200);
      at += p.size_bytes;
    }
  }
  const done = await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/uploads/${t.upload_id}/complete`, { method: "POST" });
  expect(done.status, await done.clone().text()).toBe(200);
  return ((await done.json()) as { sample_id: string }).sample_id;
}

async function deliveredOf(type: string) {
  for (let i = 0; i < 100; i++) {
    for (const got of receiver.received) {
      const event = (await client.webhooks.constructEvent(got.body, got.headers["elevenlabs-signature"] as string, webhookSecret)) as { type: string; data: Record<string, unknown> };
      if (event.type === type) return event;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no ${type} delivery arrived`);
}

describe("professional clone: samples to speech", () => {
  it("uploads, separates, fine-tunes with watched states, speaks with the voice, and signs a webhook for each workflow's end", async () => {
    const narrator = premadeVoices().find((v) => v.name === "Marcus")!.profile;
    const files = [await speechWav(engine, narrator, 330, 31), await speechWav(engine, narrator, 300, 32), encodeWav(floatToInt16(await interviewReading(engine)), 16_000)];

    const { voiceId } = await client.voices.pvc.create({ name: "Narrator", language: "en", labels: { gender: "male" } });
    const [s1, s2, interview] = [await upload(voiceId, files[0], "chapter 1.wav"), await upload(voiceId, files[1], "chapter 2.wav"), await upload(voiceId, files[2], "interview.wav")];
    const listed = (await client.voices.get(voiceId)).samples!;
    expect(listed.map((s) => s.sampleId).sort()).toEqual([s1, s2, interview].sort());
    const minutes = listed.reduce((t, s) => t + (s.durationSecs ?? 0), 0) / 60;
    expect(minutes).toBeGreaterThan(11.5);

    // Speaker separation of the interview; the wizard polls, then one speaker is chosen.
    await client.voices.pvc.samples.speakers.separate(voiceId, interview);
    expect((await client.voices.pvc.samples.speakers.get(voiceId, interview)).status).toBe("pending");
    await stack.workflows.idle();
    const separated = await client.voices.pvc.samples.speakers.get(voiceId, interview);
    expect(separated.status).toBe("completed");
    expect(Object.keys(separated.speakers!)).toHaveLength(2);
    await client.voices.pvc.samples.update(voiceId, interview, { selectedSpeakerIds: ["speaker_0"] });
    const sepEvent = await deliveredOf("speaker_separation_finished");
    expect(sepEvent.data).toEqual({ voice_id: voiceId, sample_id: interview, status: "completed", speakers: 2 });

    // Before training, the voice speaks with no model.
    const untrained = await errorOf(client.textToSpeech.convert(voiceId, { text: "Hello there.", modelId: MODEL }));
    expect(untrained.detail.message).toBe(pvcMessages.voiceNotTunedFor("Narrator", MODEL));

    await client.voices.pvc.train(voiceId, { modelId: MODEL });
    const again = await errorOf(client.voices.pvc.train(voiceId, { modelId: MODEL }));
    expect(again.status).toBe(409);
    expect(again.detail).toMatchObject({ status: "fine_tuning_already_queued", message: pvcMessages.fineTuningAlreadyQueued });
    // While it tunes, the model cannot speak with the voice (the spec's warning).
    const busy = await errorOf(client.textToSpeech.convert(voiceId, { text: "Hello there.", modelId: MODEL }));
    expect(busy.detail.message).toBe(pvcMessages.voiceBeingTuned("Narrator", MODEL));

    // The state per model, as the wizard's Finish screen polls it.
    const seen: Array<{ state: string; progress: number }> = [];
    let idle = false;
    const finished = stack.workflows.idle().then(() => (idle = true));
    while (!idle) {
      const ft = (await client.voices.get(voiceId)).fineTuning!;
      seen.push({ state: String(ft.state![MODEL]), progress: Number(ft.progress?.[MODEL] ?? 0) });
      await Promise.race([finished, new Promise((r) => setTimeout(r, 500))]);
    }
    const ft = (await client.voices.get(voiceId)).fineTuning!;
    expect(ft.state![MODEL]).toBe("fine_tuned");
    const states = [...new Set(seen.map((s) => s.state))];
    expect(states.filter((s) => s !== "queued")[0]).toBe("fine_tuning");
    const progress = seen.filter((s) => s.state === "fine_tuning").map((s) => s.progress);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p > 0 && p < 1)).toBe(true);
    const v = await client.voices.get(voiceId);
    expect(v.highQualityBaseModelIds).toEqual([MODEL]);
    const tuned = await deliveredOf("fine_tuning_finished");
    expect(tuned.data).toMatchObject({ voice_id: voiceId, model_id: MODEL, state: "fine_tuned" });

    // The dataset quality report counts what training used: the chapters and one speaker of the interview.
    const report = await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/quality-report?model_id=${MODEL}`);
    expect(report.status).toBe(200);
    const r = (await report.json()) as { samples: number; total_duration_secs: number; per_sample: Array<{ sample_id: string; selected_speaker_ids: string[] | null; duration_secs: number }> };
    expect(r.samples).toBe(3);
    const partOfInterview = r.per_sample.find((s) => s.sample_id === interview)!;
    expect(partOfInterview.selected_speaker_ids).toEqual(["speaker_0"]);
    expect(partOfInterview.duration_secs).toBeCloseTo(separated.speakers!.speaker_0!.durationSecs!, 0);
    expect(r.total_duration_secs).toBeGreaterThan(630 + partOfInterview.duration_secs - 1);

    // And it speaks.
    const stream = await client.textToSpeech.convert(voiceId, { text: "The voice is ready.", modelId: MODEL, outputFormat: "mp3_44100_128" });
    const audio = Buffer.from(await new Response(stream).arrayBuffer());
    expect(audio.byteLength).toBeGreaterThan(4000);
    expect(audio.subarray(0, 3).toString("latin1") === "ID3" || audio[0] === 0xff).toBe(true);
  }, 900_000);
});
