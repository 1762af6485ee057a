import { webcrypto } from "node:crypto";
import type { AppContext } from "../../platform/context.js";
import type { VoiceRecord, VoiceSampleRecord } from "../../platform/stores/voices.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { newId } from "../../platform/adapters/ids.js";
import { sniffAudioType, type SniffedAudioType } from "../../media/audio/sniff.js";
import { ApiError } from "../../platform/http/errors.js";
import type { MultipartFile } from "../../platform/http/multipart.js";
import { MAX_SAMPLES, SAMPLE_MAX_BYTES, SAMPLE_MIN_SECONDS, SAMPLES_MAX_TOTAL_SECONDS, voiceMessages } from "../../platform/contract/voices.js";
import { probeDuration } from "./sampleProbe.js";
import { AudioDecodeError, UNREADABLE_AUDIO_MESSAGE } from "../../media/audio/decode/errors.js";
import { denoiseInPieces, SAMPLE_RATE as ISOLATED_RATE } from "../voice-clone/samples.js";

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

/**
 * The sample without its background noise (remove_background_noise): decoded and denoised
 * (RNNoise, in pieces side by side) on the analyser's workers, kept as a 16 kHz WAV beside the
 * upload, as an instant clone's samples are.
 */
async function isolatedAudio(ctx: AppContext, bytes: Uint8Array): Promise<Uint8Array> {
  const d = await ctx.analyzer().decode(bytes, { sampleRate: ISOLATED_RATE, maxSeconds: SAMPLES_MAX_TOTAL_SECONDS }).catch((e: unknown) => {
    if (e instanceof AudioDecodeError) throw new ApiError(400, "sample_unreadable", UNREADABLE_AUDIO_MESSAGE);
    throw e;
  });
  // Joined and encoded in a worker: the denoised pieces do not come back to the request loop.
  const { wavs } = await ctx.analyzer().joinAudio([await denoiseInPieces(ctx, d.samples)], ISOLATED_RATE, { wav: [true] });
  return wavs[0]!;
}

/**
 * Stores checked samples, and their denoised audio when asked; the hash runs on libuv's thread
 * pool (WebCrypto), decoding and denoising on the analyser's workers, not on the request loop.
 */
export async function storeSamples(ctx: AppContext, v: VoiceRecord, checked: CheckedSample[], removeBackgroundNoise: boolean): Promise<VoiceSampleRecord[]> {
  const now = Math.floor(ctx.now() / 1000);
  const written: string[] = [];
  const stored = await Promise.allSettled(
    checked.map(async ({ file, type, duration }) => {
      const sampleId = newId();
      const { mime, ext } = MIME[type];
      const key = sampleKey(v.workspace_id!, v.voice_id, sampleId, ext);
      const isolatedKey = removeBackgroundNoise ? sampleKey(v.workspace_id!, v.voice_id, sampleId, "isolated.wav") : null;
      written.push(key, ...(isolatedKey ? [isolatedKey] : []));
      const [digest] = await Promise.all([
        webcrypto.subtle.digest("SHA-256", file.data),
        ctx.blobs.put(key, file.data, mime),
        isolatedKey ? isolatedAudio(ctx, file.data).then((wav) => ctx.blobs.put(isolatedKey, wav, "audio/wav")) : undefined,
      ]);
      return {
        sample_id: sampleId,
        file_name: file.filename.slice(0, 255),
        mime_type: mime,
        size_bytes: file.data.byteLength,
        hash: Buffer.from(digest).toString("hex"),
        duration_secs: Math.round(duration * 1000) / 1000,
        object_key: key,
        remove_background_noise: removeBackgroundNoise,
        isolated_object_key: isolatedKey,
        trim_start: null,
        trim_end: null,
        speaker_separation: null,
        created_at_unix: now,
      } satisfies VoiceSampleRecord;
    }),
  );
  // One sample that cannot be stored (or denoised) stores none of them.
  const failed = stored.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) {
    await ctx.blobs.deleteMany(written).catch(() => undefined);
    throw failed.reason;
  }
  return stored.map((r) => (r as PromiseFulfilledResult<VoiceSampleRecord>).value);
}
