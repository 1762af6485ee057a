/**
 * A professional clone's samples: each upload (the SDK's multipart call or a finished presigned
 * upload) is decoded on the analysis workers and checked in the spec's order (at least 30 s, in
 * the language of the other samples, not a duplicate unless the user chose to upload it anyway,
 * at most 100 samples, under 1.5 GB in all; undecodable audio has its own message), then stored
 * with its waveform peaks and its language (the voice's when it was added). Everything
 * derived from a sample lives in its folder (`.../samples/{sample_id}/`), removed with it.
 */
import { webcrypto } from "node:crypto";
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { VoiceRecord, VoiceSampleRecord } from "../../platform/stores/voices.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { newId } from "../../platform/adapters/ids.js";
import { AudioDecodeError, AudioLimitError } from "../../media/audio/decode/errors.js";
import { sniffAudioType, type SniffedAudioType } from "../../media/audio/sniff.js";
import { ApiError } from "../../platform/http/errors.js";
import { runCpu } from "../../platform/offload/index.js";
import { PVC, pvcMessages } from "../../platform/contract/pvc.js";
import { sampleKey, sampleNotFound } from "../voices/samples.js";
import { changePvcVoice, ownPvcVoice } from "./records.js";

const MIME: Record<SniffedAudioType, { mime: string; ext: string }> = {
  wav: { mime: "audio/wav", ext: "wav" },
  mp3: { mime: "audio/mpeg", ext: "mp3" },
  ogg: { mime: "audio/ogg", ext: "ogg" },
  flac: { mime: "audio/flac", ext: "flac" },
  webm: { mime: "audio/webm", ext: "webm" },
  mp4: { mime: "audio/mp4", ext: "m4a" },
};

export const ANALYSIS_RATE = 16_000;

/** Where a sample's derived files live. */
export const sampleFolder = (ws: string, voiceId: string, sampleId: string) => workspaceKey(ws, "voices", voiceId, "samples", sampleId);
export const waveformKey = (ws: string, voiceId: string, sampleId: string) => `${sampleFolder(ws, voiceId, sampleId)}/waveform.json`;
export const previewKey = (ws: string, voiceId: string, sampleId: string, isolated: boolean) => `${sampleFolder(ws, voiceId, sampleId)}/${isolated ? "preview-isolated" : "preview"}.wav`;
export const speakerAudioKey = (ws: string, voiceId: string, sampleId: string, speakerId: string) => `${sampleFolder(ws, voiceId, sampleId)}/speakers/${speakerId}.wav`;

const sampleError = (status: string, message: string) => new ApiError(400, status, message);

export const pvcSampleErrors = {
  minDuration: () => sampleError("min-duration", pvcMessages.minDuration),
  languageMismatch: () => sampleError("language-mismatch", pvcMessages.sameLanguage),
  duplicate: () => sampleError("duplicate_file", pvcMessages.duplicateFile),
  tooMany: () => sampleError("too_many_samples", pvcMessages.tooManySamples),
  tooLarge: () => sampleError("total_size_exceeded", pvcMessages.totalSizeExceeded(PVC.maxTotalLabel)),
  durationUnknown: () => sampleError("duration_unknown", pvcMessages.durationUnknown),
  notLoaded: (name: string) => sampleError("unsupported_audio", pvcMessages.fileNotLoaded(name)),
  batchTooLarge: () => new ApiError(413, "batch_too_large", `Upload batches are limited to ${PVC.batchBytes / 1024 / 1024} MB.`),
};

/** The language a sample added now is in: the voice's (the form's "Language used in audio samples"). */
export const sampleLanguage = (v: VoiceRecord): string | null => v.fine_tuning.language ?? v.labels.language ?? null;

/**
 * §5 rule 2: a sample in another language than the voice's other samples is refused
 * (language-mismatch). Samples stored before languages were kept say nothing either way.
 */
export function checkLanguage(samples: VoiceSampleRecord[], language: string | null): void {
  if (language === null) return;
  if (samples.some((x) => x.language != null && x.language !== language)) throw pvcSampleErrors.languageMismatch();
}

/** The count and size checks, in the spec's order (after duration and duplicates). */
export function checkRoom(samples: VoiceSampleRecord[], adding: { count: number; bytes: number }): void {
  if (samples.length + adding.count > PVC.maxSamples) throw pvcSampleErrors.tooMany();
  const total = samples.reduce((n, s) => n + s.size_bytes, 0) + adding.bytes;
  if (total >= PVC.maxTotalBytes) throw pvcSampleErrors.tooLarge();
}

export interface IncomingSample {
  bytes: Uint8Array;
  fileName: string;
  removeBackgroundNoise: boolean;
  skipWarnings: readonly string[];
}

export interface CheckedAudio {
  type: SniffedAudioType;
  duration: number;
  hash: string;
  peaks: number[];
  /** The voice's language when checked: the sample's. */
  language: string | null;
}

/**
 * Checks one upload (nothing is stored yet), cheapest first: its hash against the voice's samples
 * (a duplicate is refused without decoding a byte), then the duration its headers declare (on the
 * analysis workers: a file of more than 3 hours is refused before decoding), then the file is
 * decoded in pieces that are measured (duration, waveform peaks) and dropped, with the duration
 * bound enforced as it goes; memory stays bounded whatever the file says it holds.
 */
export async function checkAudio(ctx: AppContext, v: VoiceRecord, s: IncomingSample): Promise<CheckedAudio> {
  if (s.bytes.byteLength > PVC.batchBytes) throw pvcSampleErrors.batchTooLarge();
  const type = sniffAudioType(s.bytes.subarray(0, 64));
  if (!type) throw pvcSampleErrors.notLoaded(s.fileName);
  const hash = Buffer.from(await webcrypto.subtle.digest("SHA-256", s.bytes)).toString("hex");
  const language = sampleLanguage(v);
  if (!s.skipWarnings.includes("duplicate_file") && v.samples.some((x) => x.hash === hash)) {
    // The same bytes as a stored sample, so at least 30 s long (rule 1 holds): rule 2, then rule 3.
    checkLanguage(v.samples, language);
    throw pvcSampleErrors.duplicate();
  }
  const tooLong = () => new ApiError(413, "sample_too_long", `A sample can be at most ${PVC.maxFileSeconds / 3600} hours long.`);
  let measured;
  try {
    const declared = await ctx.analyzer().probe(s.bytes, { maxBytes: PVC.batchBytes });
    if (declared.durationSecs !== null && declared.durationSecs > PVC.maxFileSeconds) throw tooLong();
    measured = await ctx.analyzer().measure(s.bytes, { maxBytes: PVC.batchBytes, maxSeconds: PVC.maxFileSeconds, sampleRate: ANALYSIS_RATE, points: PVC.waveformPoints });
  } catch (e) {
    if (e instanceof AudioDecodeError) throw pvcSampleErrors.durationUnknown();
    if (e instanceof AudioLimitError) throw tooLong();
    throw e;
  }
  const duration = measured.durationSecs;
  if (!(duration > 0)) throw pvcSampleErrors.durationUnknown();
  if (duration < PVC.minSampleSeconds) throw pvcSampleErrors.minDuration();
  checkLanguage(v.samples, language);
  checkRoom(v.samples, { count: 1, bytes: s.bytes.byteLength });
  return { type, duration, hash, peaks: measured.peaks, language };
}

/** Checks, stores and records one sample; the voice's version moves on. */
export async function addPvcSample(ctx: AppContext, caller: Caller, voiceId: string, s: IncomingSample): Promise<VoiceSampleRecord> {
  const v = await ownPvcVoice(ctx, caller, voiceId);
  const checked = await checkAudio(ctx, v, s);
  const ws = caller.workspaceId;
  const sampleId = newId();
  const { mime, ext } = MIME[checked.type];
  const key = sampleKey(ws, voiceId, sampleId, ext);
  await Promise.all([ctx.blobs.put(key, s.bytes, mime), ctx.blobs.put(waveformKey(ws, voiceId, sampleId), JSON.stringify(checked.peaks), "application/json")]);
  const record: VoiceSampleRecord = {
    sample_id: sampleId,
    file_name: s.fileName.slice(0, 255),
    mime_type: mime,
    size_bytes: s.bytes.byteLength,
    hash: checked.hash,
    duration_secs: Math.round(checked.duration * 1000) / 1000,
    object_key: key,
    remove_background_noise: s.removeBackgroundNoise,
    isolated_object_key: null,
    trim_start: null,
    trim_end: null,
    speaker_separation: null,
    created_at_unix: Math.floor(ctx.now() / 1000),
    language: checked.language,
  };
  try {
    await changePvcVoice(ctx, caller, voiceId, (cur) => {
      // Checked again against the voice as it is now: parallel uploads must not pass the limits together.
      // The voice's language may have changed meanwhile: the sample keeps the one it was checked
      // in, and must still agree with the samples stored since.
      checkLanguage(cur.samples, record.language ?? null);
      if (!s.skipWarnings.includes("duplicate_file") && cur.samples.some((x) => x.hash === record.hash)) throw pvcSampleErrors.duplicate();
      checkRoom(cur.samples, { count: 1, bytes: record.size_bytes });
      return { ...cur, samples: [...cur.samples, record] };
    });
  } catch (e) {
    await removeSampleObjects(ctx, ws, voiceId, record);
    throw e;
  }
  return record;
}

export async function removeSampleObjects(ctx: AppContext, ws: string, voiceId: string, s: VoiceSampleRecord): Promise<void> {
  const derived = await ctx.blobs.list(`${sampleFolder(ws, voiceId, s.sample_id)}/`);
  await ctx.blobs.deleteMany([s.object_key, ...(s.isolated_object_key ? [s.isolated_object_key] : []), ...derived]);
}

export function findSample(v: VoiceRecord, sampleId: string): VoiceSampleRecord {
  const s = v.samples.find((x) => x.sample_id === sampleId);
  if (!s) throw sampleNotFound(sampleId);
  return s;
}

export async function deletePvcSample(ctx: AppContext, caller: Caller, voiceId: string, sampleId: string): Promise<void> {
  let removed: VoiceSampleRecord | undefined;
  await changePvcVoice(ctx, caller, voiceId, (v) => {
    removed = findSample(v, sampleId);
    return { ...v, samples: v.samples.filter((x) => x.sample_id !== sampleId) };
  });
  if (removed) await removeSampleObjects(ctx, caller.workspaceId, voiceId, removed);
}

export interface SampleUpdate {
  remove_background_noise?: boolean | null;
  selected_speaker_ids?: string[] | null;
  trim_start_time?: number | null;
  trim_end_time?: number | null;
  file_name?: string | null;
}

/** Noise removal, the speakers training uses, the trim (at least 1 s, clamped to the audio), the name. */
export async function updatePvcSample(ctx: AppContext, caller: Caller, voiceId: string, sampleId: string, u: SampleUpdate): Promise<VoiceRecord> {
  return changePvcVoice(ctx, caller, voiceId, (v) => {
    const s = findSample(v, sampleId);
    const next: VoiceSampleRecord = { ...s };
    if (u.remove_background_noise !== undefined && u.remove_background_noise !== null) next.remove_background_noise = u.remove_background_noise;
    if (u.file_name) next.file_name = u.file_name;
    if (u.selected_speaker_ids !== undefined && u.selected_speaker_ids !== null) {
      const sep = s.speaker_separation;
      if (!sep || sep.status !== "completed" || !sep.speakers) throw new ApiError(400, "speakers_not_separated", "Separate the speakers of this sample before selecting them.");
      const unknown = u.selected_speaker_ids.filter((id) => !sep.speakers![id]);
      if (unknown.length) throw new ApiError(400, "speaker_not_found", `No speaker ${unknown[0]} in this sample.`);
      next.speaker_separation = { ...sep, selected_speaker_ids: [...new Set(u.selected_speaker_ids)] };
    }
    if (u.trim_start_time !== undefined || u.trim_end_time !== undefined) {
      const length = Math.round((s.duration_secs ?? 0) * 1000);
      const start = Math.max(0, Math.min(length, u.trim_start_time ?? s.trim_start ?? 0));
      const end = Math.max(0, Math.min(length, u.trim_end_time ?? s.trim_end ?? length));
      if (end - start < PVC.minTrimMs) throw new ApiError(400, "trim_too_short", "The trimmed audio must be at least 1 second long.");
      next.trim_start = start === 0 && end === length ? null : start;
      next.trim_end = start === 0 && end === length ? null : end;
    }
    return { ...v, samples: v.samples.map((x) => (x.sample_id === sampleId ? next : x)) };
  });
}

/** The visual waveform: peaks computed at upload (recomputed for samples stored before peaks were kept). */
export async function sampleWaveform(ctx: AppContext, caller: Caller, voiceId: string, sampleId: string): Promise<number[]> {
  const v = await ownPvcVoice(ctx, caller, voiceId);
  const s = findSample(v, sampleId);
  const stored = await ctx.blobs.getBytes(waveformKey(caller.workspaceId, voiceId, sampleId));
  if (stored) return JSON.parse(Buffer.from(stored.bytes).toString("utf8")) as number[];
  const decoded = await decodeSample(ctx, s);
  const peaks = await runCpu("peaks", { samples: decoded.samples, points: PVC.waveformPoints }, [decoded.samples.buffer as ArrayBuffer]);
  await ctx.blobs.put(waveformKey(caller.workspaceId, voiceId, sampleId), JSON.stringify(peaks), "application/json");
  return peaks;
}

/** A stored sample, decoded to 16 kHz on the analysis workers. */
export async function decodeSample(ctx: AppContext, s: VoiceSampleRecord, rate = ANALYSIS_RATE) {
  const stored = await ctx.blobs.getBytes(s.object_key);
  if (!stored) throw sampleNotFound(s.sample_id);
  return ctx.analyzer().decode(stored.bytes, { maxBytes: PVC.batchBytes, maxSeconds: PVC.maxFileSeconds, sampleRate: rate });
}

/** The stretch of a sample training uses: its trim, in seconds. */
export function trimRange(s: VoiceSampleRecord, duration: number): { start: number; end: number } {
  const start = s.trim_start !== null ? s.trim_start / 1000 : 0;
  const end = s.trim_end !== null ? s.trim_end / 1000 : duration;
  return { start: Math.max(0, start), end: Math.min(duration, Math.max(start, end)) };
}

/**
 * `samples.audio.get`: the first 30 seconds of the sample (after its trim), as WAV in base64, with
 * background noise removed when asked. Made once and kept beside the sample.
 */
export async function samplePreview(ctx: AppContext, caller: Caller, voiceId: string, sampleId: string, removeNoise: boolean) {
  const v = await ownPvcVoice(ctx, caller, voiceId);
  const s = findSample(v, sampleId);
  const key = previewKey(caller.workspaceId, voiceId, sampleId, removeNoise);
  let wav = (await ctx.blobs.getBytes(key))?.bytes;
  let seconds: number;
  if (!wav) {
    const decoded = await decodeSample(ctx, s);
    const range = trimRange(s, decoded.durationSecs);
    const end = Math.min(range.end, range.start + PVC.previewSeconds);
    // A copy of the stretch alone: a view would carry the whole decoded sample to the worker.
    let audio: Float32Array = decoded.samples.slice(Math.floor(range.start * ANALYSIS_RATE), Math.ceil(end * ANALYSIS_RATE));
    if (removeNoise) audio = await ctx.analyzer().denoise(audio, ANALYSIS_RATE);
    const made = await runCpu("wav", { samples: audio, rate: ANALYSIS_RATE, ranges: [{ start: 0, end: audio.length / ANALYSIS_RATE }] });
    wav = made.wav;
    seconds = made.seconds;
    await ctx.blobs.put(key, wav, "audio/wav");
    if (removeNoise && !s.isolated_object_key) {
      await changePvcVoice(ctx, caller, voiceId, (cur) => ({
        ...cur,
        samples: cur.samples.map((x) => (x.sample_id === sampleId ? { ...x, isolated_object_key: key } : x)),
      })).catch(() => undefined);
    }
  } else {
    seconds = (wav.byteLength - 44) / 2 / ANALYSIS_RATE;
  }
  return { audio_base_64: Buffer.from(wav).toString("base64"), voice_id: voiceId, sample_id: sampleId, media_type: "audio/wav", duration_secs: Math.round(seconds * 1000) / 1000 };
}
