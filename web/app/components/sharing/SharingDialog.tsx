import { useCallback, useEffect, useId, useState } from "react";
import { Dialog } from "../Dialog.js";
import { Pagination } from "../Pagination.js";
import { useCsrfToken } from "../Csrf.js";
import { useToast } from "../ui/Toast.js";
import { SkeletonRows } from "../ui/Skeleton.js";
import {
  DEFAULT_ACCESS,
  REVOKE_TITLE,
  revokeText,
  ROLE_LABELS,
  ROLES,
  SHARE_PAGE_SIZE,
  SHARING_FAILURES,
  SHARING_SUCCESS,
  target,
  type Principal,
  type SharingData,
} from "./sharing.js";

export type ShareableType = "pronunciation_dictionary" | "voice" | "voice_collection";

/**
 * The Sharing dialog (app-shell.md §2, §4, §8): who has access (5 a page: owner first, then by
 * role, then by name), the default access of everyone in the workspace, role changes and revokes
 * (never the owner's or one's own), adding members, groups and service accounts. A change that
 * fails puts the shown value back; after any success the resource's sharing is loaded again.
 */
export function SharingDialog({ resourceType, resourceId, resourceName, onClose }: { resourceType: ShareableType; resourceId: string; resourceName: string; onClose: () => void }) {
  const csrf = useCsrfToken();
  const toast = useToast();
  const [sharing, setSharing] = useState<SharingData | null>(null);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const [pending, setPending] = useState<Record<string, string>>({});
  const [revoking, setRevoking] = useState<Principal | null>(null);
  const [addId, setAddId] = useState("");
  const [addRole, setAddRole] = useState<string>("viewer");
  const ids = { default: useId(), add: useId(), addRole: useId() };
  const path = `/app/sharing/${resourceType}/${encodeURIComponent(resourceId)}`;

  const load = useCallback(async () => {
    try {
      const res = await fetch(path, { headers: { accept: "application/json" } });
      const body = (await res.json()) as SharingData & { error?: string };
      if (!res.ok) throw new Error(body.error);
      setSharing(body);
      setFailed(false);
      if (body.groups === null) toast.show({ message: SHARING_FAILURES.groups, kind: "error" });
    } catch {
      setFailed(true);
      toast.show({ message: SHARING_FAILURES.metadata, kind: "error" });
    }
  }, [path, toast]);

  useEffect(() => {
    void load();
  }, [load]);

  async function send(fields: Record<string, string>): Promise<boolean> {
    const form = new FormData();
    form.set("csrf", csrf);
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    try {
      const res = await fetch(path, { method: "POST", body: form, headers: { accept: "application/json" } });
      await res.text();
      return res.ok;
    } catch {
      return false;
    }
  }

  /** Shows `value` at once under `key`; on failure the shown value goes back and the failure toast appears. */
  async function change(key: string, value: string, fields: Record<string, string>, success: string) {
    setPending((p) => ({ ...p, [key]: value }));
    const ok = await send(fields);
    setPending((p) => {
      const { [key]: _gone, ...rest } = p;
      return rest;
    });
    if (!ok) return toast.show({ message: SHARING_FAILURES.update, kind: "error" });
    toast.show({ message: success, kind: "success" });
    await load();
  }

  const principals = sharing?.principals ?? [];
  const pages = Math.max(1, Math.ceil(principals.length / SHARE_PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = principals.slice((current - 1) * SHARE_PAGE_SIZE, current * SHARE_PAGE_SIZE);
  const option = sharing?.share_options.find((o) => o.id === addId);
  const defaultValue = pending.default ?? sharing?.default_access ?? "restricted";

  return (
    <Dialog title={`Share ${resourceName}`} onClose={onClose}>
      {!sharing && !failed && <SkeletonRows rows={3} label="Loading who has access" />}
      {failed && (
        <p role="alert">
          {SHARING_FAILURES.metadata}.{" "}
          <button type="button" className="button button-small" onClick={() => void load()}>
            Try again
          </button>
        </p>
      )}
      {sharing && (
        <div className="share">
          <div className="field">
            <label htmlFor={ids.default}>Everyone in the workspace</label>
            <select
              id={ids.default}
              value={defaultValue}
              onChange={(e) => {
                const v = e.currentTarget.value;
                void change("default", v, v === "restricted" ? { op: "unshare", group_id: "default" } : { op: "share", group_id: "default", role: v }, SHARING_SUCCESS.settings);
              }}
            >
              {DEFAULT_ACCESS.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          </div>

          <h3 className="small">People and groups with access</h3>
          <ul className="share-list" aria-label="People and groups with access">
            {shown.map((p) => {
              const fixed = p.is_owner || p.is_self;
              const role = pending[p.id] ?? p.role;
              return (
                <li key={`${p.type}-${p.id}`} className="share-entry">
                  <span className="share-name">
                    {p.name}
                    {p.is_self && " (you)"}
                    {p.type !== "user" && <span className="muted small"> · {p.type === "group" ? "Group" : "Service account"}</span>}
                  </span>
                  {fixed ? (
                    <span className="badge">{ROLE_LABELS[p.role] ?? p.role}</span>
                  ) : (
                    <>
                      <label className="visually-hidden" htmlFor={`role-${p.id}`}>
                        Role of {p.name}
                      </label>
                      <select id={`role-${p.id}`} value={role} onChange={(e) => void change(p.id, e.currentTarget.value, { op: "share", role: e.currentTarget.value, ...target(p) }, SHARING_SUCCESS.role)}>
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {ROLE_LABELS[r]}
                          </option>
                        ))}
                      </select>
                      <button type="button" className="button button-small button-danger-outline" onClick={() => setRevoking(p)} aria-label={`Revoke access for ${p.name}`}>
                        Revoke
                      </button>
                    </>
                  )}
                </li>
              );
            })}
          </ul>
          <Pagination page={current} pageCount={pages} onPageChange={setPage} label="People with access pages" />

          {sharing.share_options.length > 0 && (
            <form
              className="share-add"
              onSubmit={(e) => {
                e.preventDefault();
                if (!option) return;
                setAddId("");
                void change(`add-${option.id}`, addRole, { op: "share", role: addRole, ...target(option) }, SHARING_SUCCESS.shared(option.name));
              }}
            >
              <div className="field">
                <label htmlFor={ids.add}>Add people, groups or service accounts</label>
                <select id={ids.add} value={addId} onChange={(e) => setAddId(e.currentTarget.value)}>
                  <option value="">Choose…</option>
                  {sharing.share_options.map((o) => (
                    <option key={`${o.type}-${o.id}`} value={o.id}>
                      {o.name}
                      {o.type === "group" ? " (group)" : o.type === "key" ? " (service account)" : o.email && o.email !== o.name ? ` (${o.email})` : ""}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={ids.addRole}>Role</label>
                <select id={ids.addRole} value={addRole} onChange={(e) => setAddRole(e.currentTarget.value)}>
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {ROLE_LABELS[r]}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="button" disabled={!option}>
                Share
              </button>
            </form>
          )}
        </div>
      )}

      {revoking && (
        <Dialog
          title={REVOKE_TITLE}
          onClose={() => setRevoking(null)}
          footer={
            <div className="dialog-actions">
              <button type="button" className="button" onClick={() => setRevoking(null)}>
                Cancel
              </button>
              <button
                type="button"
                className="button button-danger"
                onClick={() => {
                  const p = revoking;
                  setRevoking(null);
                  void change(`revoke-${p.id}`, "", { op: "unshare", ...target(p) }, SHARING_SUCCESS.revoked);
                }}
              >
                Revoke
              </button>
            </div>
          }
        >
          <p>{revokeText(revoking.name)}</p>
        </Dialog>
      )}
    </Dialog>
  );
}
