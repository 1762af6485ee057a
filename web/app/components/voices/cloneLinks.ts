/**
 * Ways back into a clone (voice-creation.md §2.3, professional-voice-clone.md §2 Wizard
 * container): an instant clone opens its dialog with `mode=edit` or `mode=verify` (voiceId names
 * it); a professional clone opens the wizard inside the Add a new voice dialog with
 * `pvcMode=edit` or `pvcMode=verify` (createdVoiceId names it). Each is the current query with
 * those parameters, so a link pushes it to history and Back closes the dialog.
 */
export interface CloneVoice {
  voice_id: string;
  category: string | null | undefined;
  voice_verification: { requires_verification?: boolean | null; is_verified?: boolean | null } | null | undefined;
}

export type CloneAction = "edit" | "verify";

/** Whether the voice still waits for its owner's verification (a clone left with 'Skip for now'). */
export const needsVerification = (v: CloneVoice) => v.voice_verification?.requires_verification === true && v.voice_verification.is_verified !== true;

/** The actions a clone offers: Edit always, Verify while it needs verification; none for other voices. */
export function cloneActions(v: CloneVoice): CloneAction[] {
  if (v.category !== "cloned" && v.category !== "professional") return [];
  return needsVerification(v) ? ["edit", "verify"] : ["edit"];
}

/** The query string opening the clone's dialog for `action`. */
export function cloneActionParams(params: URLSearchParams, v: CloneVoice, action: CloneAction): URLSearchParams {
  const p = new URLSearchParams(params);
  if (v.category === "professional") {
    p.set("mode", "create");
    p.set("creationType", "professionalVoiceClone");
    p.set("createdVoiceId", v.voice_id);
    p.set("pvcMode", action);
  } else {
    p.set("creationType", "cloneVoice");
    p.set("mode", action);
    p.set("voiceId", v.voice_id);
  }
  return p;
}

/** `create=true` on the voice lab opens the Add a new voice dialog (mode=create), replacing the flag. */
export function createFlagParams(params: URLSearchParams): URLSearchParams | null {
  if (params.get("create") !== "true") return null;
  const p = new URLSearchParams(params);
  p.delete("create");
  p.set("mode", "create");
  return p;
}
