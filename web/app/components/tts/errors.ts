import { z } from "zod";

/** Speech generation errors by status (speech-generation.md §8), as the page shows them. */
export const speechErrorMessages = {
  systemBusy: "We are sorry, the system is busy, try again...",
  generic: "We are sorry, something went wrong. You were not charged for this request (unless the result appears in the history).",
  updateSubscription: "Update subscription?",
  unusualActivity: "We detected unusual activity on your account, so this request was not processed. Please contact support if you think this is a mistake.",
  blockedVoice: "This voice has been blocked and can no longer be used. Please choose another voice.",
  captchaVoice: "This voice needs a verification before it can be used. Please verify it, or choose another voice.",
} as const;

export const SUBSCRIPTION_PATH = "/app/settings/subscription";

export type SpeechErrorView =
  | { kind: "unusual_activity"; title: string; message: string }
  | { kind: "blocked_voice"; title: string; message: string }
  | { kind: "captcha_voice"; title: string; message: string }
  | { kind: "subscription"; title: string; message: string }
  | { kind: "message"; title: string; message: string }
  | { kind: "validation"; title: string; message: string };

const DomainError = z.object({ detail: z.object({ status: z.string(), message: z.string().nullish() }) });
const ValidationErrors = z.object({ detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string() })).min(1) });

const capitalise = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** "Text must not be empty (body > text)": the capitalised message with its location. */
export function validationMessage(issue: { loc: readonly (string | number)[]; msg: string }): string {
  const loc = issue.loc.map(String).filter((p) => p !== "");
  return loc.length ? `${capitalise(issue.msg)} (${loc.join(" > ")})` : capitalise(issue.msg);
}

/** What a failed generation shows, from its HTTP status and JSON body (undefined when there was none). */
export function speechErrorView(httpStatus: number, body: unknown): SpeechErrorView {
  const validation = ValidationErrors.safeParse(body);
  if (validation.success) {
    return { kind: "validation", title: "Invalid request", message: validation.data.detail.map(validationMessage).join("\n") };
  }
  const domain = DomainError.safeParse(body);
  const status = domain.success ? domain.data.detail.status : undefined;
  const message = domain.success ? domain.data.detail.message?.trim() || undefined : undefined;
  switch (status) {
    case "detected_unusual_activity":
      return { kind: "unusual_activity", title: "Unusual activity detected", message: speechErrorMessages.unusualActivity };
    case "detected_blocked_voice":
      return { kind: "blocked_voice", title: "Voice blocked", message: speechErrorMessages.blockedVoice };
    case "detected_captcha_voice":
    case "is_in_probation":
      return { kind: "captcha_voice", title: "Voice verification required", message: speechErrorMessages.captchaVoice };
    case "payment_issue":
    case "quota_exceeded":
    case "too_many_concurrent_requests":
      return { kind: "subscription", title: "Unable to generate", message: message ?? speechErrorMessages.generic };
    case "system_busy":
      return { kind: "message", title: "Unable to generate", message: speechErrorMessages.systemBusy };
  }
  if (httpStatus === 0) return { kind: "message", title: "Unable to generate", message: speechErrorMessages.generic };
  return { kind: "message", title: "Unable to generate", message: message ?? speechErrorMessages.generic };
}
