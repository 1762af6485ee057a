import { Link, useSearchParams } from "@remix-run/react";
import { useEffect, useMemo } from "react";
import { usePermissions } from "../../lib/shell.js";
import { Dialog } from "../Dialog.js";
import { Icon } from "../Icon.js";
import type { IconName } from "../../lib/nav.js";
import {
  CREATION_TILES,
  CREATION_TYPE_PARAM,
  closeCreation,
  creationTiles,
  isCreationOpen,
  openCreation,
  resetCreationType,
  resolveCreationType,
  type FlowType,
} from "./creation.js";
import type { VoiceSlots } from "./wire.js";
import { PvcWizard } from "../pvc/PvcWizard.js";
import { createFlagParams } from "./cloneLinks.js";

const TILE_ICONS: Record<FlowType | "voiceLibrary", IconName> = {
  voiceDesign: "waveform",
  cloneVoice: "voices",
  professionalVoiceClone: "studio",
  voiceLibrary: "search",
};

export const VOICE_LIBRARY_PATH = "/app/voice-library";

/** The "Add a new voice" button: opens the dialog on the chooser (pushed to history). */
export function AddNewVoiceButton() {
  const [params, setParams] = useSearchParams();
  return (
    <button type="button" className="button button-primary" onClick={() => setParams(openCreation(params), { preventScrollReset: true })}>
      <Icon name="plus" size={16} />
      Add a new voice
    </button>
  );
}

/**
 * The Add a new voice dialog (voice-creation.md §2.1): Voice Design, Instant Voice Clone,
 * Professional Voice Clone and Voice Library. Voice Design and Instant Voice Clone open their own
 * dialogs (components/voice-design, instant-clone); Professional Voice Clone says it is not here yet. The query string is the state: `mode=create` opens it,
 * `creationType` holds the choice.
 */
export function AddNewVoiceDialog({ slots }: { slots: VoiceSlots | null }) {
  const [params, setParams] = useSearchParams();
  const permissions = usePermissions();
  const ctx = useMemo(() => ({ permissions: permissions ?? new Set<string>(), slots }), [permissions, slots]);
  const open = isCreationOpen(params);
  const raw = params.get(CREATION_TYPE_PARAM);
  const type = resolveCreationType(raw, ctx);
  const tiles = creationTiles(ctx);

  // A type this user may not use goes back to the chooser (a correction, so it replaces).
  useEffect(() => {
    if (!open || !permissions || raw === null || raw === type) return;
    setParams((prev) => resetCreationType(prev), { replace: true, preventScrollReset: true });
  }, [open, permissions, raw, type, setParams]);

  // `create=true` (a link into the voice lab) opens the dialog: the flag becomes mode=create.
  useEffect(() => {
    const opened = createFlagParams(params);
    if (opened) setParams(opened, { replace: true, preventScrollReset: true });
  }, [params, setParams]);

  // Closing resets the type to the chooser a second later: useCreationTypeReset in the shell's
  // QueryDialogs does it on every page, for this dialog and the creation dialogs alike.

  if (!open) return null;
  const choose = (t: FlowType | "chooseVoiceType") => setParams((prev) => openCreation(prev, t), { preventScrollReset: true });
  const close = () => setParams((prev) => closeCreation(prev), { preventScrollReset: true });

  if (type === "professionalVoiceClone") return <PvcWizard onBack={() => choose("chooseVoiceType")} onClose={close} slots={slots} />;

  // Voice Design and Instant Voice Clone are dialogs of their own, opened by the same query over
  // any page (components/voice-creation, mounted by the shell's QueryDialogs).
  if (type === "voiceDesign" || type === "cloneVoice") return null;

  return (
    <Dialog title="Add a new voice" onClose={close}>
      <ul className="creation-tiles" aria-label="Voice types">
        {(["voiceDesign", "cloneVoice", "professionalVoiceClone", "voiceLibrary"] as const).map((t) => {
          const state = tiles[t];
          const copy = CREATION_TILES[t];
          const body = (
            <>
              <span className="creation-tile-icon" aria-hidden="true">
                <Icon name={TILE_ICONS[t]} />
              </span>
              <span className="creation-tile-text">
                <span className="creation-tile-title">{copy.title}</span>
                <span className="creation-tile-description">{copy.description}</span>
                {!state.allowed && <span className="creation-tile-reason">{state.reason}</span>}
              </span>
            </>
          );
          return (
            <li key={t}>
              {t === "voiceLibrary" && state.allowed ? (
                <Link className="creation-tile" to={VOICE_LIBRARY_PATH}>
                  {body}
                </Link>
              ) : (
                <button type="button" className="creation-tile" disabled={!state.allowed} onClick={() => t !== "voiceLibrary" && choose(t)}>
                  {body}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}
