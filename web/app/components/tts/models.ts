import { GLOBAL_MAX_TEXT_LENGTH, DEFAULT_DIALOGUE_MODEL_ID } from "../../../../functions/platform/domain/speechRules.js";
import { voiceDisplayName } from "./voices.js";

/** Model choice, text limits and credit cost (speech-generation.md §4, §9). */
export type SpeechTask = "tts" | "sts";

export const DEFAULT_MODEL_FOR_TASK: Record<SpeechTask, string> = {
  tts: "eleven_multilingual_v2",
  sts: "eleven_multilingual_sts_v2",
};
export { DEFAULT_DIALOGUE_MODEL_ID };

export const modelMessages = {
  noModelForTask: "No model found for this task. Please select another task.",
  notFineTuned: (voice: string, model: string, fallback: string) => `${voice} is not fine-tuned for ${model}, so the model was switched to ${fallback}.`,
} as const;

/** Credit cost is shown against this many credits; above it the user is pointed to Studio. */
export const COST_REFERENCE_CREDITS = 5_000;

export interface ModelLike {
  model_id: string;
  name: string;
  can_do_text_to_speech: boolean;
  can_do_voice_conversion: boolean;
  maximum_text_length_per_request: number;
  model_rates: { character_cost_multiplier: number };
}

export interface VoiceLike {
  name: string;
  category: string;
  high_quality_base_model_ids: readonly string[];
}

export const canDoTask = (m: ModelLike, task: SpeechTask) => (task === "tts" ? m.can_do_text_to_speech : m.can_do_voice_conversion);

/**
 * The model to use after the task (tab) changes: the current one when it can do the task,
 * otherwise the task's default, otherwise the first capable model; null (with the spec's
 * message) when no model can.
 */
export function modelForTask(models: readonly ModelLike[], currentId: string | null, task: SpeechTask): { modelId: string | null; error: string | null } {
  const current = models.find((m) => m.model_id === currentId);
  if (current && canDoTask(current, task)) return { modelId: current.model_id, error: null };
  const preferred = models.find((m) => m.model_id === DEFAULT_MODEL_FOR_TASK[task] && canDoTask(m, task)) ?? models.find((m) => canDoTask(m, task));
  return preferred ? { modelId: preferred.model_id, error: null } : { modelId: null, error: modelMessages.noModelForTask };
}

/**
 * A professional voice needs a model it is fine-tuned for (its high_quality_base_model_ids);
 * otherwise the model switches to the task's multilingual default, with a warning.
 */
export function modelForVoice(models: readonly ModelLike[], currentId: string, voice: VoiceLike, task: SpeechTask): { modelId: string; warning: string | null } {
  if (voice.category !== "professional" || voice.high_quality_base_model_ids.includes(currentId)) return { modelId: currentId, warning: null };
  const fallbackId = DEFAULT_MODEL_FOR_TASK[task];
  const name = (id: string) => models.find((m) => m.model_id === id)?.name ?? id;
  return { modelId: fallbackId, warning: modelMessages.notFineTuned(voiceDisplayName(voice.name), name(currentId), name(fallbackId)) };
}

/** The most characters one request may carry: the model's limit, capped by the global one. */
export function textLimit(model: Pick<ModelLike, "maximum_text_length_per_request">): number {
  return Math.min(model.maximum_text_length_per_request, GLOBAL_MAX_TEXT_LENGTH);
}

/** Credits a generation costs: characters times the model's multiplier, rounded up (as /v1 charges). */
export function creditCost(characters: number, multiplier: number): number {
  return Math.ceil(Math.max(0, characters) * Math.max(0, multiplier));
}

/** The cost indicator: the share of 5,000 credits (capped at 100%) and whether to suggest Studio. */
export function costIndicator(cost: number): { percent: number; useStudio: boolean } {
  return { percent: Math.min(100, (cost / COST_REFERENCE_CREDITS) * 100), useStudio: cost > COST_REFERENCE_CREDITS };
}

/** "×0.5" style multiplier text. */
export function formatMultiplier(multiplier: number): string {
  return `${Number(multiplier.toFixed(2))}x`;
}

/** A compact list of language names: the first few, then "+N more". */
export function summariseLanguages(languages: readonly { name: string }[], shown = 4): string {
  const names = languages.map((l) => l.name);
  return names.length <= shown ? names.join(", ") : `${names.slice(0, shown).join(", ")} +${names.length - shown} more`;
}
