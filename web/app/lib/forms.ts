import type { ZodError } from "zod";

export type FieldErrors = Partial<Record<string, string>>;

/** The first message per top-level field of a zod error. */
export function fieldErrors(error: ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

/** A FormData's string fields as a plain object, for schema parsing. */
export function formFields(form: FormData, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = form.get(n);
    if (typeof v === "string") out[n] = v;
  }
  return out;
}
