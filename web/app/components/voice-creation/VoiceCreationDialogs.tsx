import { useCallback, useEffect, useRef } from "react";
import { useSearchParams } from "@remix-run/react";
import { VoiceDesignDialog } from "../voice-design/VoiceDesignDialog.js";
import { InstantCloneDialog } from "../instant-clone/InstantCloneDialog.js";

/** After a dialog closes, the chosen type goes back to the chooser after 1 s (voice-creation.md §2.1). */
export const TYPE_RESET_DELAY_MS = 1000;

/** Whether the query opens one of these dialogs. */
export function creationDialogOpen(params: URLSearchParams): boolean {
  const type = params.get("creationType");
  const mode = params.get("mode") ?? params.get("action");
  return (type === "voiceDesign" && mode === "create") || (type === "cloneVoice" && (mode === "create" || mode === "edit" || mode === "verify"));
}

/**
 * Opens the Voice Design dialog (creationType=voiceDesign with mode=create, or the voice-design
 * link's action=create) and the Instant Voice Clone dialog (creationType=cloneVoice with mode
 * create, edit or verify; voiceId names the voice for edit and verify) over any page.
 */
export function VoiceCreationDialogs() {
  const [params, setParams] = useSearchParams();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const type = params.get("creationType");
  const mode = params.get("mode") ?? params.get("action");

  const close = useCallback(() => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const k of ["mode", "action", "voiceId", "prompt", "previewText", "seed", "loudness", "quality", "guidanceScale"]) next.delete(k);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setParams(
        (prev) => {
          if (prev.get("mode") || !prev.get("creationType")) return prev;
          const next = new URLSearchParams(prev);
          next.set("creationType", "chooseVoiceType");
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
    }, TYPE_RESET_DELAY_MS);
  }, [setParams]);

  if (type === "voiceDesign" && mode === "create") return <VoiceDesignDialog params={params} onClose={close} />;
  if (type === "cloneVoice" && (mode === "create" || mode === "edit" || mode === "verify")) {
    return <InstantCloneDialog key={`${mode}:${params.get("voiceId") ?? ""}`} mode={mode} voiceId={params.get("voiceId")} onClose={close} />;
  }
  return null;
}
