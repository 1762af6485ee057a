import { Link } from "@remix-run/react";
import { SUBSCRIPTION_PATH, speechErrorMessages, type SpeechErrorView } from "./errors.js";
import { Dialog } from "../Dialog.js";

/** A failed generation, as speech-generation.md §8 shows it. */
export function SpeechErrorDialog({ error, onClose }: { error: SpeechErrorView; onClose: () => void }) {
  return (
    <Dialog
      title={error.title}
      onClose={onClose}
      footer={
        <p className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </p>
      }
    >
      <p className="speech-error-message" data-kind={error.kind}>
        {error.message}
        {error.kind === "subscription" && (
          <>
            {" "}
            <Link to={SUBSCRIPTION_PATH} onClick={onClose}>
              {speechErrorMessages.updateSubscription}
            </Link>
          </>
        )}
      </p>
    </Dialog>
  );
}
