import type { ReactNode } from "react";

/**
 * The end of a dialog's form: its error (announced), then Cancel and the submit button, which is
 * disabled while the form is being sent.
 */
export function FormActions({ error, onCancel, busy, submit }: { error: string | null; onCancel: () => void; busy: boolean; submit: ReactNode }) {
  return (
    <>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {submit}
        </button>
      </div>
    </>
  );
}
