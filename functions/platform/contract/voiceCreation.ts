import { z } from "zod";
import { VOICE_DESCRIPTION_MAX, VOICE_NAME_MAX, VoiceLabels, voiceMessages } from "./voices.js";

/**
 * Voice Design (text to voice), Instant Voice Clone and voice verification on the wire
 * (contract §2 `voices.ivc.create`, §7 text to voice) and in the spec (voice-creation.md §5,
 * §8, §9): limits, the spec's messages word for word, and the request schemas. zod only, so
 * the web dialogs check with exactly what the API checks.
 */
export const VOICE_DESIGN_MODELS = ["eleven_multilingual_ttv_v2", "eleven_ttv_v3"] as const;
export type VoiceDesignModel = (typeof VOICE_DESIGN_MODELS)[number];
/** The newer model: reference audio and prompt strength; no quality slider. */
export const VOICE_DESIGN_V3: VoiceDesignModel = "eleven_ttv_v3";

export const PROMPT_MIN = 20;
export const PROMPT_MAX = 1000;
/** Preview text limits (contract §7: "between 100 and 1000"; GET /v1/text-to-voice/text-limits). */
export const PREVIEW_TEXT_MIN = 100;
export const PREVIEW_TEXT_MAX = 1000;
export const SEED_MAX = 2147483647;
/** An empty seed is generated below this (voice-creation.md §9). */
export const AUTO_SEED_BELOW = 1_000_000;
export const DESIGN_DEFAULTS = { loudness: 0.5, quality: 0.9, guidanceScale: 5, promptStrength: 0.25 } as const;
export const GUIDANCE_MIN = 2;
export const GUIDANCE_MAX = 10;
export const PREVIEWS_PER_DESIGN = 3;
/** Reference voice for the newer model (voice-creation.md §5, §9). */
export const REFERENCE_MIN_SECONDS = 3;
export const REFERENCE_MAX_SECONDS = 300;
export const REFERENCE_MAX_BYTES = 20 * 1024 * 1024;
/** Generated previews (design and clone) can be saved as a voice for this long. */
export const GENERATED_VOICE_TTL_SECONDS = 24 * 3600;
/** The model recommendation toast stays this long (voice-creation.md §9). */
export const RECOMMENDATION_TOAST_MS = 10_000;

/** Instant Voice Clone (voice-creation.md §5, §9; the sample limits live in ./voices.ts). */
export const IVC_MIN_TOTAL_SECONDS = 10;
export const IVC_GOAL_SECONDS = 180;
export const RECORDING_MIN_SECONDS = 5;
export const RECORDING_MAX_SECONDS = 30;
/** Verification (voice-creation.md §9). */
export const VERIFICATION_RECORDING_MAX_SECONDS = 15;
export const VERIFICATION_MAX_BYTES = 5 * 1024 * 1024;
export const MAX_ALTERNATIVE_VOICES = 4;
/** The attempt counter resets this long after the first attempt of a window. */
export const VERIFICATION_WINDOW_HOURS = 24;

export const designMessages = {
  promptRequired: "Voice prompt is required",
  promptTooShort: "Voice prompt should be at least 20 characters long",
  promptTooLong: "Voice prompt should be less than 1000 characters",
  previewTextRequired: "Please provide sample text to preview your generated voice",
  previewTextRange: (min: number, max: number) => `Please provide some text between ${min} and ${max} characters.`,
  agreeToTerms: "Please agree to the terms",
  somethingWentWrong: "We are sorry, something went wrong.",
  /** blocked_generation: the spec asks for a policy-violation message saying no charge was made. */
  blockedGeneration:
    "This voice prompt asks to imitate a real, named person, which our content policy does not allow. You have not been charged for this request.",
  unsupportedLanguage: (language: string, spoken: string) =>
    `The voice engine cannot speak ${language}. Describe a voice in one of the languages it speaks: ${spoken}.`,
  referenceTooShort: `Audio file is too short. Please choose a file with at least ${REFERENCE_MIN_SECONDS}s of audio.`,
  referenceTooLong: `Audio file is too long. Please choose a file with at most ${REFERENCE_MAX_SECONDS}s of audio.`,
  referenceTooLarge: `File exceeds the ${REFERENCE_MAX_BYTES / 1024 / 1024}mb limit.`,
  referenceNotOwned: "Only voices you own can be used as a reference.",
  referenceNeedsV3: "Reference audio is only supported with the eleven_ttv_v3 model.",
  microphoneDenied: "Microphone access denied. Please enable it in your browser settings.",
  slotsUsed: "You’ve used all of your custom voice slots. Upgrade to unlock more",
  recommendation: "Try Voice Design v3: more expressive voices, reference audio and prompt strength.",
  generatedVoiceNotFound: (id: string) => `The generated voice ${id} was not found or has expired. Please generate new previews.`,
  couldNotCreate: "Could not create a new voice due to some error",
  /** voice-creation.md §8: the voice is created for the signed-in user; without one, nothing is sent. */
  cantDetermineUserId: "Can't determine userId",
};

export const cloneMessages = {
  starterRequired: "You need to be on at least the Starter plan to use Instant Voice Cloning",
  tooLittleAudio: "10 seconds of audio required",
  recordingTooShort: (n: number) => `Recording is too short. Please record at least ${n}s of audio.`,
  recordingLimit: (n: number) => `We currently only allow a maximum of ${n} seconds of recorded audio, we will lift this limit in the future.`,
  fileTooLargeMb: (name: string, mb: number) => `File "${name}" is larger than ${mb}MB.`,
  fileNotSupported: (name: string) => `File "${name}" is not supported. Please choose an audio file.`,
  fileCouldNotBeAdded: (name: string) => `File "${name}" could not be added, choose another file.`,
  filesTooBig: "Files are too big.",
  perfect: "Perfect!",
  removeBackgroundNoise: "Remove background noise",
  backgroundNoise: "We detected background noise. For the best clone, record somewhere quieter.",
  noAudioDecoded: (name: string) => `The audio of "${name}" could not be read. Please choose another file.`,
  sampleNotOnVoice: (id: string) => `The sample ${id} does not belong to this voice.`,
  ...{ tooManySamples: voiceMessages.tooManySamples, sampleTooShort: voiceMessages.sampleTooShort, samplesTooLong: voiceMessages.samplesTooLong },
};

export const verificationMessages = {
  attemptFailed: "Voice verification attempt failed",
  maxAttempts: "Maximum voice verification attempts reached.",
  maxAttemptsHint: "Please delete this voice clone and create a new one.",
  alreadyVerified: "You have already verified this voice.",
  notRequired: "This voice does not need verification.",
  tooLong: `The recording is longer than ${VERIFICATION_RECORDING_MAX_SECONDS} seconds. Please read the sentence again within ${VERIFICATION_RECORDING_MAX_SECONDS} seconds.`,
  tooShort: "The recording is too short to verify. Please read the whole sentence.",
  differentSpeaker: "The voice in the recording does not match the voice's samples.",
  wrongSentence: "The recording does not match the sentence shown. Please read exactly the sentence shown.",
  noSpeech: "No speech was found in the recording.",
  unknownError: "Failed due to an unknown error",
};

const trimmedText = (max: number) => z.string().max(max * 4);

/** POST /v1/text-to-voice/design and /create-previews, and the remix body's shared fields. */
export const VoiceDesignBody = z.object({
  voice_description: z
    .string({ required_error: designMessages.promptRequired })
    .refine((s) => s.trim().length > 0, designMessages.promptRequired)
    .refine((s) => s.trim().length >= PROMPT_MIN, designMessages.promptTooShort)
    .refine((s) => s.trim().length < PROMPT_MAX, designMessages.promptTooLong),
  model_id: z.enum(VOICE_DESIGN_MODELS).nullish(),
  text: trimmedText(PREVIEW_TEXT_MAX).nullish(),
  auto_generate_text: z.boolean().nullish(),
  loudness: z.number().min(-1).max(1).nullish(),
  quality: z.number().min(-1).max(1).nullish(),
  seed: z.number().int().min(0).max(SEED_MAX).nullish(),
  guidance_scale: z.number().min(0).max(100).nullish(),
  stream_previews: z.boolean().nullish(),
  should_enhance: z.boolean().nullish(),
  remixing_session_id: z.string().max(100).nullish(),
  remixing_session_iteration_id: z.string().max(100).nullish(),
  reference_audio_base64: z.string().max(Math.ceil((REFERENCE_MAX_BYTES * 4) / 3) + 8).nullish(),
  /** Timbre: one of the caller's own voices as the reference (the spec's "variant keyed by a reference voiceId"). */
  reference_voice_id: z.string().max(64).nullish(),
  prompt_strength: z.number().min(0).max(1).nullish(),
});
export type VoiceDesignBody = z.infer<typeof VoiceDesignBody>;

/** POST /v1/text-to-voice/{voice_id}/remix: the description says what to change. */
export const VoiceRemixBody = VoiceDesignBody.omit({ model_id: true, reference_audio_base64: true, reference_voice_id: true, quality: true, should_enhance: true }).extend({
  voice_description: z
    .string({ required_error: designMessages.promptRequired })
    .refine((s) => s.trim().length > 0, designMessages.promptRequired)
    .refine((s) => s.trim().length < PROMPT_MAX, designMessages.promptTooLong),
});

/** POST /v1/text-to-voice and /v1/text-to-voice/create-voice-from-preview. */
export const CreateVoiceFromPreviewBody = z.object({
  voice_name: z.string().max(VOICE_NAME_MAX).refine((s) => s.trim().length > 0, voiceMessages.nameRequired),
  voice_description: z.string().max(PROMPT_MAX),
  generated_voice_id: z.string().min(1).max(64),
  labels: z.record(z.string().max(50).nullish()).nullish(),
  played_not_selected_voice_ids: z.array(z.string().max(64)).max(50).nullish(),
});

/** POST /v1/text-to-voice/generate-preview-text (Timbre; the spec's "Generate preview text"). */
export const PreviewTextBody = z.object({
  voice_description: z.string().min(1).max(PROMPT_MAX * 2),
  model_id: z.enum(VOICE_DESIGN_MODELS).nullish(),
});

/** Instant Voice Clone form fields (POST /v1/voices/add, the preview-first flow). */
export const CloneFields = z.object({
  name: z.string().max(VOICE_NAME_MAX).refine((s) => s.trim().length > 0, voiceMessages.nameRequired).transform((s) => s.trim()),
  description: z.string().max(VOICE_DESCRIPTION_MAX, voiceMessages.descriptionTooLong).nullish(),
  labels: VoiceLabels.nullish(),
  remove_background_noise: z.boolean().default(true),
});

/** POST /v1/voices/ivc/save (Timbre): save a clone preview as a new voice, or as the new state of `voice_id`. */
export const SaveClonePreviewBody = z.object({
  cloned_voice_preview_id: z.string().min(1).max(64),
  voice_name: z.string().max(VOICE_NAME_MAX).refine((s) => s.trim().length > 0, voiceMessages.nameRequired),
  voice_description: z.string().max(VOICE_DESCRIPTION_MAX, voiceMessages.descriptionTooLong).nullish(),
  labels: VoiceLabels.nullish(),
  voice_id: z.string().max(64).nullish(),
});
