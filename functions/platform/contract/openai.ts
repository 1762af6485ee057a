import { z } from "zod";

/**
 * The OpenAI-compatible speech API under /openai/v1 (issue 25 §4): request shapes, limits and
 * messages. The /v1 paths are ElevenLabs'; this base path speaks OpenAI's wire format.
 */
export const OPENAI_BASE_PATH = "/openai/v1";

/** OpenAI's limit on `input`, in characters (code points), checked before any work. */
export const OPENAI_MAX_INPUT = 4096;
/** `instructions` is a sentence or two of direction; longer is refused before any work. */
export const OPENAI_MAX_INSTRUCTIONS = 4096;
/** OpenAI's `speed` range; Timbre clamps it onto its own (see the capability's README). */
export const OPENAI_SPEED_MIN = 0.25;
export const OPENAI_SPEED_MAX = 4;
/** A blend `a(2)+b(1)` mixes at most this many voices, each weight in (0, 100]. */
export const OPENAI_MAX_BLEND_VOICES = 8;
export const OPENAI_MAX_BLEND_WEIGHT = 100;

export const OPENAI_RESPONSE_FORMATS = ["mp3", "opus", "aac", "flac", "wav", "pcm"] as const;
export type OpenAIResponseFormat = (typeof OPENAI_RESPONSE_FORMATS)[number];

export const OpenAISpeechBody = z.object({
  model: z.string({ required_error: "Field required" }).min(1).max(128),
  input: z.string({ required_error: "Field required" }),
  voice: z.union([z.string().min(1).max(1024), z.object({ id: z.string().min(1).max(128) })]),
  response_format: z.string().max(32).nullish(),
  speed: z.number().nullish(),
  instructions: z.string().nullish(),
  stream_format: z.enum(["audio", "sse"]).nullish(),
});
export type OpenAISpeechBody = z.infer<typeof OpenAISpeechBody>;

export const openaiMessages = {
  inputEmpty: "The input must not be empty.",
  inputTooLong: (n: number) => `The input is ${n} characters long; the maximum is ${OPENAI_MAX_INPUT} characters.`,
  instructionsTooLong: (n: number) => `The instructions are ${n} characters long; the maximum is ${OPENAI_MAX_INSTRUCTIONS} characters.`,
  speedOutOfRange: (s: number) => `The speed ${s} is outside ${OPENAI_SPEED_MIN} to ${OPENAI_SPEED_MAX}.`,
  unsupportedFormat: (f: string, supported: readonly string[]) =>
    `The response_format '${f}' is not supported by this server. Supported formats: ${supported.join(", ")}.`,
  unknownModel: (m: string, known: readonly string[]) => `The model '${m}' does not exist. Use one of: ${known.join(", ")}.`,
  unknownVoice: (v: string) => `The voice '${v}' was not found. List the voices you can use with GET ${OPENAI_BASE_PATH}/audio/voices.`,
  blendSyntax: (v: string) =>
    `The voice '${v}' is not a valid blend. Write voices joined with '+', each optionally weighted: 'a(2)+b(1)'; at most ${OPENAI_MAX_BLEND_VOICES} voices, weights above 0 and up to ${OPENAI_MAX_BLEND_WEIGHT}.`,
  blendMixedLanguages: (names: string[], field: string, values: string[]) =>
    `The voices ${names.join(", ")} cannot be blended: their ${field} differs (${values.join(", ")}). Blend voices of the same ${field}.`,
  blendRemote: (names: string[]) =>
    `The voices ${names.join(", ")} cannot be blended: a remote engine's voice is spoken by its server, which this server cannot mix. Use one of them alone.`,
  missingKey: "You didn't provide an API key. Send it as 'Authorization: Bearer <your Timbre API key>'.",
};
