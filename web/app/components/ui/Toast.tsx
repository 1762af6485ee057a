import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Icon } from "../Icon.js";

/**
 * Toasts: the spec's short success and error messages, stacked in one corner, each dismissible
 * and timed. The spec gives 10 s for its error toasts ("Error Adding Voice!", the unsupported
 * language toast); success messages use a shorter default. Hovering or focusing a toast pauses
 * its timer so it can be read. Every timer is cleared when its toast or the provider goes away.
 */
export type ToastKind = "success" | "error" | "info";

export const TOAST_DURATION_MS: Record<ToastKind, number> = { success: 5_000, info: 5_000, error: 10_000 };
/** Older toasts beyond this many are dropped so the stack never covers the page. */
export const MAX_TOASTS = 4;

export interface ToastInput {
  message: string;
  kind?: ToastKind;
  /** Overrides the kind's duration (the spec times some messages itself). */
  durationMs?: number;
}

interface ToastItem extends Required<ToastInput> {
  id: number;
}

interface ToastApi {
  show(toast: ToastInput): number;
  dismiss(id: number): void;
}

const ToastContext = createContext<ToastApi | null>(null);

/** Outside a provider (an error boundary above it) toasts are dropped rather than crashing. */
const NO_TOASTS: ToastApi = { show: () => 0, dismiss: () => undefined };

export function useToast(): ToastApi {
  return useContext(ToastContext) ?? NO_TOASTS;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback((input: ToastInput) => {
    const kind = input.kind ?? "success";
    const toast: ToastItem = { id: nextId.current++, message: input.message, kind, durationMs: input.durationMs ?? TOAST_DURATION_MS[kind] };
    setToasts((all) => [...all.filter((t) => t.message !== toast.message), toast].slice(-MAX_TOASTS));
    return toast.id;
  }, []);
  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" aria-label="Notifications" role="region">
        {/* A live region that exists before any toast, so new ones are announced. */}
        <ol className="toast-list" aria-live="polite">
          {toasts.map((t) => (
            <ToastView key={t.id} toast={t} onDismiss={dismiss} />
          ))}
        </ol>
      </div>
    </ToastContext.Provider>
  );
}

function ToastView({ toast, onDismiss }: { toast: ToastItem; onDismiss: (id: number) => void }) {
  const [paused, setPaused] = useState(false);
  const remaining = useRef(toast.durationMs);

  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => onDismiss(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - started));
    };
  }, [paused, toast.id, onDismiss]);

  return (
    <li
      className="toast"
      data-kind={toast.kind}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <span className="toast-icon" aria-hidden="true">
        <Icon name={toast.kind === "error" ? "alert" : toast.kind === "info" ? "info" : "check"} />
      </span>
      <p className="toast-message" role={toast.kind === "error" ? "alert" : undefined}>
        {toast.message}
      </p>
      <button type="button" className="icon-button icon-button-sm" aria-label="Dismiss notification" onClick={() => onDismiss(toast.id)}>
        <Icon name="close" />
      </button>
    </li>
  );
}
