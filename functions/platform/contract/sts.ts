import { z } from "zod";
import { OUTPUT_FORMATS, STREAMING_OUTPUT_FORMATS } from "../../media/audio/formats.js";
import { q } from "../http/validate.js";

/**
 * Speech to speech and the voice isolator on the wire (contract §6 and the audio isolation
 * methods): multipart bodies, their bounds, and the messages of both features in one place.
 */
export const DEFAULT_STS_MODEL_ID = "eleven_multilingual_sts_v2";
export const STS_MAX_BYTES = 50 * 1024 * 1024;
/** Speech to speech takes up to 5 minutes of audio per request. */
export const STS_MAX_SECONDS = 5 * 60;
export const ISOLATION_MAX_BYTES = 50 * 1024 * 1024;
/** The isolator takes up to 10 minutes per request. */
export const ISOLATION_MAX_SECONDS = 10 * 60;
export const INPUT_FILE_FORMATS = ["pcm_s16le_16", "other"] as const;

export const stsMessages = {
  /** speech-generation.md §8, shown by the voice changer. */
  conversionFailed: "Conversion failed",
  somethingWentWrong: "Something went wrong. Please try again.",
  audioTooLarge: (mb: number) => `The audio file is larger than ${mb} MB.`,
  audioTooLong: (minutes: number) => `The audio is longer than ${minutes} minutes.`,
  audioUnreadable:
    "The audio could not be read. Upload WAV, MP3, Ogg (Opus or Vorbis), FLAC, M4A or WebM audio, or raw 16-bit 16 kHz mono PCM with file_format=pcm_s16le_16.",
  modelCannotConvert: (id: string) => `The model ${id} cannot do voice conversion. Please choose another model.`,
  modelNotFound: (id: string) => `The model ${id} does not exist. List the models with GET /v1/models.`,
  notRegenerable: "This history item has no kept input to convert again (only speech-to-speech items do).",
} as const;

/** The text fields of the speech-to-speech form (the file `audio` is checked separately). */
export const SpeechToSpeechForm = z.object({
  model_id: z.string().max(64).optional(),
  voice_settings: z.string().max(4096).optional(),
  seed: z.coerce.number().int().min(0).max(4_294_967_295).optional(),
  remove_background_noise: q.bool().optional(),
  file_format: z.enum(INPUT_FILE_FORMATS).optional(),
});

export const AudioIsolationForm = z.object({
  file_format: z.enum(INPUT_FILE_FORMATS).optional(),
  preview_b64: z.string().max(1024 * 1024).optional(),
});

export const AudioQuery = (streaming: boolean) =>
  z.object({
    output_format: z.enum((streaming ? STREAMING_OUTPUT_FORMATS : OUTPUT_FORMATS) as unknown as [string, ...string[]]).default("mp3_44100_128"),
    enable_logging: q.bool().default(true),
    optimize_streaming_latency: z.coerce.number().int().min(0).max(4).nullish(),
  });
