import { useCallback, useEffect } from "react";
import { useSearchParams } from "@remix-run/react";
import { VoiceDesignDialog } from "../voice-design/VoiceDesignDialog.js";
import { InstantCloneDialog } from "../instant-clone/InstantCloneDialog.js";
import { CREATION_TYPE_RESET_MS } from "../voices/creation.js";

/** The share-link and edit parameters that belong to an open dialog, dropped when it closes. */
const DIALOG_PARAMS = ["mode", "action", "voiceId", "prompt", "previewText", "seed", "loudness", "quality", "guidanceScale"];

/** Whether the query opens one of these dialogs. */
export function creationDialogOpen(params: URLSearchParams): boolean {
  const type = params.get("creationType");
  const mode = params.get("mode") ?? params.get("action");
  return (type === "voiceDesign" && mode === "create") || (type === "cloneVoice" && (mode === "create" || mode === "edit" || mode === "verify"));
}

/** The query once a dialog has closed: its own parameters go, the type stays until the reset. */
export function closedParams(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const k of DIALOG_PARAMS) next.delete(k);
  return next;
}

/**
 * Closing resets the type to the chooser (no creationType: its default) a second later
 * (voice-creation.md §2.1), after the Add a new voice dialog and these dialogs alike. The
 * shell's query-dialog host keeps this mounted on every page, so the timer outlives the dialog.
 */
export function useCreationTypeReset() {
  const [params, setParams] = useSearchParams();
  const open = params.has("mode") || params.has("action");
  const type = params.get("creationType");
  useEffect(() => {
    if (open || type === null) return;
    const timer = setTimeout(() => {
      setParams(
        (prev) => {
          if (prev.has("mode") || prev.has("action")) return prev;
          const next = new URLSearchParams(prev);
          next.delete("creationType");
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
    }, CREATION_TYPE_RESET_MS);
    return () => clearTimeout(timer);
  }, [open, type, setParams]);
}

/**
 * Opens the Voice Design dialog (creationType=voiceDesign with mode=create, or the voice-design
 * link's action=create) and the Instant Voice Clone dialog (creationType=cloneVoice with mode
 * create, edit or verify; voiceId names the voice for edit and verify) over any page.
 */
export function VoiceCreationDialogs() {
  const [params, setParams] = useSearchParams();
  const type = params.get("creationType");
  const mode = params.get("mode") ?? params.get("action");
  // Closing is a change of the type's state, so it is added to history (§2.1).
  const close = useCallback(() => setParams((prev) => closedParams(prev), { preventScrollReset: true }), [setParams]);

  if (type === "voiceDesign" && mode === "create") return <VoiceDesignDialog params={params} onClose={close} />;
  if (type === "cloneVoice" && (mode === "create" || mode === "edit" || mode === "verify")) {
    return <InstantCloneDialog key={`${mode}:${params.get("voiceId") ?? ""}`} mode={mode} voiceId={params.get("voiceId")} onClose={close} />;
  }
  return null;
}
