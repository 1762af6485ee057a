import { afterAll, beforeAll, describe, expect, it, vi, type Mock } from "vitest";
import { createLogger, type Logger } from "../../functions/platform/adapters/log.js";
import { BlobStore, workspaceKey } from "../../functions/platform/adapters/s3.js";
import { loadDefinitions, renderDefinitions, validateWorkflows, type Definitions } from "../../infra/local/definitions.js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { LocalWorkflowRunner } from "../../infra/local/workflow-runner.js";
import { WORKFLOWS } from "../../workflows/index.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { floatToInt16 } from "../../functions/media/audio/resample.js";
import { premadeVoices } from "../../functions/media/voice-analysis/fixtures/voices.js";
import { HELD_OUT_LINES, distinctHeldOutPairs, makeConversation } from "../../functions/media/separation/fixtures/conversation.js";
import { diarizationErrorRate } from "../../functions/media/separation/der.js";
import { speakerAudioKey } from "../../functions/capabilities/pvc/samples.js";
import { runFolder } from "../../functions/capabilities/fine-tuning/train.js";
import type { DatasetQualityReport } from "../../functions/capabilities/fine-tuning/report.js";
import { pvcMessages } from "../../functions/platform/contract/pvc.js";
import { speechWav } from "../pvc/support.js";
import { blankFineTuning, blankVerification, type VoiceRecord } from "../../functions/platform/stores/voices.js";
import { profileFromLabels } from "../../functions/media/engine/espeak/voices.js";
import { speakPcm } from "../../functions/capabilities/voice-clone/render.js";
import { startReceiver } from "../webhooks/receiver.js";
import { encryptSecret } from "../../functions/capabilities/webhooks/secrets.js";
import { Table } from "../../functions/platform/stores/table.js";
import { isDeepStrictEqual } from "node:util";
import type { SynthesisRequest } from "../../functions/media/engine/port.js";
import { voiceVerificationSteps } from "../../functions/handlers/workflows/voiceVerification.js";

/**
 * Runs every workflow's ASL, rendered from the CDK constructs exactly as the embedded stack
 * renders it, on the local runner against a real embedded stack (dynalite + s3rver).
 */
let defs: Definitions;
let stack: EmbeddedStack;
let engine: EspeakEngine;

beforeAll(async () => {
  // The webhook-dispatch workflow delivers to a receiver on loopback.
  [defs, stack] = await Promise.all([renderDefinitions(), startTestStack({ env: { WEBHOOK_ALLOW_LOCAL_TARGETS: "true" } })]);
  engine = new EspeakEngine();
  // A stack and the rendered definitions: seconds alone, but past the default 60 s at load 12-20 (seen 13:28 and
  // 16:13 on 2026-12-07, the file then failing without running a test).
}, 180_000);

afterAll(async () => {
  await engine?.close();
  await stack?.close();
});

/** A professional clone (Business plan: no captcha) with one sample, made through the API as a user would. */
async function pvcVoiceWith(samples: Uint8Array[]) {
  const acct = await createTestAccount(stack, "business");
  const r = await apiFetch(stack, acct.apiKey, "/v1/voices/pvc", { method: "POST", body: JSON.stringify({ name: "Workflow voice", language: "en" }) });
  expect(r.status).toBe(200);
  const { voice_id } = (await r.json()) as { voice_id: string };
  const sampleIds: string[] = [];
  for (const [i, wav] of samples.entries()) {
    const form = new FormData();
    form.append("files", new Blob([Buffer.from(wav)], { type: "audio/wav" }), `sample-${i}.wav`);
    const added = await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voice_id}/samples`, { method: "POST", body: form });
    expect(added.status, await added.clone().text()).toBe(200);
    sampleIds.push(((await added.json()) as Array<{ sample_id: string }>)[0].sample_id);
  }
  return { ws: acct.workspace.workspace_id, userId: acct.user.user_id, voiceId: voice_id, sampleIds };
}

const wavOf = (x: Float32Array) => encodeWav(floatToInt16(x), 16_000);

let seq = 0;
const unique = (p: string) => `${p}${Date.now().toString(36)}${++seq}`;

async function run(runner: LocalWorkflowRunner, workflow: string, input: Record<string, unknown>) {
  const { executionId } = await runner.start(workflow, input);
  await runner.idle();
  return runner.executions.get(executionId)!;
}

/** A quiet logger whose error() is a spy: failure steps record what failed through it. */
function spiedLogger(): { log: Logger; error: Mock<Logger["error"]> } {
  const error = vi.fn<Logger["error"]>();
  return { log: { ...createLogger("silent"), error }, error };
}

/** One scenario set per workflow: a workflow added to workflows/ without one fails here. */
const SCENARIOS: Record<string, () => void> = {
  "voice-purge": () => {
    const settings = { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 };

    it("deletes every object under the voice's prefix, in batches, and its settings record, and nothing else", async () => {
      const ws = unique("ws");
      const otherWs = unique("ws");
      const voice = unique("v");
      const objects = Array.from({ length: 205 }, (_, i) => workspaceKey(ws, "voices", voice, "samples", `s${i}.wav`));
      objects.push(workspaceKey(ws, "voices", voice, "preview.mp3"));
      const survivors = [
        workspaceKey(ws, "voices", `${voice}x`, "preview.mp3"), // a voice id that merely starts with ours
        workspaceKey(ws, "voices", unique("v"), "preview.mp3"), // another voice of the workspace
        workspaceKey(otherWs, "voices", voice, "preview.mp3"), // the same voice id in another workspace
        workspaceKey(ws, "history", "h1.mp3"),
      ];
      await Promise.all([...objects, ...survivors].map((k) => stack.ctx.blobs.put(k, "audio", "audio/mpeg")));
      await stack.ctx.stores.voices.putWorkspaceSettings(ws, voice, settings);
      await stack.ctx.stores.voices.putWorkspaceSettings(otherWs, voice, settings);

      const execution = await run(stack.workflows, "voice-purge", { workspace_id: ws, voice_id: voice });

      expect(execution.error).toBeUndefined();
      expect(execution.status).toBe("SUCCEEDED");
      expect(await stack.ctx.blobs.list(workspaceKey(ws, "voices", voice) + "/")).toEqual([]);
      for (const k of survivors) expect(await stack.ctx.blobs.head(k), k).toBeDefined();
      expect(await stack.ctx.stores.voices.workspaceSettings(ws, voice)).toBeUndefined();
      expect(await stack.ctx.stores.voices.workspaceSettings(otherWs, voice)).toEqual(settings);
    });

    it("fails through the recorded-failure step when the input names no voice, touching nothing", async () => {
      const ws = unique("ws");
      const key = workspaceKey(ws, "voices", "v1", "preview.mp3");
      await stack.ctx.blobs.put(key, "audio", "audio/mpeg");
      const { log, error } = spiedLogger();
      const runner = new LocalWorkflowRunner(defs, { waitOverrideMs: 0 });
      runner.bind({ ...stack.ctx, log });

      const execution = await run(runner, "voice-purge", { workspace_id: ws });

      expect(execution.status).toBe("FAILED");
      // The PurgeFailed state ends the execution with its cause.
      expect(execution.error).toMatch(/See the recorded failure/);
      expect(error).toHaveBeenCalledWith("voice purge failed", expect.objectContaining({ input: expect.objectContaining({ workspace_id: ws, error: expect.anything() }) }));
      expect(await stack.ctx.blobs.head(key)).toBeDefined();
    });

    it("fails through the recorded-failure step when S3 refuses, leaving the records in place", async () => {
      const ws = unique("ws");
      const voice = unique("v");
      await stack.ctx.stores.voices.putWorkspaceSettings(ws, voice, settings);
      const { log, error } = spiedLogger();
      const runner = new LocalWorkflowRunner(defs, { waitOverrideMs: 0 });
      runner.bind({ ...stack.ctx, log, blobs: new BlobStore(stack.ctx.aws.s3, "no-such-bucket") });

      const execution = await run(runner, "voice-purge", { workspace_id: ws, voice_id: voice });

      expect(execution.status).toBe("FAILED");
      // The PurgeFailed state ends the execution with its cause.
      expect(execution.error).toMatch(/See the recorded failure/);
      const recorded = error.mock.calls.find(([msg]) => msg === "voice purge failed");
      expect(recorded, "the RecordPurgeFailure step did not run").toBeDefined();
      expect(JSON.stringify(recorded![1])).toMatch(/NoSuchBucket/);
      expect(await stack.ctx.stores.voices.workspaceSettings(ws, voice)).toEqual(settings);
    });
  },

  "webhook-dispatch": () => {
    it("fans an event out and delivers it in one execution, then ends", async () => {
      const receiver = await startReceiver();
      try {
        const acct = await createTestAccount(stack, "pro");
        const ws = acct.workspace.workspace_id;
        await stack.ctx.stores.webhooks.create({
          webhook_id: unique("wh"), workspace_id: ws, scope: "workspace", owner_user_id: acct.user.user_id, name: "t", webhook_url: receiver.url,
          auth_type: "hmac", secret_enc: encryptSecret(stack.ctx.secrets.session, "wsec_test"), request_headers: {}, events: null, retry_enabled: true,
          is_disabled: false, is_auto_disabled: false, created_at_unix: 0, consecutive_failures: 0, failing_since_unix: null,
          most_recent_failure_error_code: null, most_recent_failure_timestamp: null,
        });
        await stack.ctx.stores.events.put({ event_id: unique("ev"), type: "webhook_test", workspace_id: ws, user_id: null, event_timestamp: Math.floor(Date.now() / 1000), data: { n: 1 }, delivery: { state: "pending" } });
        const runner = new LocalWorkflowRunner(defs, { waitOverrideMs: 0 });
        runner.bind(stack.ctx);

        const execution = await run(runner, "webhook-dispatch", {});

        expect(execution.status).toBe("SUCCEEDED");
        expect(receiver.received.map((r) => JSON.parse(r.body).data)).toEqual([{ n: 1 }]);
        expect((execution.output as { dispatch: { more: boolean } }).dispatch.more).toBe(false);
      } finally {
        await receiver.close();
      }
    });

    it("fails the execution when a round cannot read the queue, after the step's retries (the queue keeps its work)", async () => {
      const runner = new LocalWorkflowRunner(defs, { waitOverrideMs: 0 });
      const { log } = spiedLogger();
      // A table that does not exist: every round fails; the Step retries and then the execution fails, losing nothing.
      const broken = { ...stack.ctx, log, stores: { ...stack.ctx.stores, webhooks: Object.assign(Object.create(Object.getPrototypeOf(stack.ctx.stores.webhooks)), { main: new Table(stack.ctx.aws.doc, "no-such-table") }) } };
      runner.bind(broken as never);
      const execution = await run(runner, "webhook-dispatch", {});
      expect(execution.status).toBe("FAILED");
      expect(execution.error).toMatch(/resource not found/i);
    });
  },
};

SCENARIOS["speaker-separation"] = () => {
  it("finds both speakers of a held-out conversation, stores each one's audio, records them on the sample and announces it", async () => {
    const [a, b] = distinctHeldOutPairs().find(([x, y]) => x.gender !== y.gender)!;
    const c = await makeConversation(engine, [a, b], HELD_OUT_LINES, { seed: 5 });
    const { ws, userId, voiceId, sampleIds } = await pvcVoiceWith([wavOf(c.samples)]);

    const execution = await run(stack.workflows, "speaker-separation", { workspace_id: ws, voice_id: voiceId, sample_id: sampleIds[0], user_id: userId });

    expect(execution.error).toBeUndefined();
    expect(execution.status).toBe("SUCCEEDED");
    const sep = (await stack.ctx.stores.voices.get(ws, voiceId))!.samples[0].speaker_separation!;
    expect(sep.status).toBe("completed");
    expect(Object.keys(sep.speakers!)).toEqual(["speaker_0", "speaker_1"]);
    // Two speakers: the user chooses whom training uses.
    expect(sep.selected_speaker_ids).toBeNull();
    const der = diarizationErrorRate(c.reference, Object.fromEntries(Object.values(sep.speakers!).map((s) => [s.speaker_id, s.utterances])));
    expect(der.der).toBeLessThanOrEqual(0.2);
    for (const id of Object.keys(sep.speakers!)) {
      const audio = await stack.ctx.blobs.getBytes(speakerAudioKey(ws, voiceId, sampleIds[0], id));
      expect((audio!.bytes.byteLength - 44) / 2 / 16_000).toBeCloseTo(sep.speakers![id].duration_secs, 0);
    }
    const [event] = await stack.ctx.stores.events.list(ws, { type: "speaker_separation_finished" });
    expect(event.user_id).toBe(userId);
    expect(event.data).toEqual({ voice_id: voiceId, sample_id: sampleIds[0], status: "completed", speakers: 2 });
  }, 180_000);

  it("records 'No speakers detected.' on a sample without speech, announces the failure and fails", async () => {
    const hiss = Float32Array.from({ length: 16_000 * 35 }, (_, i) => 0.0004 * Math.sin(i * 1.7) * Math.sin(i * 0.013));
    const { ws, userId, voiceId, sampleIds } = await pvcVoiceWith([wavOf(hiss)]);

    const execution = await run(stack.workflows, "speaker-separation", { workspace_id: ws, voice_id: voiceId, sample_id: sampleIds[0], user_id: userId });

    expect(execution.status).toBe("FAILED");
    expect(execution.error).toMatch(/Recorded on the sample/);
    const sep = (await stack.ctx.stores.voices.get(ws, voiceId))!.samples[0].speaker_separation!;
    expect(sep).toMatchObject({ status: "failed", speakers: null, message: "No speakers detected." });
    expect(pvcMessages.noSpeakers).toBe("No speakers detected.");
    const [event] = await stack.ctx.stores.events.list(ws, { type: "speaker_separation_finished" });
    expect(event.data).toEqual({ voice_id: voiceId, sample_id: sampleIds[0], status: "failed", message: "No speakers detected." });
  }, 60_000);
};

SCENARIOS["voice-fine-tuning"] = () => {
  const MODEL = "eleven_multilingual_v2";

  it("gives its long steps the step function's time, not Step Functions' default of 60 seconds", () => {
    const states = (defs.workflows["voice-fine-tuning"].asl as unknown as { States: Record<string, { Type: string; TimeoutSeconds?: number; ItemProcessor?: { States: Record<string, { Type: string; TimeoutSeconds?: number }> } }> }).States;
    expect(states.FitVoice.TimeoutSeconds).toBe(900);
    expect(states.PrepareSamples.ItemProcessor!.States.PrepareSample.TimeoutSeconds).toBe(900);
    const separation = (defs.workflows["speaker-separation"].asl as unknown as { States: Record<string, { TimeoutSeconds?: number }> }).States;
    expect(separation.SeparateSpeakers.TimeoutSeconds).toBe(600);
  });

  it("analyses every sample, fits the voice, writes the dataset and its quality report, and makes the model fine-tuned", async () => {
    const marcus = premadeVoices().find((v) => v.name === "Marcus")!.profile;
    const { ws, userId, voiceId, sampleIds } = await pvcVoiceWith([await speechWav(engine, marcus, 40, 21), await speechWav(engine, marcus, 35, 22)]);
    const before = (await stack.ctx.stores.voices.get(ws, voiceId))!;

    const execution = await run(stack.workflows, "voice-fine-tuning", { workspace_id: ws, voice_id: voiceId, model_id: MODEL, run_id: "run1", user_id: userId });

    expect(execution.error).toBeUndefined();
    expect(execution.status).toBe("SUCCEEDED");
    const v = (await stack.ctx.stores.voices.get(ws, voiceId))!;
    expect(v.fine_tuning.state[MODEL]).toBe("fine_tuned");
    expect(v.fine_tuning.progress[MODEL]).toBe(1);
    expect(v.high_quality_base_model_ids).toEqual([MODEL]);
    // The profile now follows the recordings (a low male voice), not the labels' default.
    expect(v.profile.gender).toBe("male");
    expect(v.profile).not.toEqual(before.profile);
    const folder = runFolder(ws, voiceId, MODEL, "run1");
    for (const id of sampleIds) expect(await stack.ctx.blobs.head(`${folder}/dataset/${id}.wav`), id).toBeDefined();
    const report = JSON.parse(Buffer.from((await stack.ctx.blobs.getBytes(v.fine_tuning.reports![MODEL]))!.bytes).toString("utf8")) as DatasetQualityReport;
    expect(report.samples).toBe(2);
    expect(report.total_duration_secs).toBeCloseTo(75, 0);
    expect(report.per_sample.map((s) => s.sample_id).sort()).toEqual([...sampleIds].sort());
    expect(report.speaker_consistency.min).toBeGreaterThan(0.6);
    expect(report.problems.join(" ")).toMatch(/at least 30 minutes/);
    expect(report.fit!.similarity_after).toBeGreaterThanOrEqual(report.fit!.similarity_before);
    const [event] = await stack.ctx.stores.events.list(ws, { type: "fine_tuning_finished" });
    expect(event.user_id).toBe(userId);
    expect(event.data).toMatchObject({ voice_id: voiceId, model_id: MODEL, state: "fine_tuned", high_quality_base_model_ids: [MODEL] });
  }, 600_000);

  it("sets the model to failed with a message the wizard shows when there is nothing to train on, and announces it", async () => {
    const { ws, userId, voiceId } = await pvcVoiceWith([]);

    const execution = await run(stack.workflows, "voice-fine-tuning", { workspace_id: ws, voice_id: voiceId, model_id: MODEL, run_id: "run1", user_id: userId });

    expect(execution.status).toBe("FAILED");
    expect(execution.error).toMatch(/Recorded on the voice/);
    const v = (await stack.ctx.stores.voices.get(ws, voiceId))!;
    expect(v.fine_tuning.state[MODEL]).toBe("failed");
    expect(v.fine_tuning.message[MODEL]).toBe("No audio left to train on after trims and speaker selection.");
    expect(v.high_quality_base_model_ids).toEqual([]);
    const [event] = await stack.ctx.stores.events.list(ws, { type: "fine_tuning_failed" });
    expect(event.data).toEqual({ voice_id: voiceId, model_id: MODEL, state: "failed", message: "No audio left to train on after trims and speaker selection." });
  }, 60_000);
};

/** A voice that needs verification, with a pending attempt whose recording is `audio`. */
async function pendingAttempt(audio: Uint8Array, text: string) {
  const ws = unique("ws");
  const voiceId = unique("v");
  const attemptId = unique("a");
  const profile = profileFromLabels({ language: "en", gender: "female", age: "young" }, 4711);
  const key = workspaceKey(ws, "voices", voiceId, "verification", `${attemptId}.wav`);
  await stack.ctx.blobs.put(key, audio, "audio/wav");
  const voice: VoiceRecord = {
    voice_id: voiceId, workspace_id: ws, owner_user_id: "u", name: "Verify me", description: null, category: "cloned", labels: { language: "en" },
    created_at_unix: 1, profile, version: 1, settings: null, preview_object_key: null, samples: [], is_legacy: false, high_quality_base_model_ids: [],
    available_for_tiers: [], fine_tuning: blankFineTuning("en"), sharing: null, safety_control: "CAPTCHA", is_mixed: false, engine_refs: {},
    verification: {
      ...blankVerification("en", true),
      attempts: [{ text, date_unix: 1, accepted: false, similarity: 0, levenshtein_distance: 0, attempt_id: attemptId, status: "pending", kind: "text",
        recording: { recording_id: attemptId, object_key: key, mime_type: "audio/wav", size_bytes: audio.byteLength, upload_date_unix: 1, transcription: "" } }],
    },
  };
  await stack.ctx.stores.voices.create(voice);
  return { ws, voiceId, attemptId, profile, input: { workspace_id: ws, voice_id: voiceId, attempt_id: attemptId, language: "en" } };
}

const attemptOf = async (ws: string, voiceId: string) => (await stack.ctx.stores.voices.get(ws, voiceId))!.verification.attempts[0];

SCENARIOS["voice-verification"] = () => {
  const TEXT = "Lantern, copper, dolphin, winter, button, bottle.";
  const speaker = profileFromLabels({ language: "en", gender: "male", age: "middle_aged" }, 77);

  it("accepts the voice's own speaker reading the sentence: both checks in parallel, then the decision", async () => {
    const profile = profileFromLabels({ language: "en", gender: "female", age: "young" }, 4711);
    const { samples, sampleRate } = await speakPcm(stack.ctx, profile, TEXT, { seed: 9 });
    const p = await pendingAttempt(encodeWav(floatToInt16(samples), sampleRate), TEXT);
    // The stack's own engine, counting the readings each step asks it for.
    const real = await stack.ctx.engine();
    const asked: Array<{ voice: unknown; text: string }> = [];
    const engine = new Proxy(real, {
      get(t, k) {
        if (k === "synthesize") return (req: SynthesisRequest, signal?: AbortSignal) => (asked.push({ voice: req.voice, text: req.text }), t.synthesize(req, signal));
        const v = Reflect.get(t, k, t) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      },
    });
    const runner = new LocalWorkflowRunner(defs, { waitOverrideMs: 0 });
    runner.bind({ ...stack.ctx, engine: async () => engine });
    const execution = await run(runner, "voice-verification", p.input);
    expect(execution.error).toBeUndefined();
    expect(execution.status).toBe("SUCCEEDED");
    // The voice's own reading of the sentence is made once for both checks (the speaker step's reference, the
    // sentence step's first candidate); each other reader reads each candidate once.
    expect(asked.filter((x) => x.text === TEXT && isDeepStrictEqual(x.voice, p.profile))).toHaveLength(1);
    expect(asked.filter((x, i) => asked.findIndex((y) => y.text === x.text && isDeepStrictEqual(y.voice, x.voice)) !== i)).toEqual([]);
    const a = await attemptOf(p.ws, p.voiceId);
    expect(a).toMatchObject({ status: "accepted", accepted: true, levenshtein_distance: 0 });
    expect(a.speaker!.accepted && a.sentence!.accepted).toBe(true);
    expect((await stack.ctx.stores.voices.get(p.ws, p.voiceId))!.verification.is_verified).toBe(true);
    // The owner's webhooks hear of it.
    const [event] = await stack.ctx.stores.events.list(p.ws, { type: "voice_verification_result" });
    expect(event.user_id).toBe("u");
    expect(event.data).toMatchObject({ voice_id: p.voiceId, attempt_id: p.attemptId, accepted: true, reasons: [] });
  }, 120_000);

  it("goes straight to a rejection when the recording holds no speech", async () => {
    const p = await pendingAttempt(encodeWav(new Int16Array(16000 * 2), 16000), TEXT);
    const execution = await run(stack.workflows, "voice-verification", p.input);
    expect(execution.status).toBe("SUCCEEDED");
    const a = await attemptOf(p.ws, p.voiceId);
    expect(a.status).toBe("rejected");
    expect(a.speaker).toBeNull();
    expect(a.reasons).toEqual(["No speech was found in the recording."]);
    const [event] = await stack.ctx.stores.events.list(p.ws, { type: "voice_verification_result" });
    expect(event.data).toMatchObject({ voice_id: p.voiceId, accepted: false, similarity: 0, reasons: ["No speech was found in the recording."] });
  }, 120_000);

  it("finds no speech in a reading 52 dB under normal level (the microphone's gain down), whatever its own levels", async () => {
    const profile = profileFromLabels({ language: "en", gender: "female", age: "young" }, 4711);
    const { samples, sampleRate } = await speakPcm(stack.ctx, profile, TEXT, { seed: 9 });
    // The engine's -18 dBFS speech at -70 dBFS, over the converter's one-bit hiss.
    let seed = 7;
    const quiet = Int16Array.from(samples, (v) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return Math.round(v * 32767 * 10 ** (-52 / 20) + (seed / 2 ** 32 - 0.5) * 2);
    });
    const p = await pendingAttempt(encodeWav(quiet, sampleRate), TEXT);
    const execution = await run(stack.workflows, "voice-verification", p.input);
    expect(execution.status).toBe("SUCCEEDED");
    const a = await attemptOf(p.ws, p.voiceId);
    expect(a.status).toBe("rejected");
    expect(a.reasons).toEqual(["No speech was found in the recording."]);
  }, 120_000);

  it("analyses a professional draft's samples at its first attempt only, and again once its samples change", async () => {
    const reading = await speakPcm(stack.ctx, speaker, TEXT, { seed: 9 });
    const p = await pendingAttempt(encodeWav(floatToInt16(reading.samples), reading.sampleRate), TEXT);
    const sampleOf = async (text: string) => {
      const sample_id = unique("s");
      const key = workspaceKey(p.ws, "voices", p.voiceId, "samples", `${sample_id}.wav`);
      const { samples, sampleRate } = await speakPcm(stack.ctx, speaker, text, { seed: 3 });
      await stack.ctx.blobs.put(key, encodeWav(floatToInt16(samples), sampleRate), "audio/wav");
      return { sample_id, file_name: `${sample_id}.wav`, mime_type: "audio/wav", size_bytes: 0, hash: sample_id, duration_secs: null, object_key: key, remove_background_noise: false, isolated_object_key: null, trim_start: null, trim_end: null, speaker_separation: null, created_at_unix: 1 };
    };
    const first = await sampleOf(HELD_OUT_LINES.slice(0, 3).join(" "));
    const v = (await stack.ctx.stores.voices.get(p.ws, p.voiceId))!;
    await stack.ctx.stores.voices.put({ ...v, category: "professional", samples: [first] });
    // The stack's analyser, counting the decodes each prepare step asks it for (the recording's, and each sample's).
    let decodes = 0;
    const real = stack.ctx.analyzer();
    const analyzer = new Proxy(real, {
      get(t, k) {
        if (k === "decode") return (...a: Parameters<typeof real.decode>) => (decodes++, t.decode(...a));
        const f = Reflect.get(t, k, t) as unknown;
        return typeof f === "function" ? (f as (...a: unknown[]) => unknown).bind(t) : f;
      },
    });
    const ctx = { ...stack.ctx, analyzer: () => analyzer };
    const prepare = async () => {
      decodes = 0;
      const r = (await voiceVerificationSteps.prepare(p.input, ctx)) as { ok: boolean; reference: { embedding: number[] | null; reading_profile: unknown } };
      expect(r.ok).toBe(true);
      return { reference: r.reference, decodes };
    };
    const one = await prepare();
    expect(one.decodes).toBe(2);
    expect(one.reference.embedding).not.toBeNull();
    // Not fine-tuned yet: the sentences are read with a profile estimated from the samples.
    expect(one.reference.reading_profile).not.toBeNull();
    const two = await prepare();
    expect(two.decodes).toBe(1);
    // The same reference as the steps receive it (through the state's JSON).
    expect(JSON.stringify(two.reference)).toBe(JSON.stringify(one.reference));
    // Another sample: analysed anew, and the reference follows it.
    const cur = (await stack.ctx.stores.voices.get(p.ws, p.voiceId))!;
    await stack.ctx.stores.voices.put({ ...cur, samples: [first, await sampleOf(HELD_OUT_LINES.slice(3, 6).join(" "))] });
    const three = await prepare();
    expect(three.decodes).toBe(3);
    expect(three.reference.embedding).not.toEqual(one.reference.embedding);
  }, 120_000);

  it("records the attempt as an error (not counted) when a step fails", async () => {
    const p = await pendingAttempt(encodeWav(new Int16Array(16000), 16000), TEXT);
    const { log, error } = spiedLogger();
    const runner = new LocalWorkflowRunner(defs, { waitOverrideMs: 0 });
    runner.bind({ ...stack.ctx, log, blobs: new BlobStore(stack.ctx.aws.s3, "no-such-bucket") });
    const execution = await run(runner, "voice-verification", p.input);
    expect(execution.status).toBe("FAILED");
    expect(execution.error).toMatch(/See the recorded attempt/);
    expect(error).toHaveBeenCalledWith("voice verification failed", expect.anything());
    const a = await attemptOf(p.ws, p.voiceId);
    expect(a.status).toBe("error");
    expect(a.reasons).toEqual(["Failed due to an unknown error"]);
  }, 120_000);
};

it("validates the rendered workflows once, as the runner would, and refuses a broken one", async () => {
  await expect(validateWorkflows(defs.workflows)).resolves.toBeUndefined();
  const broken = structuredClone(defs.workflows["voice-verification"].asl) as { States: Record<string, { Next?: string }> };
  const first = Object.keys(broken.States)[0];
  broken.States[first].Next = "NoSuchState";
  await expect(validateWorkflows({ "voice-verification": { asl: broken } })).rejects.toThrow(/voice-verification: the state machine definition is invalid/);
  const badPath = structuredClone(defs.workflows["voice-verification"].asl) as { States: Record<string, { InputPath?: string }> };
  badPath.States[first].InputPath = "no-dollar";
  await expect(validateWorkflows({ "voice-verification": { asl: badPath } })).rejects.toThrow(/invalid/);
});

it("renders the same ASL that the embedded stack runs", async () => {
  expect(Object.keys(defs.workflows).sort()).toEqual(WORKFLOWS.map((w) => w.name).sort());
  expect((await loadDefinitions()).workflows).toEqual(defs.workflows);
});

for (const wf of WORKFLOWS) {
  describe(`workflow ${wf.name}`, () => {
    it("has scenarios in this file", () => {
      expect(SCENARIOS[wf.name], `add scenarios for ${wf.name} to test/infra/workflows.test.ts`).toBeDefined();
    });
    SCENARIOS[wf.name]?.();
  });
}
