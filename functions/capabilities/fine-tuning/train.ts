/**
 * Fine-tuning a professional clone for one model (the voice-fine-tuning workflow). With a
 * classical engine, "training" is estimating the voice from all of its audio:
 *
 *   prepare   the model goes to fine_tuning; the samples to use are listed
 *   sample    (one per sample, two at a time) the audio training uses: the sample's trim, the
 *             selected speakers' utterances, background noise removed when asked; analysed
 *             (pitch, rate, spectrum, loudness, SNR, clipping, embedding); the cleaned audio and
 *             the analysis are kept as artifacts (copied from an earlier run when the sample and
 *             its settings are unchanged: reuse.ts)
 *   fit       the engine profile fitted (closed form) to the pooled analysis (functions/capabilities/cloning/fit.ts), the
 *             dataset quality report, the voice updated: its profile, the model in
 *             high_quality_base_model_ids, the state fine_tuned (the fit of the same pooled
 *             analysis by an earlier run is reused)
 *   failed    (on any error) the model goes to failed with a message the wizard shows
 *
 * While a model is fine_tuning the voice cannot speak with it (functions/platform/domain/speechRules.ts).
 */
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { FineTuningState, VoiceRecord, VoiceSampleRecord } from "../../platform/stores/voices.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { findModel, DEFAULT_TTS_MODEL_ID } from "../../platform/domain/models.js";
import { ApiError } from "../../platform/http/errors.js";
import { runCpu } from "../../platform/offload/index.js";
import { PVC, pvcMessages } from "../../platform/contract/pvc.js";
import { emitEvent } from "../../platform/events/index.js";
import { allowedToFineTune, ownPvcVoice } from "../pvc/records.js";
import { ANALYSIS_RATE, decodeSample, trimRange } from "../pvc/samples.js";
import { fitProfile, formantMean, poolAnalyses } from "../cloning/fit.js";
import { engineRenderer } from "../cloning/render.js";
import { similarity } from "../../media/voice-analysis/search.js";
import { hashSeed } from "../../media/engine/prng.js";
import type { Gender, VoiceProfile } from "../../media/engine/port.js";
import type { VoiceAnalysis } from "../../media/voice-analysis/port.js";
import { qualityReport, type AnalysedSample, type DatasetQualityReport } from "./report.js";
import { fitReuseKey, reuseFolder, sampleReuseKey } from "./reuse.js";

export const FINE_TUNING_WORKFLOW = "voice-fine-tuning";
const RUNNING: FineTuningState[] = ["queued", "fine_tuning"];

export const runFolder = (ws: string, voiceId: string, model: string, run: string) => workspaceKey(ws, "voices", voiceId, "fine-tuning", model, run);

/**
 * A sample's voice is measured on 3 minutes of it, 18 stretches of 10 s spread evenly over its
 * length; its speech seconds, loudness, noise and clipping on every second of it
 * (voice-analysis/analyze.ts `analyzeVoiceBounded`). A sample of 3 minutes or less is analysed
 * whole, as before. On readings by flite's voices (a speaker's 3-10 minutes, four speakers in one
 * sample) the voice's measures stayed within 1 % (pitch), 2 % (formants), 3 % (pace) and an
 * embedding cosine of 0.9997 of the whole sample's; with the cheaper loudness pass, a third of
 * the analysis' CPU at 11.5 minutes and a quarter at 34 (what is left grows with the passes over
 * every second; docs/decisions/2026-12-08-pvc-cpu.md).
 */
export const SAMPLE_ANALYSIS_BUDGET = { windows: 18, windowSecs: 10 } as const;

/** Audio of a sample that training would use, in seconds (trim, and the selected speakers when chosen). */
export function usableSeconds(s: VoiceSampleRecord): number {
  const sep = s.speaker_separation;
  const duration = s.duration_secs ?? 0;
  const { start, end } = trimRange(s, duration);
  if (sep?.status === "completed" && sep.speakers && sep.selected_speaker_ids?.length) {
    let t = 0;
    for (const id of sep.selected_speaker_ids) for (const u of sep.speakers[id]?.utterances ?? []) t += Math.max(0, Math.min(end, u.end) - Math.max(start, u.start));
    return t;
  }
  return end - start;
}

const fineTuningMessage = (progress: number) => `Fine-tuning ${Math.round(progress * 100)}%`;

/** POST /v1/voices/pvc/{voice_id}/train */
export async function startTraining(ctx: AppContext, caller: Caller, voiceId: string, modelId: string | null | undefined): Promise<void> {
  const v = await ownPvcVoice(ctx, caller, voiceId);
  const model = findModel(modelId ?? DEFAULT_TTS_MODEL_ID);
  if (!model) throw new ApiError(400, "model_not_found", `The model ${modelId} does not exist. List the models with GET /v1/models.`);
  if (!model.can_be_finetuned) throw new ApiError(400, "model_cannot_be_finetuned", `The model ${model.model_id} cannot be fine-tuned. Models with can_be_finetuned can.`);
  if (!allowedToFineTune(v)) throw new ApiError(403, "voice_not_verified", "Verify the voice before fine-tuning it.");
  const seconds = v.samples.reduce((t, s) => t + usableSeconds(s), 0);
  if (seconds < PVC.minTotalSeconds) throw new ApiError(400, "not_enough_audio", pvcMessages.needMoreAudio("10 minutes"));
  const set = await ctx.stores.voices.setFineTuning(caller.workspaceId, voiceId, model.model_id, { state: "queued", progress: 0, message: "Queued" }, RUNNING);
  if (!set) throw new ApiError(409, "fine_tuning_already_queued", pvcMessages.fineTuningAlreadyQueued);
  if (v.fine_tuning.is_draft) await ctx.stores.voices.patch(caller.workspaceId, voiceId, { fine_tuning: { ...set.fine_tuning, is_draft: false } }).catch(() => undefined);
  try {
    await ctx.workflows.start(FINE_TUNING_WORKFLOW, { workspace_id: caller.workspaceId, voice_id: voiceId, model_id: model.model_id, run_id: String(ctx.now()), user_id: caller.userId });
  } catch (e) {
    ctx.log.error("could not start fine-tuning", { error: e });
    await ctx.stores.voices.setFineTuning(caller.workspaceId, voiceId, model.model_id, { state: "failed", progress: 0, message: pvcMessages.failedToStartFineTuning }).catch(() => undefined);
    throw new ApiError(500, "fine_tuning_not_started", pvcMessages.failedToStartFineTuning);
  }
}

export interface RunInput {
  workspace_id: string;
  voice_id: string;
  model_id: string;
  run_id: string;
}

async function voiceOf(ctx: AppContext, r: RunInput): Promise<VoiceRecord> {
  const v = await ctx.stores.voices.get(r.workspace_id, r.voice_id);
  if (!v) throw new Error(`voice ${r.voice_id} not found`);
  return v;
}

export async function prepareRun(ctx: AppContext, r: RunInput): Promise<{ sample_ids: string[]; total: number }> {
  const v = await voiceOf(ctx, r);
  const samples = v.samples.filter((s) => usableSeconds(s) >= 1);
  if (samples.length === 0) throw new Error("No audio left to train on after trims and speaker selection.");
  await ctx.stores.voices.setFineTuning(r.workspace_id, r.voice_id, r.model_id, { state: "fine_tuning", progress: 0.05, message: fineTuningMessage(0.05) });
  return { sample_ids: samples.map((s) => s.sample_id), total: samples.length };
}

/**
 * One sample's training audio, analysed; the cleaned audio and the analysis kept as artifacts.
 * When an earlier run of the voice analysed the same bytes with the same trim, speakers and noise
 * removal (reuse.ts), its artifacts are copied into this run instead (`reused`).
 */
export async function prepareSample(ctx: AppContext, r: RunInput & { sample_id: string; total: number }): Promise<{ sample_id: string; seconds: number; reused: boolean }> {
  const v = await voiceOf(ctx, r);
  const s = v.samples.find((x) => x.sample_id === r.sample_id);
  if (!s) return { sample_id: r.sample_id, seconds: 0, reused: false }; // deleted meanwhile: trained without it
  const folder = runFolder(r.workspace_id, r.voice_id, r.model_id, r.run_id);
  // A sample without its bytes' hash (none should be) is never reused: its key would not say what it holds.
  const kept = s.hash ? `${reuseFolder(r.workspace_id, r.voice_id)}/samples/${sampleReuseKey(s, ANALYSIS_RATE)}` : undefined;
  const earlier = kept ? await ctx.blobs.getBytes(`${kept}.json`) : undefined;
  if (kept && earlier && (await ctx.blobs.head(`${kept}.wav`))) {
    const analysed: AnalysedSample = { ...(JSON.parse(Buffer.from(earlier.bytes).toString("utf8")) as AnalysedSample), sample_id: s.sample_id, file_name: s.file_name };
    await Promise.all([
      ctx.blobs.copy(`${kept}.wav`, `${folder}/dataset/${s.sample_id}.wav`, "audio/wav"),
      ctx.blobs.put(`${folder}/analysis/${s.sample_id}.json`, JSON.stringify(analysed), "application/json"),
    ]);
    await sampleProgress(ctx, r, folder);
    return { sample_id: s.sample_id, seconds: Math.round(analysed.duration_secs * 10) / 10, reused: true };
  }
  const decoded = await decodeSample(ctx, s);
  const trim = trimRange(s, decoded.durationSecs);
  const sep = s.speaker_separation;
  const selected = sep?.status === "completed" && sep.speakers && sep.selected_speaker_ids?.length ? sep.selected_speaker_ids : null;
  const ranges = selected
    ? selected
        .flatMap((id) => sep!.speakers![id]?.utterances ?? [])
        .map((u) => ({ start: Math.max(trim.start, u.start), end: Math.min(trim.end, u.end) }))
        .filter((u) => u.end > u.start)
        .sort((a, b) => a.start - b.start)
    : [trim];
  const audio = await runCpu("join", { samples: decoded.samples, rate: ANALYSIS_RATE, ranges }, [decoded.samples.buffer as ArrayBuffer]);
  const analyzer = ctx.analyzer();
  const raw = await analyzer.analyzeSamples(audio, ANALYSIS_RATE, { budget: SAMPLE_ANALYSIS_BUDGET });
  const cleanAudio = s.remove_background_noise ? await analyzer.denoise(audio, ANALYSIS_RATE) : audio;
  const clean = s.remove_background_noise ? await analyzer.analyzeSamples(cleanAudio, ANALYSIS_RATE, { budget: SAMPLE_ANALYSIS_BUDGET }) : raw;
  const seconds = cleanAudio.length / ANALYSIS_RATE;
  const made = await runCpu("wav", { samples: cleanAudio, rate: ANALYSIS_RATE, ranges: [{ start: 0, end: seconds }] }, [cleanAudio.buffer as ArrayBuffer]);
  const analysed: AnalysedSample = {
    sample_id: s.sample_id,
    file_name: s.file_name,
    duration_secs: seconds,
    denoised: s.remove_background_noise,
    selected_speaker_ids: selected,
    raw: { snrDb: raw.snrDb, clippingRatio: raw.clippingRatio, loudnessLufs: raw.loudnessLufs },
    clean,
  };
  await Promise.all([
    ctx.blobs.put(`${folder}/dataset/${s.sample_id}.wav`, made.wav, "audio/wav"),
    ctx.blobs.put(`${folder}/analysis/${s.sample_id}.json`, JSON.stringify(analysed), "application/json"),
  ]);
  // Kept for a later run of the same input (the WAV last: the analysis alone is not reused).
  if (kept) {
    await ctx.blobs.put(`${kept}.json`, JSON.stringify(analysed), "application/json");
    await ctx.blobs.copy(`${folder}/dataset/${s.sample_id}.wav`, `${kept}.wav`, "audio/wav");
  }
  await sampleProgress(ctx, r, folder);
  return { sample_id: s.sample_id, seconds: Math.round(seconds * 10) / 10, reused: false };
}

/** Progress: the share of samples analysed, from 5% to 65%. */
async function sampleProgress(ctx: AppContext, r: RunInput & { total: number }, folder: string): Promise<void> {
  const done = (await ctx.blobs.list(`${folder}/analysis/`)).length;
  const progress = Math.round((0.05 + (0.6 * done) / Math.max(1, r.total)) * 100) / 100;
  await ctx.stores.voices.setFineTuning(r.workspace_id, r.voice_id, r.model_id, { state: "fine_tuning", progress, message: fineTuningMessage(progress) });
}

/** Pools the analyses, fits the profile, writes the report, and makes the voice fine-tuned for the model. */
export async function fitRun(ctx: AppContext, r: RunInput & { sample_ids: string[] }): Promise<{ report_key: string; similarity: number; dataset_seconds: number; reused_fit: boolean }> {
  const folder = runFolder(r.workspace_id, r.voice_id, r.model_id, r.run_id);
  const analysed: AnalysedSample[] = [];
  for (const id of r.sample_ids) {
    const o = await ctx.blobs.getBytes(`${folder}/analysis/${id}.json`);
    if (o) analysed.push(JSON.parse(Buffer.from(o.bytes).toString("utf8")) as AnalysedSample);
  }
  if (analysed.length === 0) throw new Error("No sample could be analysed.");
  const pooled = poolAnalyses(analysed.map((a) => ({ analysis: a.clean as VoiceAnalysis, weight: a.clean.speechSecs })));
  await ctx.stores.voices.setFineTuning(r.workspace_id, r.voice_id, r.model_id, { state: "fine_tuning", progress: 0.7, message: fineTuningMessage(0.7) });
  const v = await voiceOf(ctx, r);
  const labelled = (g: string | undefined): Gender | undefined => (g === "male" || g === "female" || g === "neutral" ? g : undefined);
  const current = v.profile as VoiceProfile;
  const language = v.fine_tuning.language ?? current.language;
  const renderer = engineRenderer(ctx, language);
  // The closed-form fit of the instant clone, on all of the clone's audio; beside it, how the
  // voice sounded before (its current profile read the same way), for the report. A fit of the
  // same inputs by an earlier run is reused (reuse.ts).
  const fitInput = {
    analysis: pooled,
    language,
    accent: current.accent,
    gender: labelled(v.labels.gender),
    age: v.labels.age === "young" || v.labels.age === "old" || v.labels.age === "middle_aged" ? v.labels.age : undefined,
    seed: hashSeed("pvc-fit", r.voice_id),
  } as const;
  const keptFit = `${reuseFolder(r.workspace_id, r.voice_id)}/fits/${fitReuseKey({ ...fitInput })}.json`;
  const earlierFit = await ctx.blobs.getBytes(keptFit);
  const [before, fit] = await Promise.all([
    renderer.render({ ...current, language }),
    earlierFit
      ? (JSON.parse(Buffer.from(earlierFit.bytes).toString("utf8")) as Awaited<ReturnType<typeof fitProfile>>)
      : fitProfile(fitInput, renderer).then(async (made) => {
          await ctx.blobs.put(keptFit, JSON.stringify(made), "application/json");
          return made;
        }),
  ]);
  const round = (x: number | null, d: number) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);
  const { target, fitted } = fit.report;
  const similarityAfter = round(fitted.similarity, 3)!;
  const report: DatasetQualityReport = {
    ...qualityReport(r.model_id, Math.floor(ctx.now() / 1000), analysed, pooled.embedding),
    fit: {
      similarity_before: round(similarity(before.embedding, pooled.embedding), 3)!,
      similarity_after: similarityAfter,
      target: { f0MedianHz: round(target.f0MedianHz, 1), f0RangeSemitones: round(target.rangeSemitones, 2), speakingRate: round(target.speakingRate, 2), formantMeanHz: round(formantMean(target.formantsHz), 0) },
      achieved: { f0MedianHz: round(fitted.f0MedianHz, 1), f0RangeSemitones: round(fitted.rangeSemitones, 2), speakingRate: round(fitted.speakingRate, 2), formantMeanHz: round(formantMean(fitted.formantsHz), 0) },
    },
  };
  const reportKey = `${folder}/report.json`;
  await Promise.all([
    ctx.blobs.put(reportKey, JSON.stringify(report), "application/json"),
    ctx.blobs.put(`${folder}/profile.json`, JSON.stringify(fit.profile), "application/json"),
  ]);
  // The voice takes the fitted profile and becomes fine-tuned for the model, in one write.
  for (let attempt = 0; attempt < 5; attempt++) {
    const cur = await voiceOf(ctx, r);
    const models = [...new Set([...cur.high_quality_base_model_ids, r.model_id])];
    const next: VoiceRecord = {
      ...cur,
      version: cur.version + 1,
      profile: { ...fit.profile, seed: cur.profile.seed },
      high_quality_base_model_ids: models,
      fine_tuning: {
        ...cur.fine_tuning,
        is_draft: false,
        state: { ...cur.fine_tuning.state, [r.model_id]: "fine_tuned" },
        progress: { ...cur.fine_tuning.progress, [r.model_id]: 1 },
        message: { ...cur.fine_tuning.message, [r.model_id]: "Fine-tuned" },
        dataset_duration_seconds: report.total_duration_secs,
        reports: { ...(cur.fine_tuning.reports ?? {}), [r.model_id]: reportKey },
      },
    };
    if (await ctx.stores.voices.replace(next, cur.version)) return { report_key: reportKey, similarity: similarityAfter, dataset_seconds: report.total_duration_secs, reused_fit: earlierFit !== undefined };
  }
  throw new Error("The voice changed too often while fine-tuning finished.");
}

export async function announceFinished(ctx: AppContext, r: RunInput & { user_id?: string | null; fitted: { similarity: number; dataset_seconds: number } }): Promise<void> {
  const v = await voiceOf(ctx, r);
  await emitEvent(ctx, r.workspace_id, "fine_tuning_finished", {
    voice_id: r.voice_id,
    model_id: r.model_id,
    state: "fine_tuned",
    high_quality_base_model_ids: v.high_quality_base_model_ids,
    dataset_duration_seconds: r.fitted.dataset_seconds,
    speaker_similarity: r.fitted.similarity,
  }, { userId: r.user_id });
}

export async function recordFailure(ctx: AppContext, r: RunInput & { user_id?: string | null }, cause: string | undefined): Promise<void> {
  const message = cause && cause.length < 300 && !/^\{/.test(cause) ? cause : "Fine-tuning failed due to an internal error.";
  await ctx.stores.voices.setFineTuning(r.workspace_id, r.voice_id, r.model_id, { state: "failed", progress: 0, message }).catch(() => undefined);
  await emitEvent(ctx, r.workspace_id, "fine_tuning_failed", { voice_id: r.voice_id, model_id: r.model_id, state: "failed", message }, { userId: r.user_id });
}

/** The latest quality report of a model's fine-tuning (the voice's detail panel). */
export async function qualityReportOf(ctx: AppContext, caller: Caller, voiceId: string, modelId: string | undefined): Promise<DatasetQualityReport> {
  const v = await ownPvcVoice(ctx, caller, voiceId);
  const reports = v.fine_tuning.reports ?? {};
  const key = reports[modelId ?? DEFAULT_TTS_MODEL_ID] ?? Object.values(reports)[0];
  const o = key ? await ctx.blobs.getBytes(key) : undefined;
  if (!o) throw new ApiError(404, "report_not_found", "This voice has no dataset quality report yet: it is written when fine-tuning finishes.");
  return JSON.parse(Buffer.from(o.bytes).toString("utf8")) as DatasetQualityReport;
}
