import { useSearchParams } from "@remix-run/react";
import type { DialogId } from "../lib/nav.js";
import { AffiliateDialog } from "./engagement/AffiliateDialog.js";
import { DictionariesDialog } from "./dictionaries/DictionariesDialog.js";
import { creationDialogOpen, useCreationTypeReset, VoiceCreationDialogs } from "./voice-creation/VoiceCreationDialogs.js";

/** affiliate=true and pronunciation-dictionaries=true (app-shell.md §2). */
export function QueryDialogs() {
  const [params, setParams] = useSearchParams();
  useCreationTypeReset();
  const close = (name: DialogId) => {
    const next = new URLSearchParams(params);
    next.delete(name);
    setParams(next, { replace: true, preventScrollReset: true });
  };

  if (params.get("pronunciation-dictionaries") === "true") {
    return <DictionariesDialog onClose={() => close("pronunciation-dictionaries")} />;
  }
  // Voice Design and Instant Voice Clone (creationType with mode, voice-creation.md §2).
  if (creationDialogOpen(params)) return <VoiceCreationDialogs />;
  if (params.get("affiliate") === "true") return <AffiliateDialog onClose={() => close("affiliate")} />;
  return null;
}
