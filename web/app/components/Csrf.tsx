import { useRouteLoaderData } from "@remix-run/react";

const FIELD = "csrf";

export function useCsrfToken(): string {
  return useRouteLoaderData<{ csrf: string }>("root")?.csrf ?? "";
}

/** The hidden token every POST form carries (checked by requireCsrf in the action). */
export function CsrfInput() {
  return <input type="hidden" name={FIELD} value={useCsrfToken()} />;
}
