import { useState, type ReactNode } from "react";
import { Dialog } from "../Dialog.js";

/** "Are you sure?" with the action's own name on its button; the error stays in the dialog. */
export function ConfirmDialog({ title, confirmLabel, danger = true, onConfirm, onClose, children }: {
  title: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<string | null>;
  onClose: () => void;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    setError(null);
    const failure = await onConfirm();
    setBusy(false);
    if (failure) setError(failure);
  }
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <p className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className={danger ? "button button-danger" : "button button-primary"} onClick={confirm} disabled={busy}>
            {busy ? "Working…" : confirmLabel}
          </button>
        </p>
      }
    >
      {children}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
