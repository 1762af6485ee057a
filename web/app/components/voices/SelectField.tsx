import { useId, type ReactNode, type SelectHTMLAttributes } from "react";

/** A labelled <select> (label beside it, not around it, so its name is the label alone). */
export function SelectField({ label, children, ...select }: { label: string; children: ReactNode } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="library-select">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select}>
        {children}
      </select>
    </div>
  );
}
