import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { CsrfInput } from "../Csrf.js";
import { FormError } from "../Field.js";
import { Icon } from "../Icon.js";
import { useToast } from "../ui/Toast.js";
import { apiCallError, v1Fetch } from "../tts/client.js";
import { formatDateTimeFull } from "../../lib/format.js";
import type { HeaderTab } from "../Page.js";
import type { Production } from "./productions.server.js";

export const HOME_TABS: readonly HeaderTab[] = [
  { label: "Active", to: "/app/productions/active", patterns: ["/app/productions/active"] },
  { label: "Unclaimed", to: "/app/productions/unclaimed", patterns: ["/app/productions/unclaimed"] },
];

type Result = { ok: true; intent: string; message: string } | { ok: false; intent: string; error: string } | undefined;

/** Opens a document of a production the producer holds, as a download. */
async function openDocument(id: string, fileId: string, name: string) {
  const r = await v1Fetch(`/v1/productions/${encodeURIComponent(id)}/files/${encodeURIComponent(fileId)}`);
  if (!r.ok) throw await apiCallError(r);
  const url = URL.createObjectURL(await r.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const STATUS: Record<Production["status"], string> = { pending: "Waiting for review", approved: "Approved", rejected: "Rejected" };

/** The producer's productions: the unclaimed queue (Claim), the active ones (documents, Approve, Reject, Release), the history. */
export function ProductionList({ productions, view, empty }: { productions: Production[]; view: "unclaimed" | "active" | "history"; empty: string }) {
  const result = useActionData() as Result;
  const busy = useNavigation().state === "submitting";
  const toast = useToast();
  const [openError, setOpenError] = useState<string | null>(null);
  useEffect(() => {
    if (result?.ok) toast.show({ message: result.message, kind: "success" });
  }, [result, toast]);
  if (productions.length === 0) return <p className="muted productions-empty">{empty}</p>;
  return (
    <>
      <ul className="productions" aria-label={view === "history" ? "Reviewed productions" : view === "active" ? "Your active productions" : "Unclaimed productions"}>
        {productions.map((p) => (
          <li key={p.production_id} className="card production" aria-label={`Voice verification: ${p.voice_name}`}>
            <div className="production-head">
              <h2 className="production-title">Voice verification · {p.voice_name}</h2>
              <span className={`badge production-status-${p.status}`}>{STATUS[p.status]}</span>
            </div>
            <p className="muted">
              {p.language ? `Language ${p.language.toUpperCase()} · ` : ""}requested {formatDateTimeFull(p.requested_at_unix)}
              {p.reviewed_at_unix ? ` · reviewed ${formatDateTimeFull(p.reviewed_at_unix)}` : ""}
            </p>
            {p.note && <p className="production-note">{p.note}</p>}
            {p.rejection_reason && <p className="production-note">Reason: {p.rejection_reason}</p>}
            {view === "unclaimed" && (
              <p className="muted">
                {p.files.length} document{p.files.length === 1 ? "" : "s"}: claim it to open them.
              </p>
            )}
            {view === "active" && (
              <ul className="admin-request-files" aria-label="Documents">
                {p.files.map((f) => (
                  <li key={f.file_id}>
                    <button type="button" className="button button-small" onClick={() => openDocument(p.production_id, f.file_id, f.file_name).catch((e: unknown) => setOpenError(e instanceof Error ? e.message : "The document could not be opened."))}>
                      <Icon name="download" size={16} />
                      {f.file_name}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {view === "unclaimed" && (
              <Form method="post">
                <CsrfInput />
                <input type="hidden" name="production_id" value={p.production_id} />
                <button type="submit" name="intent" value="claim" className="button button-primary" disabled={busy}>
                  Claim
                </button>
              </Form>
            )}
            {view === "active" && (
              <div className="admin-request-actions">
                <Form method="post">
                  <CsrfInput />
                  <input type="hidden" name="production_id" value={p.production_id} />
                  <button type="submit" name="intent" value="approve" className="button button-primary" disabled={busy}>
                    Approve
                  </button>
                  <button type="submit" name="intent" value="release" className="button" disabled={busy}>
                    Release
                  </button>
                </Form>
                <Form method="post" className="admin-reject">
                  <CsrfInput />
                  <input type="hidden" name="production_id" value={p.production_id} />
                  <label htmlFor={`reason-${p.production_id}`}>Reason for rejecting</label>
                  <input id={`reason-${p.production_id}`} name="reason" maxLength={500} />
                  <button type="submit" name="intent" value="reject" className="button button-danger-outline" disabled={busy}>
                    Reject
                  </button>
                </Form>
              </div>
            )}
          </li>
        ))}
      </ul>
      <FormError id="production-error" message={(result && !result.ok ? result.error : null) ?? openError} />
    </>
  );
}
