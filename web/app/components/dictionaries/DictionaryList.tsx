import { useEffect, useId, useMemo, useRef, useState } from "react";
import {
  DEFAULT_DICTIONARY_NAME,
  LEXICON_EXTENSIONS,
  LEXICON_MAX_BYTES,
  LIST_ROW_ESTIMATE_PX,
  SEARCH_DEBOUNCE_MS,
  dictionaryMessages,
  matchesSearch,
} from "../../../../functions/platform/contract/dictionaries.js";
import { PHONE_QUERY, useMediaQuery } from "../../lib/useMediaQuery.js";
import { Icon } from "../Icon.js";
import { DownloadPls } from "./DownloadPls.js";
import { SkeletonRows } from "../ui/Skeleton.js";
import { getJson, post, useDebounced, useVirtualRows, type DictionaryItem, type EditorWorkspace } from "./client.js";

/**
 * The dictionary list (app-shell.md §2): search (case-insensitive, debounced 200 ms, archived
 * hidden unless asked for), create, lexicon upload, download, archive and restore. Rows are
 * virtualised at 40 px.
 */
export function DictionaryList({ csrf, onOpen }: { csrf: string; onOpen: (id: string) => void }) {
  const [data, setData] = useState<{ dictionaries: DictionaryItem[]; workspace: EditorWorkspace } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const [search, setSearch] = useState("");
  const [showArchived, setShowArchived] = useState(false);
  const debounced = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const [rowError, setRowError] = useState<string | null>(null);
  const searchId = useId();

  useEffect(() => {
    const controller = new AbortController();
    getJson<{ dictionaries: DictionaryItem[]; workspace: EditorWorkspace }>("/app/dictionaries", dictionaryMessages.metadataFailed, controller.signal)
      .then((r) => {
        if (r.ok) {
          setData(r.data);
          setLoadError(null);
        } else setLoadError(r.failure.error);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [reloads]);

  const shown = useMemo(
    () => (data?.dictionaries ?? []).filter((d) => (showArchived || !d.archived_time_unix) && matchesSearch(d.name, debounced)),
    [data, debounced, showArchived],
  );
  const applied = new Set(data?.workspace.locators.map((l) => l.pronunciation_dictionary_id));

  const setArchived = async (d: DictionaryItem, archived: boolean) => {
    setRowError(null);
    const r = await post(`/app/dictionaries/${encodeURIComponent(d.id)}`, csrf, { intent: archived ? "archive" : "restore" }, dictionaryMessages.fetchFailed);
    if (!r.ok) setRowError(r.failure.error);
    setReloads((n) => n + 1);
  };

  return (
    <div className="dict-list">
      <CreateDictionary csrf={csrf} onCreated={onOpen} />
      <div className="dict-toolbar">
        <label className="visually-hidden" htmlFor={searchId}>
          Search dictionaries
        </label>
        <input id={searchId} type="search" className="dict-input" placeholder="Search dictionaries" value={search} onChange={(e) => setSearch(e.target.value)} />
        <label className="dict-check">
          <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} /> Show archived
        </label>
      </div>
      {rowError && (
        <p className="form-error" role="alert">
          {rowError}
        </p>
      )}
      {loadError ? (
        <div className="dict-state" role="alert">
          <p>{loadError}</p>
          <button type="button" className="button button-small" onClick={() => setReloads((n) => n + 1)}>
            Try again
          </button>
        </div>
      ) : !data ? (
        <SkeletonRows rows={3} label="Loading dictionaries" />
      ) : shown.length === 0 ? (
        <div className="dict-state">
          <span className="empty-state-icon" aria-hidden="true">
            <Icon name="dictionary" />
          </span>
          <p className="muted">{dictionaryMessages.noResults}</p>
          {!debounced && data.dictionaries.length === 0 && <p className="muted">Create your first dictionary above, or upload a lexicon file.</p>}
        </div>
      ) : (
        <VirtualList items={shown} applied={applied} onOpen={onOpen} onArchive={setArchived} />
      )}
    </div>
  );
}

const MAX_LIST_HEIGHT_PX = 320;
const LIST_ROW_PHONE_PX = 84;

function VirtualList({ items, applied, onOpen, onArchive }: { items: DictionaryItem[]; applied: Set<string>; onOpen: (id: string) => void; onArchive: (d: DictionaryItem, archived: boolean) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  // On a phone a row has two lines (name, then its actions).
  const rowHeight = useMediaQuery(PHONE_QUERY) ? LIST_ROW_PHONE_PX : LIST_ROW_ESTIMATE_PX;
  const { start, end, total } = useVirtualRows(items.length, rowHeight, scroller);
  return (
    <div ref={scroller} className="dict-scroll" role="list" aria-label="Pronunciation dictionaries" style={{ height: Math.min(MAX_LIST_HEIGHT_PX, total + 2) }}>
      <div style={{ height: total, position: "relative" }}>
        {items.slice(start, end).map((d, i) => (
          <div key={d.id} role="listitem" className="dict-row" style={{ height: rowHeight, transform: `translateY(${(start + i) * rowHeight}px)` }}>
            <span className="dict-row-main">
              <button type="button" className="dict-row-name" onClick={() => onOpen(d.id)} title={d.name}>
                {d.name}
              </button>
              <span className="muted dict-row-meta">
                {d.latest_version_rules_num} {d.latest_version_rules_num === 1 ? "rule" : "rules"}
              </span>
              {applied.has(d.id) && <span className="badge">Workspace</span>}
              {d.archived_time_unix ? <span className="badge">Archived</span> : null}
            </span>
            <span className="dict-row-actions">
            <DownloadPls href={`/app/dictionaries/${encodeURIComponent(d.id)}/${encodeURIComponent(d.latest_version_id)}/download`} name={d.name} label={`Download ${d.name}`}>
              Download
            </DownloadPls>
            <button type="button" className="button button-small" onClick={() => onArchive(d, !d.archived_time_unix)} aria-label={`${d.archived_time_unix ? "Restore" : "Archive"} ${d.name}`}>
              {d.archived_time_unix ? "Restore" : "Archive"}
            </button>
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}

function CreateDictionary({ csrf, onCreated }: { csrf: string; onCreated: (id: string) => void }) {
  const [name, setName] = useState(DEFAULT_DICTIONARY_NAME);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<{ field: "name" | "file" | "form"; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const nameId = useId();
  const fileId = useId();

  useEffect(() => {
    if (error?.field === "name") nameRef.current?.focus();
    if (error?.field === "file") fileRef.current?.focus();
  }, [error]);

  const submit = async (intent: "create" | "upload") => {
    if (!name.trim()) return setError({ field: "name", message: dictionaryMessages.nameRequired });
    if (intent === "upload") {
      if (!file) return setError({ field: "file", message: "Choose a .pls, .xml or .txt file." });
      if (file.size > LEXICON_MAX_BYTES) return setError({ field: "file", message: dictionaryMessages.fileTooLarge });
    }
    setError(null);
    setBusy(true);
    const r = await post<{ id: string }>("/app/dictionaries", csrf, intent === "upload" && file ? { intent, name, file } : { intent, name }, intent === "upload" ? dictionaryMessages.uploadFailed : dictionaryMessages.createFailed);
    setBusy(false);
    if (r.ok) return onCreated(r.data.id);
    const lead = intent === "upload" ? dictionaryMessages.uploadFailed : dictionaryMessages.createFailed;
    const field = r.failure.field === "name" ? "name" : r.failure.field === "file" ? "file" : "form";
    setError({ field, message: field === "form" && r.failure.error !== lead ? `${lead} ${r.failure.error}` : r.failure.error });
  };

  return (
    <form
      className="dict-create"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit(file ? "upload" : "create");
      }}
    >
      <div className="dict-field">
        <label htmlFor={nameId}>Name</label>
        <input
          ref={nameRef}
          id={nameId}
          className="dict-input"
          value={name}
          maxLength={255}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={error?.field === "name" || undefined}
          aria-describedby={error?.field === "name" ? `${nameId}-error` : undefined}
        />
        {error?.field === "name" && (
          <p className="field-error" id={`${nameId}-error`}>
            {error.message}
          </p>
        )}
      </div>
      <div className="dict-field">
        <label htmlFor={fileId}>Lexicon file (optional)</label>
        <input
          ref={fileRef}
          id={fileId}
          type="file"
          accept={LEXICON_EXTENSIONS.join(",")}
          onChange={(e) => {
            const f = e.target.files?.[0] ?? null;
            setFile(f);
            if (f && f.size > LEXICON_MAX_BYTES) setError({ field: "file", message: dictionaryMessages.fileTooLarge });
            // Another file, or none: the last upload's error (on the file or the form) no longer applies.
            else if (error?.field === "file" || error?.field === "form") setError(null);
          }}
          aria-invalid={error?.field === "file" || undefined}
          aria-describedby={error?.field === "file" ? `${fileId}-error` : `${fileId}-hint`}
        />
        {error?.field === "file" ? (
          <p className="field-error" id={`${fileId}-error`}>
            {error.message}
          </p>
        ) : (
          <p className="field-hint" id={`${fileId}-hint`}>
            .pls, .xml or .txt, up to 1.5 MB
          </p>
        )}
      </div>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? "Creating…" : file ? "Upload dictionary" : "Create dictionary"}
      </button>
      {error?.field === "form" && (
        <p className="form-error dict-create-error" role="alert">
          {error.message}
        </p>
      )}
    </form>
  );
}
