import { dictionaryMessages } from "../../../../functions/platform/contract/dictionaries.js";

/** What a dictionary download may be: a PLS document (voice-creation.md: other content types are rejected). */
export const PLS_TYPES = ["application/pls+xml", "application/xml", "text/xml"];

const mediaType = (contentType: string | null) => (contentType ?? "").split(";")[0]!.trim().toLowerCase();

/**
 * Why a download answer cannot be saved, or null when it can: a failed answer says its own message
 * (the download route's, plain text), an answer of another type 'Invalid response type received'.
 */
export function downloadProblem(status: number, contentType: string | null, text: string | null = null): string | null {
  if (status < 200 || status > 299) return text?.trim() && mediaType(contentType) === "text/plain" ? text.trim().slice(0, 200) : dictionaryMessages.fetchFailed;
  return PLS_TYPES.includes(mediaType(contentType)) ? null : dictionaryMessages.invalidResponseType;
}

/** The file name of a download (its Content-Disposition), a .pls name otherwise. */
export function downloadName(contentDisposition: string | null, fallback: string): string {
  const name = /filename="([^"]+)"/.exec(contentDisposition ?? "")?.[1] ?? fallback;
  return name.endsWith(".pls") ? name : `${name}.pls`;
}

/** Fetches a dictionary download and saves it, or throws an Error with the message to show. */
export async function downloadDictionary(href: string, fallbackName: string): Promise<void> {
  const res = await fetch(href, { credentials: "same-origin", cache: "no-store" });
  const problem = downloadProblem(res.status, res.headers.get("content-type"), res.ok ? null : await res.text().catch(() => null));
  if (problem) throw new Error(problem);
  const url = URL.createObjectURL(await res.blob());
  try {
    const a = document.createElement("a");
    a.href = url;
    a.download = downloadName(res.headers.get("content-disposition"), fallbackName);
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
