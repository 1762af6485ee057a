import { z } from "zod";
import type { AppContext } from "../../platform/context.js";
import { ApiError } from "../../platform/http/errors.js";

/**
 * Errors the web app met in a browser (a page that crashed, an unhandled rejection, the
 * assistant's speech recognition failing), reported to the server's log instead of staying in the
 * browser's console (issue 28 §9). Bounded in size and in rate: a page that loops on an error, or
 * someone posting on purpose, fills neither the log nor the memory.
 */
export const CLIENT_ERROR_LIMITS = {
  messageChars: 2000,
  stackChars: 8000,
  whereChars: 200,
  pathChars: 1000,
  /** Reports per reporter (a user, or a visitor's address) in a minute. */
  perMinute: 30,
  /** Reporters remembered for the rate; the oldest is forgotten beyond this. */
  reporters: 10_000,
} as const;

export const ClientErrorBody = z.object({
  message: z.string().trim().min(1).max(CLIENT_ERROR_LIMITS.messageChars),
  where: z.string().trim().min(1).max(CLIENT_ERROR_LIMITS.whereChars),
  fatal: z.boolean(),
  kind: z.enum(["render", "error", "unhandled_rejection", "speech_recognition", "other"]).default("other"),
  stack: z.string().max(CLIENT_ERROR_LIMITS.stackChars).nullish(),
  path: z.string().max(CLIENT_ERROR_LIMITS.pathChars).nullish(),
});
export type ClientError = z.infer<typeof ClientErrorBody>;

const windows = new WeakMap<AppContext, Map<string, { start: number; count: number }>>();

/** Counts one report of `reporter`; 429 with Retry-After past the minute's allowance. */
export function countClientError(ctx: AppContext, reporter: string, nowMs = ctx.now()): void {
  let seen = windows.get(ctx);
  if (!seen) windows.set(ctx, (seen = new Map()));
  const w = seen.get(reporter);
  if (!w || nowMs - w.start >= 60_000) {
    seen.delete(reporter);
    seen.set(reporter, { start: nowMs, count: 1 });
    if (seen.size > CLIENT_ERROR_LIMITS.reporters) seen.delete(seen.keys().next().value!);
    return;
  }
  if (w.count >= CLIENT_ERROR_LIMITS.perMinute) {
    const wait = Math.max(1, Math.ceil((w.start + 60_000 - nowMs) / 1000));
    throw new ApiError(429, "too_many_client_errors", "Too many error reports. Please wait a minute.", { "retry-after": String(wait) });
  }
  w.count++;
}

/** Writes the report to the server's log, with who reported it. */
export function logClientError(ctx: AppContext, report: ClientError, who: { userId?: string; workspaceId?: string; address?: string }): void {
  ctx.log.warn("client error", {
    client_error: { kind: report.kind, where: report.where, fatal: report.fatal, message: report.message, stack: report.stack ?? undefined, path: report.path ?? undefined },
    user_id: who.userId,
    workspace_id: who.workspaceId,
    address: who.userId ? undefined : who.address,
  });
}
