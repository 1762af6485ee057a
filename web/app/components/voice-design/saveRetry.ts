import { ApiCallError } from "../tts/client.js";

/**
 * Saving a designed voice after its preview (voice-creation.md §7): an invalid generated voice id
 * is retried every 2 seconds up to 30 times (the preview may not be readable yet where it is
 * stored eventually); other failures up to 3 times, 1, 2 then 4 seconds apart. A refusal that
 * retrying cannot change (the request's own fault: a missing name, the voice limit, no permission)
 * is said at once: it carries the message the user must act on.
 */
export const SAVE_RETRY = {
  invalidIdCode: "invalid_generated_voice_id",
  invalidIdDelayMs: 2000,
  invalidIdRetries: 30,
  otherRetries: 3,
  otherBaseDelayMs: 1000,
} as const;

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

/** Whether to try again after `error`, given the retries of each kind already made. */
export function retryDecision(error: unknown, made: { invalidId: number; other: number }): RetryDecision {
  if (error instanceof ApiCallError && error.code === SAVE_RETRY.invalidIdCode) {
    return made.invalidId < SAVE_RETRY.invalidIdRetries ? { retry: true, delayMs: SAVE_RETRY.invalidIdDelayMs } : { retry: false };
  }
  if (error instanceof ApiCallError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) return { retry: false };
  return made.other < SAVE_RETRY.otherRetries ? { retry: true, delayMs: SAVE_RETRY.otherBaseDelayMs * 2 ** made.other } : { retry: false };
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Calls `save` until it succeeds or the policy gives up (then its last error is thrown). `sleep` is injectable for tests. */
export async function saveWithRetry<T>(save: () => Promise<T>, opts: { sleep?: (ms: number) => Promise<void>; signal?: AbortSignal } = {}): Promise<T> {
  const sleep = opts.sleep ?? realSleep;
  const made = { invalidId: 0, other: 0 };
  for (;;) {
    try {
      return await save();
    } catch (e) {
      const d = retryDecision(e, made);
      if (!d.retry || opts.signal?.aborted) throw e;
      if (e instanceof ApiCallError && e.code === SAVE_RETRY.invalidIdCode) made.invalidId++;
      else made.other++;
      await sleep(d.delayMs);
      if (opts.signal?.aborted) throw e;
    }
  }
}
