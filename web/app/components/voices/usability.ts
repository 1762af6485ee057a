/**
 * Whether a voice can be used, and if not, why (speech-generation.md §5): a banned voice never,
 * a CAPTCHA voice once verified, a voice that needs verification once verified, and a voice added
 * from the library until its notice period ends. The API refuses the same voices
 * (functions/platform/domain/speechRules.ts, functions/capabilities/voices/library.ts); the picker shows them disabled
 * with the reason instead of letting a generation fail.
 */
export const usabilityMessages = {
  blocked: "This voice has been blocked and cannot be used.",
  captcha: "This voice must pass a voice captcha before it can be used.",
  notVerified: "This voice must be verified before it can be used.",
  removed: "This voice was removed from the Voice Library by its owner and no longer works.",
} as const;

export interface UsabilityFields {
  safety_control: string | null;
  voice_verification: { requires_verification: boolean; is_verified: boolean } | null;
  sharing: { status: string } | null;
}

export type Usability = { usable: true; reason: null } | { usable: false; reason: string };

export function voiceUsability(v: UsabilityFields): Usability {
  const verified = v.voice_verification?.is_verified ?? true;
  if (v.safety_control === "BAN" || v.safety_control === "ENTERPRISE_BAN") return { usable: false, reason: usabilityMessages.blocked };
  if ((v.safety_control === "CAPTCHA" || v.safety_control === "ENTERPRISE_CAPTCHA") && !verified) return { usable: false, reason: usabilityMessages.captcha };
  if (v.voice_verification?.requires_verification && !verified) return { usable: false, reason: usabilityMessages.notVerified };
  if (v.sharing?.status === "copied_disabled") return { usable: false, reason: usabilityMessages.removed };
  return { usable: true, reason: null };
}
