import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import {
  LEXICON_EXTENSIONS,
  LEXICON_MAX_BYTES,
  PHONEME_MODEL_IDS,
  RULE_ROW_PX,
  canEdit,
  canSave,
  dictionaryAlert,
  dictionaryMessages,
  editorRuleFrom,
  requestFromEditorRule,
  ruleAlerts,
  type EditorRule,
} from "../../../../functions/platform/contract/dictionaries.js";
import { PHONE_QUERY, useMediaQuery } from "../../lib/useMediaQuery.js";
import { AudioPlayer } from "../audio/AudioPlayer.js";
import { SkeletonRows } from "../ui/Skeleton.js";
import { getJson, post, useVirtualRows, type DictionaryVersion, type EditorWorkspace } from "./client.js";
import { RuleRow } from "./RuleRow.js";
import { DownloadPls } from "./DownloadPls.js";
import { SharingDialog } from "../sharing/SharingDialog.js";
import { useRulePreview } from "./useRulePreview.js";

/**
 * A dictionary's detail view: its rules (virtualised, 35 px rows), each with its alert, the
 * dictionary-level alert, rule previews with a chosen voice and model, save (a new version),
 * rename, archive/restore, download, and applying it across the workspace (admins).
 */
interface Loaded {
  dictionary: DictionaryVersion;
  workspace: EditorWorkspace;
  voices: Array<{ voice_id: string; name: string }>;
  models: Array<{ model_id: string; name: string }>;
}

const DEFAULT_MODEL = "eleven_multilingual_v2";
/** On a phone each rule is a stacked card of this height (the 35 px row of the spec is for wide screens). */
export const RULE_CARD_PX = 168;
const PREFERRED_PHONEME_MODELS: readonly string[] = ["eleven_turbo_v2", "eleven_flash_v2", "eleven_monolingual_v1"];

/**
 * The model previews start with: the one chosen last on this device, except that a dictionary
 * with phoneme rules starts on a model that speaks phonemes (else every phoneme rule warns).
 */
export function initialPreviewModel(models: ReadonlyArray<{ model_id: string }>, stored: string | null, hasPhonemeRules: boolean): string {
  const available = (id: string | null) => id !== null && models.some((m) => m.model_id === id);
  const speaksPhonemes = (id: string | null) => id !== null && (PHONEME_MODEL_IDS as readonly string[]).includes(id);
  if (hasPhonemeRules) {
    if (available(stored) && speaksPhonemes(stored)) return stored!;
    // The server's own preview default comes first, the legacy v1 last.
    const phonemeModel = [...PHONEME_MODEL_IDS].sort((a, b) => PREFERRED_PHONEME_MODELS.indexOf(a) - PREFERRED_PHONEME_MODELS.indexOf(b)).find((id) => available(id));
    if (phonemeModel) return phonemeModel;
  }
  return available(stored) ? stored! : DEFAULT_MODEL;
}
const MODEL_KEY = "timbre.dictionaries.model";
const VOICE_KEY = "timbre.dictionaries.voice";
let nextKey = 0;
const newKey = () => `n${++nextKey}`;
const signature = (r: EditorRule) => JSON.stringify([r.type, r.string_to_replace, r.output, r.alphabet]);

export function DictionaryDetail({ id, csrf, onBack }: { id: string; csrf: string; onBack: () => void }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failure, setFailure] = useState<{ message: string; notFound: boolean } | null>(null);
  const [reloads, setReloads] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getJson<Loaded>(`/app/dictionaries/${encodeURIComponent(id)}`, dictionaryMessages.loadError, controller.signal)
      .then((r) => {
        if (r.ok) {
          setLoaded(r.data);
          setFailure(null);
        } else setFailure({ message: r.failure.status === 404 ? dictionaryMessages.notFound : dictionaryMessages.loadError, notFound: r.failure.status === 404 });
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [id, reloads]);

  if (failure) {
    return (
      <div className="dict-state" role="alert">
        <p>{failure.message}</p>
        <button type="button" className="button" onClick={onBack}>
          {dictionaryMessages.backToDictionaries}
        </button>
      </div>
    );
  }
  if (!loaded) return <SkeletonRows rows={5} label="Loading dictionary" />;
  return (
    <Editor
      key={`${loaded.dictionary.version_id}:${reloads}`}
      loaded={loaded}
      csrf={csrf}
      notice={notice}
      onBack={onBack}
      onReload={(message) => {
        setNotice(message ?? null);
        setReloads((n) => n + 1);
      }}
      onWorkspace={(workspace) => setLoaded({ ...loaded, workspace })}
    />
  );
}

function Editor({ loaded, csrf, notice, onBack, onReload, onWorkspace }: {
  loaded: Loaded;
  csrf: string;
  notice: string | null;
  onBack: () => void;
  onReload: (notice?: string) => void;
  onWorkspace: (w: EditorWorkspace) => void;
}) {
  const { dictionary, workspace, voices, models } = loaded;
  const role = dictionary.permission_on_resource ?? null;
  const editable = canEdit(role);
  const initial = useMemo(() => dictionary.rules.map((r, i) => editorRuleFrom(r, `s${i}`)), [dictionary]);
  const saved = useMemo(() => new Map(initial.map((r) => [r.key, r])), [initial]);
  const [rules, setRules] = useState<EditorRule[]>(initial);
  const [search, setSearch] = useState("");
  const [name, setName] = useState(dictionary.name);
  const [savedName, setSavedName] = useState(dictionary.name);
  const [status, setStatus] = useState<{ kind: "ok" | "error"; message: string } | null>(notice ? { kind: "ok", message: notice } : null);
  const [busy, setBusy] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [voiceId, setVoiceId] = useState("");
  const [modelId, setModelId] = useState(DEFAULT_MODEL);
  const audio = useRef<HTMLAudioElement>(null);
  const preview = useRulePreview(dictionary.id, csrf, audio);
  const scroller = useRef<HTMLDivElement>(null);
  const ids = { search: useId(), voice: useId(), model: useId(), name: useId(), upload: useId(), mode: useId() };
  const phone = useMediaQuery(PHONE_QUERY);
  const rowHeight = phone ? RULE_CARD_PX : RULE_ROW_PX;
  const [upload, setUpload] = useState<{ file: File | null; mode: "add" | "replace"; error: string | null }>({ file: null, mode: "add", error: null });
  const uploadInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    // Per-device choices, read after hydration.
    setModelId(initialPreviewModel(models, localStorage.getItem(MODEL_KEY), dictionary.rules.some((r) => r.type === "phoneme")));
    const v = localStorage.getItem(VOICE_KEY);
    if (v && voices.some((x) => x.voice_id === v)) setVoiceId(v);
  }, [models, voices, dictionary]);

  const alerts = useMemo(() => ruleAlerts(rules, saved, modelId), [rules, saved, modelId]);
  const level = dictionaryAlert(rules, alerts, saved, role);
  const saveEnabled = canSave(rules, alerts, saved, role) && !busy;
  const term = search.trim().toLowerCase();
  const shown = term ? rules.filter((r) => r.string_to_replace.toLowerCase().includes(term) || r.output.toLowerCase().includes(term)) : rules;
  const { start, end, total } = useVirtualRows(shown.length, rowHeight, scroller);
  const applied = workspace.locators.find((l) => l.pronunciation_dictionary_id === dictionary.id);
  const problems = rules.map((r, i) => ({ r, i, a: alerts.get(r.key)! })).filter((x) => x.a.level === "error" || x.a.level === "warning");

  const change = useCallback((key: string, patch: Partial<EditorRule>) => setRules((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r))), []);
  const remove = useCallback((key: string) => setRules((all) => all.filter((r) => r.key !== key)), []);
  const play = useCallback(
    (r: EditorRule) => preview.toggle(r.key, signature(r), requestFromEditorRule(r), voiceId, modelId),
    [preview, voiceId, modelId],
  );

  const addRule = () => {
    const key = newKey();
    setSearch("");
    setRules((all) => [...all, { key, type: "alias", string_to_replace: "", output: "", alphabet: "ipa", case_sensitive: true, word_boundaries: true }]);
    requestAnimationFrame(() => {
      const el = scroller.current;
      if (el) el.scrollTop = el.scrollHeight;
      requestAnimationFrame(() => el?.querySelector<HTMLInputElement>(`[data-key="${key}"] input`)?.focus());
    });
  };

  const act = async (fields: Record<string, string>, fallback: string) => {
    setBusy(true);
    setStatus(null);
    const r = await post<{ workspace?: EditorWorkspace; saved?: { version_id: string } }>(`/app/dictionaries/${encodeURIComponent(dictionary.id)}`, csrf, fields, fallback);
    setBusy(false);
    if (!r.ok) {
      setStatus({ kind: "error", message: r.failure.error });
      return null;
    }
    return r.data;
  };

  const uploadLexicon = async () => {
    const file = upload.file;
    if (!file) return setUpload((u) => ({ ...u, error: "Choose a .pls, .xml or .txt file." }));
    if (file.size > LEXICON_MAX_BYTES) return setUpload((u) => ({ ...u, error: dictionaryMessages.fileTooLarge }));
    setBusy(true);
    setStatus(null);
    const r = await post<{ saved?: { version_id: string }; uploaded?: number }>(`/app/dictionaries/${encodeURIComponent(dictionary.id)}`, csrf, { intent: "upload", mode: upload.mode, file }, dictionaryMessages.uploadFailed);
    setBusy(false);
    if (!r.ok) return setUpload((u) => ({ ...u, error: r.failure.error }));
    const n = r.data.uploaded ?? 0;
    onReload(`Uploaded ${n} ${n === 1 ? "rule" : "rules"} as a new version.`);
  };

  const save = async () => {
    const r = await act({ intent: "save", rules: JSON.stringify(rules.map(requestFromEditorRule)) }, "We were unable to save the pronunciation dictionary.");
    if (r?.saved) onReload("Saved as a new version.");
  };

  return (
    <div className="dict-detail">
      <div className="dict-detail-header">
        <button type="button" className="button button-small" onClick={onBack}>
          ← {dictionaryMessages.backToDictionaries}
        </button>
        <form
          className="dict-rename"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!name.trim()) return setStatus({ kind: "error", message: dictionaryMessages.nameRequired });
            if (await act({ intent: "rename", name }, dictionaryMessages.fetchFailed)) {
              setSavedName(name.trim());
              setStatus({ kind: "ok", message: "Renamed." });
            }
          }}
        >
          <label className="visually-hidden" htmlFor={ids.name}>
            Dictionary name
          </label>
          <input id={ids.name} className="dict-input dict-name" value={name} onChange={(e) => setName(e.target.value)} disabled={!editable} aria-invalid={!name.trim() || undefined} />
          {editable && name.trim() !== savedName && (
            <button type="submit" className="button button-small" disabled={busy}>
              Rename
            </button>
          )}
        </form>
      </div>
      <p className="muted dict-version">
        Version <code data-testid="dictionary-version">{dictionary.version_id}</code> · {dictionary.rules.length} {dictionary.rules.length === 1 ? "rule" : "rules"}
        {dictionary.archived_time_unix ? " · Archived" : ""}
        {applied ? " · Applied across the workspace" : ""}
      </p>
      <p className={editable ? "dict-role muted" : "dict-role warning"}>
        {editable ? `You are ${role === "admin" ? "an admin" : "an editor"} of this dictionary and can save changes.` : dictionaryMessages.viewerCannotSave}
      </p>

      <div className="dict-actions">
        <DownloadPls href={`/app/dictionaries/${encodeURIComponent(dictionary.id)}/${encodeURIComponent(dictionary.version_id)}/download`} name={dictionary.name}>
          Download .pls
        </DownloadPls>
        {editable && (
          <button
            type="button"
            className="button button-small"
            disabled={busy}
            onClick={async () => {
              if (await act({ intent: dictionary.archived_time_unix ? "restore" : "archive" }, dictionaryMessages.fetchFailed)) onReload();
            }}
          >
            {dictionary.archived_time_unix ? "Restore" : "Archive"}
          </button>
        )}
        {/* Sharing needs the admin role on the dictionary while the workspace does not store shared files on the user (app-shell.md §8). */}
        {(role === "admin" || (role === "editor" && workspace.sharesByEditors)) && (
          <button type="button" className="button button-small" onClick={() => setSharing(true)}>
            Share
          </button>
        )}
        {workspace.canApply && (
          <button
            type="button"
            className="button button-small"
            disabled={busy}
            onClick={async () => {
              const r = await act(applied ? { intent: "remove" } : { intent: "apply", version_id: dictionary.version_id }, dictionaryMessages.workspaceUpdateFailed);
              if (r?.workspace) onWorkspace(r.workspace);
            }}
          >
            {applied ? "Remove from workspace" : "Apply across workspace"}
          </button>
        )}
      </div>

      {sharing && <SharingDialog resourceType="pronunciation_dictionary" resourceId={dictionary.id} resourceName={savedName} onClose={() => setSharing(false)} />}

      {editable && (
        <details className="dict-upload">
          <summary>Upload a lexicon into this dictionary</summary>
          <div className="dict-upload-body">
            <div className="dict-field">
              <label htmlFor={ids.upload}>Lexicon file</label>
              <input
                ref={uploadInput}
                id={ids.upload}
                type="file"
                accept={LEXICON_EXTENSIONS.join(",")}
                aria-invalid={upload.error ? true : undefined}
                aria-describedby={upload.error ? `${ids.upload}-error` : `${ids.upload}-hint`}
                onChange={(e) => {
                  const f = e.target.files?.[0] ?? null;
                  // A new file (or none) clears the last upload's error.
                  setUpload((u) => ({ ...u, file: f, error: f && f.size > LEXICON_MAX_BYTES ? dictionaryMessages.fileTooLarge : null }));
                }}
              />
              {upload.error ? (
                <p className="field-error" id={`${ids.upload}-error`} role="alert">
                  {upload.error}
                </p>
              ) : (
                <p className="field-hint" id={`${ids.upload}-hint`}>
                  .pls, .xml or .txt, up to 1.5 MB; the upload becomes a new version.
                </p>
              )}
            </div>
            <div className="dict-field">
              <label htmlFor={ids.mode}>Its rules</label>
              <select id={ids.mode} className="dict-input" value={upload.mode} onChange={(e) => setUpload((u) => ({ ...u, mode: e.target.value as "add" | "replace" }))}>
                <option value="add">Add to the current rules</option>
                <option value="replace">Replace all rules</option>
              </select>
            </div>
            <button type="button" className="button button-small" disabled={busy || !upload.file || Boolean(upload.error)} onClick={uploadLexicon}>
              Upload
            </button>
          </div>
        </details>
      )}

      <div className="dict-toolbar">
        <label className="visually-hidden" htmlFor={ids.search}>
          Search rules
        </label>
        <input id={ids.search} type="search" className="dict-input" placeholder="Search rules" value={search} onChange={(e) => setSearch(e.target.value)} />
        <label htmlFor={ids.voice} className="visually-hidden">
          Preview voice
        </label>
        <select
          id={ids.voice}
          className="dict-input"
          value={voiceId}
          aria-invalid={preview.voiceError ? true : undefined}
          aria-describedby={preview.voiceError ? `${ids.voice}-error` : undefined}
          onChange={(e) => {
            setVoiceId(e.target.value);
            preview.clearVoiceError();
            localStorage.setItem(VOICE_KEY, e.target.value);
          }}
        >
          <option value="">Select a voice</option>
          {voices.map((v) => (
            <option key={v.voice_id} value={v.voice_id}>
              {v.name}
            </option>
          ))}
        </select>
        <label htmlFor={ids.model} className="visually-hidden">
          Model
        </label>
        <select
          id={ids.model}
          className="dict-input"
          value={modelId}
          onChange={(e) => {
            setModelId(e.target.value);
            localStorage.setItem(MODEL_KEY, e.target.value);
          }}
        >
          {models.map((m) => (
            <option key={m.model_id} value={m.model_id}>
              {m.name}
            </option>
          ))}
        </select>
        <button type="button" className="button button-small" onClick={addRule} disabled={!editable}>
          Add rule
        </button>
      </div>
      {preview.voiceError && (
        <p className="field-error" id={`${ids.voice}-error`} role="alert">
          {preview.voiceError}
        </p>
      )}

      {level.message && (
        <p className={`dict-alert dict-alert-${level.level}`} role={level.level === "error" ? "alert" : "status"} data-testid="dictionary-alert">
          {level.message}
        </p>
      )}

      {shown.length === 0 ? (
        <p className="dict-state muted">{rules.length === 0 ? dictionaryMessages.noRules : dictionaryMessages.noRulesForSearch}</p>
      ) : (
        <>
        <div className="rule-head" aria-hidden="true">
          <span />
          <span>Input</span>
          <span>Type</span>
          <span>Alphabet</span>
          <span>Output</span>
          <span>Match</span>
          <span />
          <span />
        </div>
        <div ref={scroller} className="rule-scroll" role="table" aria-label="Rules" aria-rowcount={shown.length}>
          <div role="rowgroup" style={{ height: total, position: "relative" }}>
            {shown.slice(start, end).map((r, i) => (
                <RuleRow
                  key={r.key}
                  rule={r}
                  index={start + i}
                  alert={alerts.get(r.key)!}
                  top={(start + i) * rowHeight}
                  height={rowHeight}
                  preview={preview.status(r.key)}
                  previewError={preview.error(r.key, signature(r))}
                  canRemove={editable}
                  onChange={change}
                  onRemove={remove}
                  onPreview={play}
                />
            ))}
          </div>
        </div>
        </>
      )}

      {problems.length > 0 && (
        <ul className="dict-problems" aria-label="Rule problems">
          {problems.slice(0, 5).map(({ r, i, a }) => (
            <li key={r.key} className={`dict-alert-${a.level}`}>
              Rule {i + 1}
              {r.string_to_replace.trim() ? ` (“${r.string_to_replace.trim()}”)` : ""}: {a.messages.join(". ")}
            </li>
          ))}
          {problems.length > 5 && <li className="muted">and {problems.length - 5} more</li>}
        </ul>
      )}
      {rules.some((r) => preview.error(r.key, signature(r))) && (
        <p className="form-error" role="alert">
          {dictionaryMessages.previewFailed}
        </p>
      )}

      <div className="dict-footer">
        {status && (
          <p className={status.kind === "error" ? "form-error" : "notice"} role={status.kind === "error" ? "alert" : "status"}>
            {status.message}
          </p>
        )}
        <button type="button" className="button button-primary" disabled={!saveEnabled} onClick={save}>
          {busy ? "Saving…" : "Save"}
        </button>
      </div>
      <div className="dict-preview" hidden={!preview.blob}>
        <AudioPlayer label="Rule preview" audioRef={audio} waveform={preview.blob} testId="rule-preview-audio" variant="compact" />
      </div>
    </div>
  );
}
