import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import {
  RULE_ROW_PX,
  canEdit,
  canSave,
  dictionaryAlert,
  dictionaryMessages,
  editorRuleFrom,
  requestFromEditorRule,
  ruleAlerts,
  type EditorRule,
} from "../../../../functions/contract/dictionaries.js";
import { getJson, post, useVirtualRows, type DictionaryVersion, type EditorWorkspace } from "./client.js";
import { RuleRow } from "./RuleRow.js";
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
  if (!loaded) {
    return (
      <p className="dict-state muted" aria-busy="true">
        Loading dictionary…
      </p>
    );
  }
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
  const [voiceId, setVoiceId] = useState("");
  const [modelId, setModelId] = useState(DEFAULT_MODEL);
  const audio = useRef<HTMLAudioElement>(null);
  const preview = useRulePreview(dictionary.id, csrf, audio);
  const scroller = useRef<HTMLDivElement>(null);
  const ids = { search: useId(), voice: useId(), model: useId(), name: useId() };

  useEffect(() => {
    // Per-device choices, read after hydration.
    const m = localStorage.getItem(MODEL_KEY);
    if (m && models.some((x) => x.model_id === m)) setModelId(m);
    const v = localStorage.getItem(VOICE_KEY);
    if (v && voices.some((x) => x.voice_id === v)) setVoiceId(v);
  }, [models, voices]);

  const alerts = useMemo(() => ruleAlerts(rules, saved, modelId), [rules, saved, modelId]);
  const level = dictionaryAlert(rules, alerts, saved, role);
  const saveEnabled = canSave(rules, alerts, saved, role) && !busy;
  const term = search.trim().toLowerCase();
  const shown = term ? rules.filter((r) => r.string_to_replace.toLowerCase().includes(term) || r.output.toLowerCase().includes(term)) : rules;
  const { start, end, total } = useVirtualRows(shown.length, RULE_ROW_PX, scroller);
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
        <a className="button button-small" href={`/app/dictionaries/${encodeURIComponent(dictionary.id)}/${encodeURIComponent(dictionary.version_id)}/download`} download>
          Download .pls
        </a>
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
                  top={(start + i) * RULE_ROW_PX}
                  height={RULE_ROW_PX}
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
      <audio ref={audio} data-testid="rule-preview-audio" hidden preload="auto" />
    </div>
  );
}
