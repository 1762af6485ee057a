import { useEffect, useId, useRef, type ReactNode } from "react";
import "../../styles/voice-creation.css";

/**
 * The modal of the voice-creation dialogs (Voice Design, Instant Voice Clone): a native <dialog>
 * (focus trapped, page inert), which a click outside never closes (voice-creation.md §2.2); when
 * `escapeCloses` is false, Escape does not close it either (§2.3). Mounted = open.
 */
export function CreationDialog({
  title,
  subtitle,
  onClose,
  escapeCloses,
  children,
  footer,
  testId,
}: {
  title: string;
  subtitle?: ReactNode;
  onClose: () => void;
  escapeCloses: boolean;
  children: ReactNode;
  footer?: ReactNode;
  testId?: string;
}) {
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
    // Escape fires "cancel" first; preventing it keeps the dialog open. Chromium lets a page
    // prevent that only once per user activation (a second Escape closed the dialog), so the
    // key itself is stopped too.
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
    <dialog ref={ref} className="dialog creation-dialog" aria-labelledby={titleId} data-testid={testId}>
      <div className="dialog-header">
        <div>
          <h2 id={titleId}>{title}</h2>
          {subtitle && <p className="creation-subtitle">{subtitle}</p>}
        </div>
        <button type="button" className="icon-button" aria-label="Close" onClick={() => ref.current?.close()}>
          ×
        </button>
      </div>
      <div className="dialog-body creation-body">{children}</div>
      {footer && <div className="dialog-footer">{footer}</div>}
    </dialog>
  );
}

/** Steps with their names; a step is disabled when the previous one is incomplete (app-shell.md §2). */
export function Stepper<K extends string>({ steps, current, onSelect }: { steps: Array<{ key: K; name: string; enabled: boolean; done: boolean }>; current: K; onSelect: (k: K) => void }) {
  return (
    <ol className="stepper" aria-label="Steps">
      {steps.map((s, i) => (
        <li key={s.key}>
          <button
            type="button"
            className="stepper-step"
            aria-current={s.key === current ? "step" : undefined}
            disabled={!s.enabled}
            onClick={() => onSelect(s.key)}
            data-done={s.done || undefined}
          >
            <span className="stepper-index" aria-hidden="true">
              {s.done ? "✓" : i + 1}
            </span>
            {/* The name said is the name shown, with its position (axe: label-content-name-mismatch). */}
            <span className="visually-hidden">Step {i + 1}: </span>
            <span>{s.name}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}
