import { readStored, STORAGE_KEYS, writeStored } from "./persist.js";
import { canDoTask, modelForTask, type ModelLike, type SpeechTask } from "../components/tts/models.js";

/**
 * The model of each speech tab (speech-generation.md §4, model switching): the voice changer
 * switches to a model that can do voice conversion, and text to speech back to one that can do
 * text to speech. Each tab remembers the model last chosen on it (in this browser), so going to
 * the other tab and back returns to it.
 */
const KEY = { tts: STORAGE_KEYS.ttsModel, sts: STORAGE_KEYS.stsModel } as const;

export function rememberTaskModel(task: SpeechTask, modelId: string): void {
  writeStored(KEY[task], modelId);
}

/** The model to show on `task`'s tab: the one remembered for it when it still can, else the task's default. */
export function taskModel(models: readonly ModelLike[], task: SpeechTask, current: string | null = null): { modelId: string | null; error: string | null } {
  const remembered = readStored(KEY[task]);
  const model = models.find((m) => m.model_id === remembered);
  if (model && canDoTask(model, task)) return { modelId: model.model_id, error: null };
  return modelForTask(models, current, task);
}
