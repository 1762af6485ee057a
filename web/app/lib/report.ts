/**
 * Reports an error the user met to the server's log (issue 28 §9), and to the browser's console.
 * Page crashes are fatal. At most MAX_REPORTS a page, each message once: a page that loops on an
 * error does not flood anything. Sent with keepalive, so a report survives the page unloading.
 */
export type ErrorKind = "render" | "error" | "unhandled_rejection" | "speech_recognition" | "other";

export const MAX_REPORTS = 10;
const sent = new Set<string>();

/** What the report carries: bounded, no more than the server keeps. */
export function clientErrorReport(error: unknown, opts: { fatal: boolean; where: string; kind?: ErrorKind }, path: string) {
  const e = error instanceof Error ? error : undefined;
  const message = (e ? `${e.name}: ${e.message}` : typeof error === "string" ? error : safeJson(error)).slice(0, 2000) || "Unknown error";
  return { message, where: opts.where.slice(0, 200), fatal: opts.fatal, kind: opts.kind ?? (opts.fatal ? "render" : "other"), stack: e?.stack?.slice(0, 8000) ?? null, path: path.slice(0, 1000) };
}

function safeJson(x: unknown): string {
  try {
    return JSON.stringify(x) ?? String(x);
  } catch {
    return String(x);
  }
}

export function reportError(error: unknown, opts: { fatal: boolean; where: string; kind?: ErrorKind }): void {
  console.error(`[timbre] ${opts.fatal ? "fatal" : "non-fatal"} error in ${opts.where}:`, error);
  if (typeof window === "undefined" || typeof fetch !== "function") return;
  const report = clientErrorReport(error, opts, window.location.pathname);
  const key = `${report.where}\n${report.message}`;
  if (sent.has(key) || sent.size >= MAX_REPORTS) return;
  sent.add(key);
  void fetch("/client-errors", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(report), keepalive: true, credentials: "same-origin" }).catch(() => undefined);
}

/** Errors nothing caught: the window's and unhandled promise rejections. Returns the way to stop listening. */
export function reportUncaught(): () => void {
  const onError = (e: ErrorEvent) => reportError(e.error ?? e.message, { fatal: false, where: "window", kind: "error" });
  const onRejection = (e: PromiseRejectionEvent) => reportError(e.reason, { fatal: false, where: "window", kind: "unhandled_rejection" });
  window.addEventListener("error", onError);
  window.addEventListener("unhandledrejection", onRejection);
  return () => {
    window.removeEventListener("error", onError);
    window.removeEventListener("unhandledrejection", onRejection);
  };
}
