import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { CsrfInput } from "./Csrf.js";
import { Dialog } from "./Dialog.js";

/**
 * A destructive action confirmed in a dialog: Cancel, or a danger button that posts `intent` and
 * `fields` to the page's action (with the CSRF token) and closes the dialog.
 */
export function ConfirmFormDialog({
  title,
  intent,
  fields,
  confirmLabel,
  onClose,
  children,
}: {
  title: string;
  intent: string;
  fields: Record<string, string>;
  confirmLabel: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <Form method="post" className="dialog-actions" onSubmit={onClose}>
          <CsrfInput />
          <input type="hidden" name="intent" value={intent} />
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-danger">
            {confirmLabel}
          </button>
        </Form>
      }
    >
      {children}
    </Dialog>
  );
}
