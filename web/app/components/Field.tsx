import { forwardRef, useEffect, type InputHTMLAttributes, type RefObject } from "react";

type FieldProps = { name: string; label: string; error?: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>;

/** A labelled input whose error is tied to it (aria-invalid, aria-describedby). */
export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field({ name, label, error, hint, id, ...input }, ref) {
  const fieldId = id ?? `field-${name}`;
  const errorId = `${fieldId}-error`;
  const hintId = `${fieldId}-hint`;
  const describedBy = [error ? errorId : undefined, hint ? hintId : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={fieldId}>{label}</label>
      <input ref={ref} id={fieldId} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
});

/** After a failed submit, move focus to the first invalid field (or `fallback`). */
export function useFocusOnError(form: RefObject<HTMLFormElement>, trigger: unknown, fallback?: RefObject<HTMLElement>) {
  useEffect(() => {
    if (!trigger) return;
    const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid ?? fallback?.current)?.focus();
  }, [trigger, form, fallback]);
}

/** A form-level error, announced. */
export function FormError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="form-error" id={id} role="alert">
      {message}
    </p>
  );
}
