import { runPasswordTask, type PasswordTask } from "../domain/passwords-work.js";
import { lexiconTask, type LexiconTask } from "../dictionaries/lexicon-task.js";
import { resizePhoto, type PhotoTask } from "../account/photo-work.js";

/**
 * The CPU-heavy pure functions the request path needs (hashing, parsing). Each takes and
 * returns structured-cloneable data, so it can run in a worker thread or inline unchanged.
 */
export const CPU_TASKS = {
  password: (t: PasswordTask) => runPasswordTask(t),
  lexicon: (t: LexiconTask) => lexiconTask(t),
  photo: (t: PhotoTask) => resizePhoto(t),
};

export type CpuTaskKind = keyof typeof CPU_TASKS;
export type CpuInput<K extends CpuTaskKind> = Parameters<(typeof CPU_TASKS)[K]>[0];
export type CpuOutput<K extends CpuTaskKind> = Awaited<ReturnType<(typeof CPU_TASKS)[K]>>;
export interface CpuMessage {
  kind: CpuTaskKind;
  input: unknown;
}

export function runTask(m: CpuMessage): Promise<unknown> {
  const fn = CPU_TASKS[m.kind] as (input: unknown) => unknown;
  return Promise.resolve(fn(m.input));
}
