/**
 * Instant Voice Clone: samples in, a voice out. Two ways in:
 *   - POST /v1/voices/add (the SDK's `voices.ivc.create`): samples and the voice in one call;
 *   - the dialog's preview-first flow: `clonePreview` (files -> a generated voice with a preview
 *     to listen to), then `saveClonePreview` (the preview becomes a new voice, or the new state
 *     of the voice being edited: dropped samples removed, new ones added).
 * Either way the samples are decoded and checked on their decoded durations, denoised unless
 * the caller says not to, analysed, and the engine is fitted to them (./fit.ts). On plans below
 * Business the clone must pass verification before it can speak (safety control CAPTCHA).
 */
import type { AppContext } from "../../platform/context.js";
import { unixSeconds } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { Gender, Age, VoiceProfile } from "../../media/engine/port.js";
import { blankFineTuning, blankVerification, type VoiceRecord, type VoiceSampleRecord } from "../../platform/stores/voices.js";
import type { StoredVoiceAnalysis } from "../../platform/stores/voiceAnalysis.js";
import type { GeneratedVoiceRecord } from "../../platform/stores/generatedVoices.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { newId } from "../../platform/adapters/ids.js";
import { parseOutputFormat } from "../../media/audio/formats.js";
import { ApiError } from "../../platform/http/errors.js";
import type { MultipartFile } from "../../platform/http/multipart.js";
import { createVoice, assertCanManage, voiceNotFound, isLibraryCopy } from "../voices/records.js";
import { sampleKey } from "../voices/samples.js";
import type { SniffedAudioType } from "../../media/audio/sniff.js";
import { cloneMessages, GENERATED_VOICE_TTL_SECONDS, verificationMessages } from "../../platform/contract/voiceCreation.js";
import { resolveLanguage } from "../../media/engine/espeak/voices.js";
import { PREVIEW_TEXTS } from "../voice-design/previewText.js";
import { copyObject, generatedVoiceNotFound } from "../voice-design/save.js";
import { sweepGenerated } from "../voice-design/design.js";
import { decodeUploads, ANALYSIS_ANALYSE, SAMPLE_RATE, type DecodedSample } from "./samples.js";
import { fitProfile } from "../cloning/fit.js";
import { engineRenderer } from "../cloning/render.js";
import { speakEncoded } from "./render.js";

const MIME: Record<SniffedAudioType, { mime: string; ext: string }> = {
  wav: { mime: "audio/wav", ext: "wav" },
  mp3: { mime: "audio/mpeg", ext: "mp3" },
  ogg: { mime: "audio/ogg", ext: "ogg" },
  flac: { mime: "audio/flac", ext: "flac" },
  webm: { mime: "audio/webm", ext: "webm" },
  mp4: { mime: "audio/mp4", ext: "m4a" },
};
const PREVIEW_FORMAT = parseOutputFormat("mp3_44100_128");

/** Plan and permission: the spec's message for plans without instant cloning. */
export async function assertCanClone(caller: Caller): Promise<void> {
  if (!(await caller.tier()).canUseInstantVoiceCloning) throw new ApiError(403, "can_not_use_instant_voice_cloning", cloneMessages.starterRequired);
  await caller.require("create_instant_voice_clone");
}

export interface CloneLabels {
  labels: Record<string, string>;
  language: string;
  accent?: string;
  gender?: Gender;
  age?: Age;
}

/** The labels that steer the fit: a language (default English), and gender or age when given. */
export function cloneLabels(labels: Record<string, string> | null | undefined): CloneLabels {
  const l = labels ?? {};
  const lang = resolveLanguage(l.language ?? "en", l.accent);
  const gender = l.gender === "male" || l.gender === "female" || l.gender === "neutral" ? l.gender : undefined;
  const age = l.age === "young" || l.age === "middle_aged" || l.age === "old" ? l.age : l.age === "middle-aged" ? "middle_aged" : undefined;
  return { labels: l, language: lang.language.id, accent: lang.accent, gender, age };
}

interface Built {
  profile: VoiceProfile;
  analysis: StoredVoiceAnalysis;
  /** The uploads (and their denoised audio), stored. */
  samples: VoiceSampleRecord[];
}

/** Decodes, denoises, analyses and fits: the CPU work of a clone, all of it in workers. */
async function buildClone(ctx: AppContext, files: MultipartFile[], kept: VoiceSampleRecord[], steer: CloneLabels, denoise: boolean, seed: number, store: { workspaceId: string; folder: string[] }): Promise<Built> {
  const keptSeconds = kept.reduce((n, s) => n + (s.duration_secs ?? 0), 0);
  const decoded = await decodeUploads(ctx, files, keptSeconds, { denoise });
  const written: string[] = [];
  let stored: Promise<VoiceSampleRecord[]> | undefined;
  let fitted;
  try {
    const keptAudio = await Promise.all(kept.map((s) => keptSampleAudio(ctx, s)));
    // One worker job joins the denoised pieces, analyses the voice and encodes the denoised WAVs;
    // the audio moves there and is not touched here again.
    const joined = ctx.analyzer().joinAudio([...keptAudio, ...decoded.map((d) => d.audio)], SAMPLE_RATE, { wav: [...kept.map(() => false), ...decoded.map((d) => d.denoised)], analyse: ANALYSIS_ANALYSE });
    // The samples are written while the voice is analysed and fitted; a failed clone deletes them.
    stored = storeDecoded(ctx, store.workspaceId, store.folder, decoded, joined.then((j) => j.wavs.slice(kept.length)), written);
    stored.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
    const summary = (await joined).analysis!;
    if (!summary.speechSecs || summary.f0MedianHz === null) throw new ApiError(400, "no_speech_in_samples", verificationMessages.noSpeech);
    fitted = { summary, ...(await fitProfile({ analysis: summary, language: steer.language, accent: steer.accent, gender: steer.gender, age: steer.age, seed }, engineRenderer(ctx, steer.language))), samples: await stored };
  } catch (e) {
    await stored?.catch(() => undefined);
    if (written.length) await ctx.blobs.deleteMany(written).catch(() => undefined);
    throw e;
  }
  const { summary, profile, report, samples } = fitted;
  const { segments: _segments, ...rest } = summary;
  return {
    profile,
    samples,
    analysis: {
      embedding_version: summary.embeddingVersion,
      analysed_at_unix: unixSeconds(ctx),
      denoised: denoise,
      summary: rest,
      samples: [],
      fit: { renders: report.renders, f0_median_hz: report.fitted.f0MedianHz, speaking_rate: report.fitted.speakingRate, similarity: Math.round(report.fitted.similarity * 1000) / 1000 },
    },
  };
}

/** A kept sample's audio at the analysis rate: its denoised copy when it has one. */
async function keptSampleAudio(ctx: AppContext, s: VoiceSampleRecord): Promise<Float32Array> {
  const o = await ctx.blobs.getBytes(s.isolated_object_key ?? s.object_key);
  if (!o) throw new ApiError(500, "sample_missing", `The audio of sample ${s.sample_id} is missing.`);
  return (await ctx.analyzer().decode(o.bytes, { sampleRate: SAMPLE_RATE, maxSeconds: 45 * 60 })).samples;
}

/**
 * Stores the uploads under `folder` at once and their denoised WAVs (`isolated`, per upload) when
 * they are ready; the records say where. Every key written goes into `written`, so a failure can
 * delete them all: this settles only after every write has.
 */
async function storeDecoded(ctx: AppContext, ws: string, folder: string[], decoded: DecodedSample[], isolated: Promise<(Uint8Array | null)[]>, written: string[]): Promise<VoiceSampleRecord[]> {
  const now = unixSeconds(ctx);
  const put = async (key: string, bytes: Uint8Array, mime: string) => {
    await ctx.blobs.put(key, bytes, mime);
    written.push(key);
  };
  const results = await Promise.allSettled(
    decoded.map(async (d, i) => {
      const sampleId = newId();
      const { mime, ext } = MIME[d.type];
      const key = workspaceKey(ws, ...folder, "samples", `${sampleId}.${ext}`);
      const isolatedKey = d.denoised ? workspaceKey(ws, ...folder, "samples", `${sampleId}.isolated.wav`) : null;
      await Promise.all([
        put(key, d.file.data, mime),
        isolatedKey
          ? isolated.then((wavs) => {
              const wav = wavs[i];
              if (!wav) throw new Error(`no denoised audio for sample ${i}`);
              return put(isolatedKey, wav, "audio/wav");
            })
          : undefined,
      ]);
      return {
        sample_id: sampleId,
        file_name: d.file.filename.slice(0, 255),
        mime_type: mime,
        size_bytes: d.file.data.byteLength,
        hash: d.sha256,
        duration_secs: Math.round(d.durationSecs * 1000) / 1000,
        object_key: key,
        remove_background_noise: d.denoised,
        isolated_object_key: isolatedKey,
        trim_start: null,
        trim_end: null,
        speaker_separation: null,
        created_at_unix: now,
      } satisfies VoiceSampleRecord;
    }),
  );
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<VoiceSampleRecord>).value);
}

/** Every object a sample record names: the upload and its denoised copy. */
function sampleKeys(samples: VoiceSampleRecord[]): string[] {
  return samples.flatMap((s) => [s.object_key, ...(s.isolated_object_key ? [s.isolated_object_key] : [])]);
}

function withSampleList(analysis: StoredVoiceAnalysis, samples: VoiceSampleRecord[]): StoredVoiceAnalysis {
  return { ...analysis, samples: samples.map((s) => ({ sample_id: s.sample_id, duration_secs: s.duration_secs ?? 0, denoised: s.isolated_object_key !== null })) };
}

async function newCloneRecord(ctx: AppContext, caller: Caller, voiceId: string, fields: { name: string; description: string | null; steer: CloneLabels; profile: VoiceProfile; analysis: StoredVoiceAnalysis; samples: VoiceSampleRecord[]; previewKey: string | null }): Promise<VoiceRecord> {
  const tier = await caller.tier();
  const requires = !tier.bypassesVoiceCaptcha;
  const labels = { ...fields.steer.labels, language: fields.steer.labels.language ?? fields.steer.language };
  return {
    voice_id: voiceId,
    workspace_id: caller.workspaceId,
    owner_user_id: caller.userId,
    name: fields.name,
    description: fields.description,
    category: "cloned",
    labels,
    created_at_unix: unixSeconds(ctx),
    profile: fields.profile,
    version: 1,
    settings: null,
    preview_object_key: fields.previewKey,
    samples: fields.samples,
    is_legacy: false,
    high_quality_base_model_ids: [],
    available_for_tiers: [],
    fine_tuning: blankFineTuning(fields.steer.language),
    verification: blankVerification(fields.steer.language, requires),
    sharing: null,
    safety_control: requires ? "CAPTCHA" : null,
    is_mixed: false,
    engine_refs: {},
    analysis: withSampleList(fields.analysis, fields.samples),
  };
}

export interface InstantCloneInput {
  name: string;
  description: string | null;
  labels: Record<string, string> | null;
  removeBackgroundNoise: boolean;
  files: MultipartFile[];
}

/** POST /v1/voices/add: the whole clone in one call. */
export async function instantClone(ctx: AppContext, caller: Caller, input: InstantCloneInput): Promise<VoiceRecord> {
  await assertCanClone(caller);
  if (!input.files.length) throw new ApiError(400, "too_little_audio", cloneMessages.tooLittleAudio);
  const steer = cloneLabels(input.labels);
  const voiceId = newId();
  const built = await buildClone(ctx, input.files, [], steer, input.removeBackgroundNoise, seedOf(voiceId), { workspaceId: caller.workspaceId, folder: ["voices", voiceId] });
  const samples = built.samples;
  const previewKey = workspaceKey(caller.workspaceId, "voices", voiceId, "preview.mp3");
  const preview = await speakEncoded(ctx, built.profile, clonePreviewText(steer.language), PREVIEW_FORMAT);
  await ctx.blobs.put(previewKey, preview.audio, PREVIEW_FORMAT.contentType);
  const voice = await newCloneRecord(ctx, caller, voiceId, { name: input.name, description: input.description, steer, profile: built.profile, analysis: built.analysis, samples, previewKey });
  try {
    return await createVoice(ctx, await caller.tier(), voice);
  } catch (e) {
    await ctx.blobs.deleteMany([previewKey, ...sampleKeys(samples)]).catch(() => undefined);
    throw e;
  }
}

const seedOf = (id: string) => {
  let h = 0;
  for (const c of id) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  return h;
};

export function clonePreviewText(language: string): string {
  return (PREVIEW_TEXTS[language] ?? PREVIEW_TEXTS.en).story;
}

export interface ClonePreviewInput {
  files: MultipartFile[];
  removeBackgroundNoise: boolean;
  labels: Record<string, string> | null;
  /** Edit: the voice whose samples are kept, minus these. */
  voiceId: string | null;
  sampleIdsToRemove: string[];
}

/** The preview-first flow, step one: files (and an edited voice's kept samples) -> a generated voice with audio. */
export async function clonePreview(ctx: AppContext, caller: Caller, input: ClonePreviewInput): Promise<GeneratedVoiceRecord & { audio: Uint8Array }> {
  await assertCanClone(caller);
  let kept: VoiceSampleRecord[] = [];
  let steerLabels = input.labels;
  if (input.voiceId) {
    const v = await ctx.stores.voices.get(caller.workspaceId, input.voiceId);
    if (!v || isLibraryCopy(v)) throw voiceNotFound(input.voiceId);
    await assertCanManage(caller, v);
    for (const id of input.sampleIdsToRemove) if (!v.samples.some((s) => s.sample_id === id)) throw new ApiError(400, "sample_not_found", cloneMessages.sampleNotOnVoice(id));
    kept = v.samples.filter((s) => !input.sampleIdsToRemove.includes(s.sample_id));
    steerLabels ??= v.labels;
  }
  if (!input.files.length && !kept.length) throw new ApiError(400, "too_little_audio", cloneMessages.tooLittleAudio);
  const steer = cloneLabels(steerLabels);
  const id = newId();
  const built = await buildClone(ctx, input.files, kept, steer, input.removeBackgroundNoise, seedOf(input.voiceId ?? id), { workspaceId: caller.workspaceId, folder: ["generated", id] });
  const samples = built.samples;
  const text = clonePreviewText(steer.language);
  const preview = await speakEncoded(ctx, built.profile, text, PREVIEW_FORMAT);
  const audioKey = workspaceKey(caller.workspaceId, "generated", `${id}.mp3`);
  await ctx.blobs.put(audioKey, preview.audio, PREVIEW_FORMAT.contentType);
  const now = unixSeconds(ctx);
  const record: GeneratedVoiceRecord = {
    generated_voice_id: id,
    workspace_id: caller.workspaceId,
    user_id: caller.userId,
    kind: "clone",
    description: "",
    profile: built.profile,
    settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 },
    labels: { ...steer.labels, language: steer.language },
    language: steer.language,
    text,
    audio_object_key: audioKey,
    media_type: PREVIEW_FORMAT.contentType,
    duration_secs: preview.durationSecs,
    source_voice_id: input.voiceId,
    clone: { samples, kept_sample_ids: kept.map((s) => s.sample_id), voice_id: input.voiceId, analysis: built.analysis },
    created_at_unix: now,
    expires_at_unix: now + GENERATED_VOICE_TTL_SECONDS,
  };
  await ctx.stores.generatedVoices.put(record);
  await sweepGenerated(ctx, caller.workspaceId).catch(() => undefined);
  return { ...record, audio: preview.audio };
}

/** Moves a preview's samples into the voice's folder. */
async function adoptSamples(ctx: AppContext, ws: string, voiceId: string, samples: VoiceSampleRecord[]): Promise<VoiceSampleRecord[]> {
  return Promise.all(
    samples.map(async (s) => {
      const ext = s.object_key.split(".").pop()!;
      const key = sampleKey(ws, voiceId, s.sample_id, ext);
      const isolated = s.isolated_object_key ? sampleKey(ws, voiceId, s.sample_id, "isolated.wav") : null;
      await Promise.all([copyObject(ctx, s.object_key, key), isolated ? copyObject(ctx, s.isolated_object_key!, isolated) : undefined]);
      return { ...s, object_key: key, isolated_object_key: isolated };
    }),
  );
}

export interface SaveCloneInput {
  previewId: string;
  name: string;
  description: string | null;
  labels: Record<string, string> | null;
  voiceId: string | null;
}

/** The preview-first flow, step two: a new voice, or the edited voice's new samples and fit. */
export async function saveClonePreview(ctx: AppContext, caller: Caller, input: SaveCloneInput): Promise<VoiceRecord> {
  await assertCanClone(caller);
  const g = await ctx.stores.generatedVoices.get(caller.workspaceId, input.previewId, unixSeconds(ctx));
  if (!g || g.kind !== "clone" || !g.clone) throw generatedVoiceNotFound(input.previewId);
  if ((input.voiceId ?? null) !== g.clone.voice_id) throw new ApiError(400, "preview_for_another_voice", "This preview was made for another voice. Please upload the samples again.");
  const ws = caller.workspaceId;
  let saved: VoiceRecord;
  if (!g.clone.voice_id) {
    const voiceId = newId();
    const samples = await adoptSamples(ctx, ws, voiceId, g.clone.samples);
    const previewKey = workspaceKey(ws, "voices", voiceId, "preview.mp3");
    await copyObject(ctx, g.audio_object_key, previewKey);
    const steer = cloneLabels(input.labels ?? g.labels);
    const voice = await newCloneRecord(ctx, caller, voiceId, { name: input.name, description: input.description, steer, profile: g.profile, analysis: g.clone.analysis, samples, previewKey });
    try {
      saved = await createVoice(ctx, await caller.tier(), voice);
    } catch (e) {
      await ctx.blobs.deleteMany([previewKey, ...sampleKeys(samples)]).catch(() => undefined);
      throw e;
    }
  } else {
    saved = await applyEdit(ctx, caller, g, input);
  }
  await ctx.stores.generatedVoices.delete(ws, g.generated_voice_id).catch(() => undefined);
  await ctx.blobs.deleteMany([g.audio_object_key, ...sampleKeys(g.clone.samples)]).catch(() => undefined);
  return saved;
}

async function applyEdit(ctx: AppContext, caller: Caller, g: GeneratedVoiceRecord, input: SaveCloneInput): Promise<VoiceRecord> {
  const ws = caller.workspaceId;
  const voiceId = g.clone!.voice_id!;
  const added = await adoptSamples(ctx, ws, voiceId, g.clone!.samples);
  const previewKey = workspaceKey(ws, "voices", voiceId, "preview.mp3");
  await copyObject(ctx, g.audio_object_key, previewKey);
  for (let attempt = 0; attempt < 5; attempt++) {
    const v = await ctx.stores.voices.get(ws, voiceId);
    if (!v) throw voiceNotFound(voiceId);
    await assertCanManage(caller, v);
    const kept = v.samples.filter((s) => g.clone!.kept_sample_ids.includes(s.sample_id));
    const dropped = v.samples.filter((s) => !g.clone!.kept_sample_ids.includes(s.sample_id));
    const samples = [...kept, ...added];
    const changed = added.length > 0 || dropped.length > 0;
    const tier = await caller.tier();
    // New samples could be someone else's voice: a clone that needs verification proves it again.
    const reverify = added.length > 0 && v.verification.requires_verification && !tier.bypassesVoiceCaptcha;
    const next: VoiceRecord = {
      ...v,
      name: input.name,
      description: input.description ?? v.description,
      labels: input.labels ?? v.labels,
      profile: g.profile,
      samples,
      preview_object_key: previewKey,
      analysis: withSampleList(g.clone!.analysis, samples),
      version: v.version + (changed ? 1 : 0),
      verification: reverify ? { ...v.verification, is_verified: false } : v.verification,
    };
    if (await ctx.stores.voices.replace(next, v.version)) {
      await ctx.blobs.deleteMany(sampleKeys(dropped)).catch(() => undefined);
      return next;
    }
  }
  throw new ApiError(409, "voice_changed", "The voice was changed at the same time. Please try again.");
}
