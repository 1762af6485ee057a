import { webcrypto } from "node:crypto";
import type { AppContext } from "../context.js";
import type { VoiceRecord, VoiceSampleRecord } from "../adapters/dynamo/voices.js";
import { workspaceKey } from "../adapters/s3.js";
import { newId } from "../adapters/ids.js";
import { sniffAudioType, type SniffedAudioType } from "../audio/sniff.js";
import { ApiError } from "../http/errors.js";
import type { MultipartFile } from "../http/multipart.js";
import { MAX_SAMPLES, SAMPLE_MAX_BYTES, SAMPLE_MIN_SECONDS, SAMPLES_MAX_TOTAL_SECONDS, voiceMessages } from "../contract/voices.js";
import { probeDuration } from "./sampleProbe.js";

/**
 * Voice samples: uploads checked by size, by content (not by the name or type the client gave)
 * and by duration before anything is stored; then stored under the voice's folder, which the
 * voice-purge workflow removes with the voice.
 */
const MIME: Record<SniffedAudioType, { mime: string; ext: string }> = {
  wav: { mime: "audio/wav", ext: "wav" },
  mp3: { mime: "audio/mpeg", ext: "mp3" },
  ogg: { mime: "audio/ogg", ext: "ogg" },
  flac: { mime: "audio/flac", ext: "flac" },
  webm: { mime: "audio/webm", ext: "webm" },
  mp4: { mime: "audio/mp4", ext: "m4a" },
};

export const sampleNotFound = (id: string) => new ApiError(404, "sample_not_found", `A sample with the sample_id ${id} was not found.`);

export interface CheckedSample {
  file: MultipartFile;
  type: SniffedAudioType;
  duration: number;
}

/** Checks every file first, so a bad one stores nothing. */
export function checkSamples(existing: VoiceSampleRecord[], files: MultipartFile[]): CheckedSample[] {
  if (existing.length + files.length > MAX_SAMPLES) throw new ApiError(400, "too_many_samples", voiceMessages.tooManySamples);
  let total = existing.reduce((n, s) => n + (s.duration_secs ?? 0), 0);
  return files.map((file) => {
    if (file.truncated || file.data.byteLength > SAMPLE_MAX_BYTES) throw new ApiError(413, "sample_too_large", voiceMessages.sampleTooLarge(SAMPLE_MAX_BYTES / 1024 / 1024));
    const type = sniffAudioType(file.data.subarray(0, 64));
    if (!type) throw new ApiError(400, "unsupported_audio", voiceMessages.sampleUnsupported(file.filename));
    const duration = probeDuration(type, file.data);
    if (duration === null) throw new ApiError(400, "sample_duration_unknown", voiceMessages.sampleDurationUnknown(file.filename));
    if (duration < SAMPLE_MIN_SECONDS) throw new ApiError(400, "sample_too_short", voiceMessages.sampleTooShort(file.filename));
    total += duration;
    if (total >= SAMPLES_MAX_TOTAL_SECONDS) throw new ApiError(400, "samples_too_long", voiceMessages.samplesTooLong);
    return { file, type, duration };
  });
}

export const sampleKey = (ws: string, voiceId: string, sampleId: string, ext: string) => workspaceKey(ws, "voices", voiceId, "samples", `${sampleId}.${ext}`);

/** Stores checked samples; the hash runs on libuv's thread pool (WebCrypto), not on the request loop. */
export async function storeSamples(ctx: AppContext, v: VoiceRecord, checked: CheckedSample[], removeBackgroundNoise: boolean): Promise<VoiceSampleRecord[]> {
  const now = Math.floor(ctx.now() / 1000);
  return Promise.all(
    checked.map(async ({ file, type, duration }) => {
      const sampleId = newId();
      const { mime, ext } = MIME[type];
      const key = sampleKey(v.workspace_id!, v.voice_id, sampleId, ext);
      const [digest] = await Promise.all([webcrypto.subtle.digest("SHA-256", file.data), ctx.blobs.put(key, file.data, mime)]);
      return {
        sample_id: sampleId,
        file_name: file.filename.slice(0, 255),
        mime_type: mime,
        size_bytes: file.data.byteLength,
        hash: Buffer.from(digest).toString("hex"),
        duration_secs: Math.round(duration * 1000) / 1000,
        object_key: key,
        remove_background_noise: removeBackgroundNoise,
        isolated_object_key: null,
        trim_start: null,
        trim_end: null,
        speaker_separation: null,
        created_at_unix: now,
      } satisfies VoiceSampleRecord;
    }),
  );
}
