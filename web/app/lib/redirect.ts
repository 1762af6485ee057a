/** Only same-site paths are followed after sign-in; anything else goes to the fallback. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/app"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f]/.test(to)) return fallback;
  return to;
}
