import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A modal on the native <dialog>: the browser traps focus, closes on Escape (unless
 * `escapeCloses` is false: the clone dialogs, voice-creation.md §2.3) and restores focus.
 * Mounted = open; `onClose` runs however it closes.
 */
export function Dialog({ title, onClose, children, footer, escapeCloses = true }: { title: string; onClose: () => void; children: ReactNode; footer?: ReactNode; escapeCloses?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const escapeRef = useRef(escapeCloses);
  escapeRef.current = escapeCloses;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const handleClose = () => onCloseRef.current();
    // Both the cancel event and the key: Chromium lets a page prevent "cancel" only once per
    // user activation.
    const handleCancel = (e: Event) => {
      if (!escapeRef.current) e.preventDefault();
    };
    const handleKey = (e: KeyboardEvent) => {
      // Only for itself: a dialog opened inside it keeps its own Escape.
      if (e.key === "Escape" && !escapeRef.current && (e.target as Element | null)?.closest("dialog") === dialog) e.preventDefault();
    };
    dialog.addEventListener("close", handleClose);
    dialog.addEventListener("cancel", handleCancel);
    dialog.addEventListener("keydown", handleKey);
    return () => {
      dialog.removeEventListener("close", handleClose);
      dialog.removeEventListener("cancel", handleCancel);
      dialog.removeEventListener("keydown", handleKey);
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId}>
      <div className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={() => ref.current?.close()}>
          ×
        </button>
      </div>
      <div className="dialog-body">{children}</div>
      {footer && <div className="dialog-footer">{footer}</div>}
    </dialog>
  );
}
