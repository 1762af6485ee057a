import type { ReactNode } from "react";
import { useToast } from "../ui/Toast.js";
import { downloadDictionary } from "./download.js";

/**
 * A dictionary's Download: the link still works without scripts; with them the answer is checked
 * first, and a failure or an answer that is not a PLS document is said in a toast.
 */
export function DownloadPls({ href, name, label, children }: { href: string; name: string; label?: string; children: ReactNode }) {
  const toast = useToast();
  return (
    <a
      className="button button-small"
      href={href}
      download
      aria-label={label}
      onClick={(e) => {
        e.preventDefault();
        downloadDictionary(href, name).catch((err: unknown) => toast.show({ kind: "error", message: err instanceof Error ? err.message : String(err) }));
      }}
    >
      {children}
    </a>
  );
}
