import { Link } from "@remix-run/react";
import { useId, useRef, useState, type FormEvent } from "react";
import { AddSharedVoiceBody, voiceMessages } from "../../../../functions/platform/contract/voices.js";
import { SUBSCRIPTION_PATH } from "../../lib/nav.js";
import { useShell } from "../../lib/shell.js";
import { ApiCallError, v1Json } from "../tts/client.js";
import { voiceDisplayName } from "../tts/voices.js";
import { Dialog } from "../Dialog.js";
import { Field } from "../Field.js";
import { useToast } from "../ui/Toast.js";
import { formatNoticePeriod } from "./library.js";
import { AddVoiceWire, type LibraryVoice } from "./wire.js";
import { ErrorText } from "./ErrorText.js";

export const TTS_PATH = "/app/speech-synthesis/text-to-speech";
export const ttsHref = (voiceId: string) => `${TTS_PATH}?voice_id=${encodeURIComponent(voiceId)}`;

/** The spec's toast when adding fails stays 10 s (app-shell.md §8). */
export const ADD_ERROR_TOAST_MS = 10_000;

type AddState = { step: "form"; error: string | null; adding: boolean } | { step: "added"; voiceId: string; name: string };

/**
 * The voice-add dialog (app-shell.md §2, §4): adds a library voice to My Voices under a name of
 * the user's choice; "adding", then "added" with the new voice's id. A voice whose owner allows
 * paid plans only cannot be added on the free plan (§5's message). A failure shows the toast
 * "Error Adding Voice!" for 10 s and, in the dialog, 'Failed to add voice to my voices.' with
 * the server's reason.
 */
export function AddToMyVoicesDialog({ voice, onClose, onAdded }: { voice: LibraryVoice; onClose: () => void; onAdded: (libraryVoiceId: string, newVoiceId: string) => void }) {
  const shell = useShell();
  const toast = useToast();
  const [state, setState] = useState<AddState>({ step: "form", error: null, adding: false });
  const [name, setName] = useState(voiceDisplayName(voice.name));
  const [nameError, setNameError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const paidOnly = !voice.free_users_allowed && (shell?.subscription.tier ?? "free") === "free";

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (state.step !== "form" || state.adding || paidOnly) return;
    const parsed = AddSharedVoiceBody.safeParse({ new_name: name });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? voiceMessages.nameRequired);
      nameRef.current?.focus();
      return;
    }
    setNameError(null);
    setState({ step: "form", error: null, adding: true });
    try {
      const added = await v1Json(`/v1/voices/add/${encodeURIComponent(voice.public_owner_id)}/${encodeURIComponent(voice.voice_id)}`, AddVoiceWire, {
        method: "POST",
        json: parsed.data,
      });
      setState({ step: "added", voiceId: added.voice_id, name: parsed.data.new_name });
      onAdded(voice.voice_id, added.voice_id);
    } catch (err) {
      const reason = err instanceof ApiCallError ? err.message : null;
      toast.show({ message: voiceMessages.addErrorToast, kind: "error", durationMs: ADD_ERROR_TOAST_MS });
      setState({ step: "form", error: reason && reason !== voiceMessages.addFailed ? `${voiceMessages.addFailed} ${reason}` : voiceMessages.addFailed, adding: false });
    }
  }

  if (state.step === "added") {
    return (
      <Dialog
        title="Voice added"
        onClose={onClose}
        footer={
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              Done
            </button>
            <Link className="button button-primary" to={ttsHref(state.voiceId)}>
              Use in Text to Speech
            </Link>
          </div>
        }
      >
        <p role="status" data-testid="voice-added">
          {state.name} is now one of your voices.
        </p>
      </Dialog>
    );
  }

  return (
    <Dialog title="Add to my voices" onClose={onClose}>
      <form onSubmit={submit} noValidate aria-describedby={state.error ? errorId : undefined}>
        <p className="muted">
          {voiceDisplayName(voice.name)}
          {voice.owner_name ? ` by ${voice.owner_name}` : ""}
        </p>
        <Field
          ref={nameRef}
          name="new_name"
          label="Name in My Voices"
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
          error={nameError ?? undefined}
          required
        />
        <ul className="voice-terms">
          {voice.notice_period !== null && <li>If its owner removes it from the library, you keep it for {formatNoticePeriod(voice.notice_period)}.</li>}
          {voice.rate !== null && voice.rate !== 1 && <li>Generating with it costs {voice.rate}x the usual credits.</li>}
          {voice.live_moderation_enabled && <li>What you generate with it is moderated live.</li>}
        </ul>
        {paidOnly && (
          <p className="inline-warning" role="status">
            {voiceMessages.paidOnly} <Link to={SUBSCRIPTION_PATH}>Update subscription?</Link>
          </p>
        )}
        {state.error && (
          <ErrorText message={state.error} id={errorId} />
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={state.adding || paidOnly}>
            {state.adding ? "Adding…" : "Add voice"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
