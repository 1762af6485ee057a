import { z } from "zod";
import { VOICE_DESCRIPTION_MAX, VOICE_NAME_MAX, VoiceLabels } from "./voices.js";

/**
 * The Professional Voice Clone on the wire (contract §3) and in its spec
 * (professional-voice-clone.md; voice-creation.md §2.4): limits, the spec's messages word for
 * word, and the request schemas. zod only, so the wizard checks with exactly what the API checks.
 */
export const PVC = {
  /** §5, §9: per sample, per voice. */
  minSampleSeconds: 30,
  maxSamples: 100,
  /** "1.5 GB" per voice. */
  maxTotalBytes: 1.5 * 1024 ** 3,
  maxTotalLabel: "1.5 GB",
  /** Upload batches (and so any one file) are capped at 200 MB. */
  batchBytes: 200 * 1024 * 1024,
  /** A file longer than this is refused before decoding (a header that says more is not read). */
  maxFileSeconds: 3 * 3600,
  /** Total audio: needed to go on, recommended (Good), Better, Best, and the progress ring's end. */
  minTotalSeconds: 10 * 60,
  recommendedSeconds: 30 * 60,
  goodSeconds: 30 * 60,
  betterSeconds: 60 * 60,
  bestSeconds: 2 * 60 * 60,
  ringMaxSeconds: 2.5 * 60 * 60,
  descriptionMax: VOICE_DESCRIPTION_MAX,
  autoSaveMs: 1000,
  recordingBackupMs: 30_000,
  countdownSeconds: 3,
  recorderMinSeconds: 30,
  confirmWaitSeconds: 3,
  pollMs: 5000,
  scriptMaxBytes: 10 * 1024 * 1024,
  signedUrlCacheSeconds: 3600,
  speakerColours: 6,
  /** Live speech recognition: the spec's chunk, and the 16 kHz PCM it carries. */
  recognitionChunkSeconds: 20,
  recognitionSampleRate: 16_000,
  /** Sample previews (`samples.audio.get`) are the first 30 seconds. */
  previewSeconds: 30,
  /** Trim selections are at least a second long. */
  minTrimMs: 1000,
  /** Points in a sample's visual waveform. */
  waveformPoints: 400,
  /** Presigned uploads: single PUT up to this size, multipart parts of this size above it. */
  singlePutBytes: 16 * 1024 * 1024,
  partBytes: 16 * 1024 * 1024,
  /**
   * Presigned URLs live 15 minutes (a client asks for fresh ones to go on: GET .../uploads/{id});
   * an upload nobody asked about for that long, plus a few minutes for a PUT already under way,
   * is dropped with its bytes.
   */
  uploadUrlSeconds: 15 * 60,
  uploadGraceSeconds: 5 * 60,
  /** Uploads in progress at once, per voice and per workspace (Business has 3 professional voices). */
  maxPendingUploadsPerVoice: 10,
  maxPendingUploadsPerWorkspace: 20,
  verification: { maxAttempts: 5, captchaMaxSeconds: 15, manualFiles: 5, manualBytes: 10 * 1024 * 1024, manualTextMax: 1000 },
} as const;

/** Recorder scripts: languages and styles (the social-media style is labelled Advertisement). */
export const SCRIPT_LANGUAGES = ["en", "zh", "es", "pt", "fr", "de", "ru", "ko", "it", "hr"] as const;
export const SCRIPT_STYLES = [
  { id: "conversational", label: "Conversational" },
  { id: "narrative", label: "Narrative" },
  { id: "social-media", label: "Advertisement" },
] as const;

/** Every message of the wizard, word for word from the spec, in one place. */
export const pvcMessages = {
  // Intro (voice-creation.md §2.4)
  introTitle: "Create a Professional Voice Clone",
  introSubtitle: "The most expressive way to replicate your voice",
  returnToSession: "Return to a session",
  continueEditing: "Continue editing",
  tipsTitle: "Tips for the best results",
  createNewClone: "Create new clone",
  untitledVoice: "Untitled voice",
  planGate: "You need to be on at least the Creator plan to use Professional Voice Cloning",
  // Screens
  recorderTitle: "Record audio samples",
  settingsTitle: "Settings",
  recoverTitle: "Recover unsaved recording",
  verifyTitle: "Verify your voice",
  verificationHistory: "Verification history",
  manualVerificationTitle: (name: string) => `Manual verification request for ${name}`,
  manualVerification: "Manual verification",
  manualVerificationRequested: "Manual verification requested",
  finishTitle: "Your Professional Voice Clone is being prepared",
  finishButton: "Finish and return to Dashboard",
  dropHere: "Drop here!",
  save: "Save",
  autoSaved: "Auto-saved",
  uploading: "Uploading",
  uploaded: (n: number) => `${n}% uploaded`,
  processing: "Processing",
  // Validation (§5)
  nameRequired: "Please give your voice a name",
  descriptionTooLong: "Description should be less than 500 characters",
  sameLanguage: "All audio samples must be in the same language",
  minDuration: "At least 30s of audio is required",
  duplicateFile: "Uploading duplicate files could result in poor clone",
  tooManySamples: "You can only upload 100 samples",
  totalSizeExceeded: (size: string) => `Total upload size is exceeding ${size} limit per voice`,
  durationUnknown: "Could not determine audio duration, try another file",
  recordingTooShort: (n: number) => `Recording is too short. Please record at least ${n}s of audio.`,
  needMoreAudio: (time: string) => `At least ${time} of audio samples is required`,
  confirmContinue: "Are you sure you want to continue?",
  invalidForm: "Some form fields are invalid, please review them before saving.",
  manualNoFiles: "You must provide at least one supporting document.",
  manualTooManyFiles: "You can only upload up to 5 files.",
  manualTooLarge: "File(s) are larger than 10MB.",
  manualTextTooLong: "Supporting Text must be less than 1,000 characters.",
  scriptEmpty: "The script file selected is empty.",
  languageMismatch: "Language Mismatch",
  // Errors (§8)
  alreadyVerified: "You have already verified this voice.",
  maxAttempts: "Maximum voice verification attempts reached.",
  failedToStartFineTuning: "Failed to start fine tuning",
  couldNotSaveAudioSettings: "Could not save audio settings, please try again after some time.",
  couldNotSaveVoice: "Could not save changes to the voice due to an internal error.",
  couldNotUpload: "Could not upload audio samples due to an internal error.",
  uploadFailed: "Upload failed due to an internal error.",
  networkError: "A network error ocurred, please check your connection.",
  manualSent: "Manual verification request has been sent.",
  micDenied: "Microphone access denied. Please enable it in your browser settings.",
  scriptLoadFailed: "Could not load the script file. Try another script or upload your own script.",
  fileNotLoaded: (name: string) => `File ${name} could not be loaded.`,
  separationFailed: "Failed to separate speakers",
  /** Not in the spec (it names the call, not its failure): the sample settings' isolated preview. */
  isolatedPreviewFailed: "Could not prepare the preview without background noise. Please try again.",
  separationStartFailed: "Failed to start speaker separation",
  noSpeakers: "No speakers detected.",
  attemptFailed: "Voice verification attempt failed",
  unknownFailure: "Failed due to an unknown error",
  playRecording: "Play recording",
  tryAgain: "Try again",
  // Fine-tuning (speech-generation.md §4, §8)
  fineTuningAlreadyQueued: "Fine tuning has already been started for this voice and model.",
  voiceBeingTuned: (name: string, model: string) => `The voice ${name} is being fine-tuned for ${model} and cannot be used with it until fine-tuning finishes. Please choose another model.`,
  voiceNotTunedFor: (name: string, model: string) => `The voice ${name} is not fine-tuned for ${model}. Please use eleven_multilingual_v2 or fine-tune the voice for this model.`,
  // Manual verification: Timbre's own wording where the spec gives none.
  manualBadType: (name: string) => `${name} is not a PDF, JPG or PNG document.`,
  manualNotAllowed: "Manual verification is not available on your plan.",
  manualAlreadyPending: "A manual verification request for this voice is already waiting for review.",
  manualRejectedTitle: (name: string) => `Manual verification of ${name} was declined`,
  manualApprovedTitle: (name: string) => `${name} is verified`,
  manualApprovedText: "An administrator approved your manual verification request. You can now fine-tune the voice.",
  manualRejectedIntro: "Your manual verification request was declined:",
  manualPendingText: "Your documents are waiting for an administrator's review. You can still verify with the captcha meanwhile.",
  captchaAlt: "Captcha: the words to read aloud",
} as const;

/** POST /v1/voices/pvc */
export const CreatePvcVoiceBody = z.object({
  name: z.string().max(VOICE_NAME_MAX).refine((s) => s.trim().length > 0, pvcMessages.nameRequired).transform((s) => s.trim()),
  language: z.string().min(2).max(16),
  description: z.string().max(PVC.descriptionMax, pvcMessages.descriptionTooLong).nullish(),
  labels: z.record(z.string().max(50).nullish()).nullish(),
  /** Timbre: the wizard's "Create new clone" makes a draft (listed under 'Return to a session'). */
  is_draft: z.boolean().nullish(),
});

/** POST /v1/voices/pvc/{voice_id} */
export const EditPvcVoiceBody = z.object({
  name: z.string().max(VOICE_NAME_MAX).refine((s) => s.trim().length > 0, pvcMessages.nameRequired).transform((s) => s.trim()).nullish(),
  language: z.string().min(2).max(16).nullish(),
  description: z.string().max(PVC.descriptionMax, pvcMessages.descriptionTooLong).nullish(),
  labels: z.record(z.string().max(50).nullish()).nullish(),
  /** Timbre: Voice Data's Next ends the draft. */
  is_draft: z.boolean().nullish(),
});

/** POST /v1/voices/pvc/{voice_id}/samples/{sample_id} */
export const UpdatePvcSampleBody = z.object({
  remove_background_noise: z.boolean().nullish(),
  selected_speaker_ids: z.array(z.string().max(64)).max(PVC.speakerColours).nullish(),
  trim_start_time: z.number().int().min(0).nullish(),
  trim_end_time: z.number().int().min(0).nullish(),
  file_name: z.string().min(1).max(255).nullish(),
});

/** POST /v1/voices/pvc/{voice_id}/train */
export const TrainPvcBody = z.object({ model_id: z.string().max(64).nullish() });

/** Timbre: POST /v1/voices/pvc/{voice_id}/uploads (a presigned upload straight to storage). */
export const StartUploadBody = z.object({
  file_name: z.string().min(1).max(255),
  content_type: z.string().max(100).default("application/octet-stream"),
  size_bytes: z.number().int().min(1),
  remove_background_noise: z.boolean().default(false),
  /** Warnings the user chose to skip ('Upload' on a duplicate). */
  skip_warnings: z.array(z.enum(["duplicate_file"])).max(1).default([]),
});

/** Timbre: POST /v1/text/detect-language */
export const DetectLanguageBody = z.object({ text: z.string().max(100_000) });

/** POST /v1/forced-alignment limits. */
export const FORCED_ALIGNMENT = { maxTextChars: 10_000, maxAudioSeconds: 10 * 60, maxBytes: 100 * 1024 * 1024 } as const;

export { VoiceLabels };
