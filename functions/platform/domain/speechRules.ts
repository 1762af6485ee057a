import type { VoiceRecord } from "../stores/voices.js";
import { findModel, DEFAULT_TTS_MODEL_ID, type ModelInfo } from "./models.js";
import { minimumTierFor, type Tier } from "./tiers.js";
import { ApiError } from "../http/errors.js";
import { pvcMessages } from "../contract/pvc.js";

/** Limits and checks shared by text to speech and dialogue (speech-generation.md §5, §9). */
export const GLOBAL_MAX_TEXT_LENGTH = 40_000;
export const DIALOGUE_MAX_BLOCKS = 50;
export const DEFAULT_DIALOGUE_MODEL_ID = "eleven_v3";

export const dialogueMessages = {
  tooManyBlocks: "You have reached the maximum number of dialogues in this speech.",
  tooManyCharacters: (n: number) => `You can only have up to ${n.toLocaleString("en-US")} characters in the speech.`,
};

export function maxTextLength(model: ModelInfo): number {
  return Math.min(model.maximum_text_length_per_request, GLOBAL_MAX_TEXT_LENGTH);
}

export function resolveTtsModel(modelId: string | null | undefined, fallback = DEFAULT_TTS_MODEL_ID): ModelInfo {
  const id = modelId ?? fallback;
  const model = findModel(id);
  if (!model) throw new ApiError(400, "model_not_found", `The model ${id} does not exist. List the models with GET /v1/models.`);
  if (!model.can_do_text_to_speech) throw new ApiError(400, "model_can_not_do_text_to_speech", `The model ${id} cannot do text to speech. Please choose another model.`);
  return model;
}

export function assertLanguage(model: ModelInfo, languageCode: string | null | undefined): void {
  if (!languageCode) return;
  const primary = languageCode.toLowerCase().split("-")[0];
  if (!model.languages.some((l) => l.language_id === primary)) {
    const suggestion = model.languages.length === 1 ? " Try eleven_multilingual_v2 or eleven_flash_v2_5." : "";
    throw new ApiError(400, "unsupported_language", `The model ${model.model_id} does not support the language '${languageCode}'.${suggestion}`);
  }
}

export function assertOutputFormat(tier: Tier, format: string): void {
  if (tier.outputFormats.includes(format)) return;
  const needed = minimumTierFor(format);
  throw new ApiError(
    403,
    "output_format_not_allowed",
    `The output format ${format} is not available on the ${tier.name} plan${needed ? `; it needs the ${needed.name} plan or above` : ""}.`,
  );
}

/**
 * A voice is usable (speech-generation.md §5) when it needs no verification or is verified, and
 * its safety control allows it: BAN never, CAPTCHA once verified. (Library terms, such as the end
 * of a notice period, are checked by the voice library.)
 */
export function assertVoiceUsable(voice: VoiceRecord, model?: ModelInfo): void {
  const { requires_verification, is_verified } = voice.verification;
  if (voice.safety_control === "BAN" || voice.safety_control === "ENTERPRISE_BAN") {
    throw new ApiError(403, "detected_blocked_voice", `The voice ${voice.name} has been blocked and cannot be used.`);
  }
  if ((voice.safety_control === "CAPTCHA" || voice.safety_control === "ENTERPRISE_CAPTCHA") && !is_verified) {
    throw new ApiError(403, "detected_captcha_voice", `The voice ${voice.name} must pass a voice captcha before it can be used.`);
  }
  if (requires_verification && !is_verified) {
    throw new ApiError(403, "voice_not_verified", `The voice ${voice.name} must be verified before it can be used.`);
  }
  if (model) assertFineTunedFor(voice, model);
}

/**
 * A professional clone speaks only with models it is fine-tuned for, and not with one it is being
 * fine-tuned for now (speech-generation.md §4: the warning and the switch to Multilingual v2).
 * Library copies of professional voices carry their owner's tuning and are not checked here.
 */
export function assertFineTunedFor(voice: VoiceRecord, model: ModelInfo): void {
  if (voice.category !== "professional" || voice.sharing?.original_voice_id) return;
  const state = voice.fine_tuning.state[model.model_id];
  if (state === "fine_tuning" || state === "queued") throw new ApiError(400, "voice_fine_tuning", pvcMessages.voiceBeingTuned(voice.name, model.model_id));
  if (!voice.high_quality_base_model_ids.includes(model.model_id)) throw new ApiError(400, "voice_not_fine_tuned", pvcMessages.voiceNotTunedFor(voice.name, model.model_id));
}
