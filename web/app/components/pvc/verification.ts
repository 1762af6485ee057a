import { z } from "zod";
import { PVC } from "../../../../functions/platform/contract/pvc.js";

/**
 * The Verification screen's rules (professional-voice-clone.md §4 "Verification attempts"),
 * pure so they are tested without a browser.
 */
export const VerifyVoiceWire = z.object({
  voice_id: z.string(),
  name: z.string(),
  fine_tuning: z
    .object({
      is_allowed_to_fine_tune: z.boolean().nullish(),
      verification_attempts_count: z.number().nullish(),
      max_verification_attempts: z.number().nullish(),
      next_max_verification_attempts_reset_unix_ms: z.number().nullish(),
      manual_verification_requested: z.boolean().nullish(),
      manual_verification: z.object({ status: z.string().nullish(), rejection_reason: z.string().nullish() }).passthrough().nullish(),
      verification_attempts: z
        .array(z.object({ date_unix: z.number(), accepted: z.boolean(), reasons: z.array(z.string()).nullish(), status: z.string().nullish() }).passthrough())
        .nullish(),
    })
    .passthrough()
    .nullish(),
  voice_verification: z.object({ requires_verification: z.boolean().nullish(), is_verified: z.boolean().nullish() }).passthrough().nullish(),
});
export type VerifyVoice = z.infer<typeof VerifyVoiceWire>;
type Attempts = NonNullable<VerifyVoice["fine_tuning"]>;

/** Remaining = max (default 5) minus count. */
export function remainingAttempts(ft: Attempts): number {
  const max = ft.max_verification_attempts ?? PVC.verification.maxAttempts;
  return Math.max(0, max - (ft.verification_attempts_count ?? 0));
}

const resetInFuture = (ft: Attempts, nowMs: number) => ft.next_max_verification_attempts_reset_unix_ms != null && ft.next_max_verification_attempts_reset_unix_ms > nowMs;

/** The attempts-left link: 3 or fewer remain and a reset time is in the future. */
export function attemptsLinkShown(ft: Attempts, nowMs: number): boolean {
  return remainingAttempts(ft) <= 3 && resetInFuture(ft, nowMs);
}

/**
 * The maximum-attempts screen: shown when the count reached the maximum or the server said so;
 * with a reset in the future it says when to try again, otherwise it points to the help center.
 */
export function maxAttemptsScreen(ft: Attempts, serverSaid: boolean, nowMs: number): { shown: boolean; resetMs: number | null } {
  const reached = serverSaid || remainingAttempts(ft) === 0;
  if (!reached) return { shown: false, resetMs: null };
  return { shown: true, resetMs: resetInFuture(ft, nowMs) ? ft.next_max_verification_attempts_reset_unix_ms! : null };
}

/** "in 5 hours", "in 3 minutes", "tomorrow". */
export function relativeTime(atMs: number, nowMs: number): string {
  const s = Math.round((atMs - nowMs) / 1000);
  const f = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  if (Math.abs(s) < 60) return f.format(s, "second");
  if (Math.abs(s) < 3600) return f.format(Math.round(s / 60), "minute");
  if (Math.abs(s) < 86_400) return f.format(Math.round(s / 3600), "hour");
  return f.format(Math.round(s / 86_400), "day");
}
