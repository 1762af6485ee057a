import { Link, useSearchParams } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type DragEvent } from "react";
import { Dialog } from "../Dialog.js";
import { Icon } from "../Icon.js";
import { VideoPlayer } from "../video/VideoPlayer.js";
import { ApiCallError, apiCallError, v1Fetch, v1Json } from "../tts/client.js";
import { formatDateTimeFull } from "../../lib/format.js";
import {
  AUTO_SAVE_MS,
  FINISH_MODEL_ID,
  INTRO_LINKS,
  SAMPLE_TIPS,
  SAMPLE_TIPS_TITLE,
  TRAINING_OPT_OUT_NOTICE,
  INTRO_POINTS,
  INTRO_TIPS,
  TIPS_VIDEO,
  PVC,
  PVC_LANGUAGES,
  PvcVoiceWire,
  PvcVoicesWire,
  RING_MARKS,
  UploadTicketWire,
  fileStatusText,
  formErrors,
  formatDuration,
  isUnfinished,
  nextState,
  addedFileProblem,
  sampleLanguages,
  pvcMessages,
  ringShare,
  totalSeconds,
  type FileStage,
  type PvcSample,
  type PvcVoice,
} from "./wizard.js";
import { SampleSettings } from "./SampleSettings.js";
import { pvcSlotUpsell, type SlotUpsell } from "./slots.js";
import type { VoiceSlots } from "../voices/wire.js";
import { RecorderDialog, RecoveryDialog } from "./RecorderDialog.js";
import { PvcVerification } from "./PvcVerification.js";
import { SamplePlayerBar } from "./SamplePlayerBar.js";
import { z } from "zod";
import { LabelsEditor, labelsFromRecord, labelsProblem, labelsToRecord, setLanguage, type Label } from "../voice-creation/LabelsEditor.js";

/** The query parameter holding the clone being edited (voice-creation.md §2.4). */
export const CREATED_VOICE_PARAM = "createdVoiceId";
/** The query-state flag opening the wizard in edit or verify mode (§2 Wizard container). */
export const PVC_MODE_PARAM = "pvcMode";

type Step = "intro" | "data" | "verify" | "finish";
/** Create (from the intro), or edit / verify opened with the query-state flag (§2 Wizard container). */
export type PvcMode = "create" | "edit" | "verify";

/**
 * Where the create dialog keeps its draft voice id (§2 Wizard container): read when the wizard
 * opens (the draft is fetched and the wizard resumes on it), cleared on close. localStorage, so a
 * draft survives a reload or a new tab; a voice the user cannot read (another account on the
 * same browser) is simply not found and the stored id is dropped.
 */
export const PVC_DRAFT_STORAGE_KEY = "timbre.pvc.draftVoiceId";
const draftStore = {
  read: () => {
    try {
      return window.localStorage.getItem(PVC_DRAFT_STORAGE_KEY);
    } catch {
      return null;
    }
  },
  write: (id: string) => {
    try {
      window.localStorage.setItem(PVC_DRAFT_STORAGE_KEY, id);
    } catch {
      /* storage refused (private mode): the query string still holds the voice */
    }
  },
  clear: () => {
    try {
      window.localStorage.removeItem(PVC_DRAFT_STORAGE_KEY);
    } catch {
      /* nothing stored */
    }
  },
};

/** Voice Data is the locked variant once it is complete (the 10 minutes Next needs) and the voice still waits for verification. */
const voiceDataLocked = (v: PvcVoice) =>
  totalSeconds(v.samples ?? []) >= PVC.minTotalSeconds && v.voice_verification?.requires_verification === true && v.voice_verification.is_verified !== true;

/**
 * The Professional Voice Clone wizard inside the Add a new voice dialog: the intro (sessions to
 * return to, tips, Create new clone), Voice Data (the form with auto-save, presigned uploads with
 * progress per file, the sample list, the audio ring, Next), and Finish, which starts
 * fine-tuning. A clone that needs verification passes the Verification screen (PvcVerification.tsx) first;
 * workspaces that skip the voice captcha go straight to Finish. `pvcMode=edit` opens a clone on
 * Voice Data (no intro to go back to), `pvcMode=verify` on Verification (Voice Data locked, no
 * Back). Skip or Cancel closes it.
 */
export function PvcWizard({ onBack, onClose, slots = null }: { onBack: () => void; onClose: () => void; slots?: VoiceSlots | null }) {
  const [params, setParams] = useSearchParams();
  const voiceId = params.get(CREATED_VOICE_PARAM);
  const flag = params.get(PVC_MODE_PARAM);
  const mode: PvcMode = voiceId && (flag === "edit" || flag === "verify") ? flag : "create";
  const [step, setStep] = useState<Step>(voiceId ? (mode === "verify" ? "verify" : "data") : "intro");
  // Opening without a clone in the query: a stored draft is looked up first.
  // (The same on the server and in the first client render: storage is read in the effect.)
  const [restoring, setRestoring] = useState(!voiceId);
  const setVoiceId = useCallback(
    (id: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (id) next.set(CREATED_VOICE_PARAM, id);
          else {
            next.delete(CREATED_VOICE_PARAM);
            next.delete(PVC_MODE_PARAM);
          }
          return next;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setParams],
  );
  // onClose drops the clone and the flag with the dialog (closeCreation), in one update.
  const close = () => {
    draftStore.clear();
    onClose();
  };

  useEffect(() => {
    if (voiceId) {
      if (mode === "create") draftStore.write(voiceId);
      return;
    }
    const stored = draftStore.read();
    if (!stored) return setRestoring(false);
    let live = true;
    v1Json(`/v1/voices/${encodeURIComponent(stored)}`, PvcVoiceWire)
      .then((v) => {
        if (!live) return;
        if (v.category !== "professional") throw new Error("not a professional clone");
        setStep(voiceDataLocked(v) ? "verify" : "data");
        setRestoring(false);
        setVoiceId(v.voice_id);
      })
      .catch(() => {
        draftStore.clear();
        if (live) setRestoring(false);
      });
    return () => {
      live = false;
    };
    // Once per opening, and again when a clone is opened from the intro or the wizard closes.
  }, [voiceId]);

  const title = step === "intro" || !voiceId ? pvcMessages.introTitle : step === "finish" ? pvcMessages.finishTitle : step === "verify" ? pvcMessages.verifyTitle : "Voice Data";
  return (
    <Dialog title={title} onClose={close} escapeCloses={false}>
      <div className="pvc-wizard" data-testid="pvc-wizard" data-mode={mode}>
        {restoring ? (
          <p role="status" className="muted">
            <span className="spinner" aria-hidden="true" /> Opening your draft…
          </p>
        ) : step === "intro" || !voiceId ? (
          <PvcIntro
            upsell={pvcSlotUpsell(slots)}
            onBack={onBack}
            onOpen={(id) => {
              draftStore.write(id);
              setVoiceId(id);
              setStep("data");
            }}
          />
        ) : step === "data" ? (
          <VoiceDataStep
            voiceId={voiceId}
            onBack={mode === "create" ? () => setStep("intro") : undefined}
            onCancel={close}
            onNext={(v) => setStep(v.voice_verification?.requires_verification && !v.voice_verification.is_verified ? "verify" : "finish")}
          />
        ) : step === "verify" ? (
          <PvcVerification voiceId={voiceId} onVerified={() => setStep("finish")} onBack={mode === "verify" ? undefined : () => setStep("data")} onSkip={close} />
        ) : (
          <FinishStep voiceId={voiceId} />
        )}
      </div>
    </Dialog>
  );
}

function PvcIntro({ onBack, onOpen, upsell }: { onBack: () => void; onOpen: (voiceId: string) => void; upsell: SlotUpsell | null }) {
  const [sessions, setSessions] = useState<PvcVoice[] | null>(null);
  const [tips, setTips] = useState(false);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    v1Json("/v2/voices?category=professional&page_size=100", PvcVoicesWire)
      .then((r) => live && setSessions(r.voices.filter(isUnfinished)))
      .catch(() => live && setSessions([]));
    return () => {
      live = false;
    };
  }, []);

  const create = async () => {
    setCreating(true);
    setError(null);
    try {
      const r = await v1Json("/v1/voices/pvc", z.object({ voice_id: z.string() }), { method: "POST", json: { name: pvcMessages.untitledVoice, language: "en", is_draft: true } });
      onOpen(r.voice_id);
    } catch (e) {
      setError(e instanceof Error ? e.message : pvcMessages.couldNotSaveVoice);
      setCreating(false);
    }
  };

  return (
    <div className="pvc-intro">
      <p className="pvc-subtitle">{pvcMessages.introSubtitle}</p>
      <ol className="pvc-points">
        {INTRO_POINTS.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ol>
      {/* Where a professional clone goes once trained, and the plans (voice-creation.md §2.4 links). */}
      <p className="pvc-uses">
        Use it in <Link to={INTRO_LINKS.tts}>Text to Speech</Link>, <Link to={INTRO_LINKS.agents}>Conversational AI</Link> and <Link to={INTRO_LINKS.studio}>Studio</Link>, or share it in the{" "}
        <Link to={INTRO_LINKS.library}>Voice Library</Link>. <Link to={INTRO_LINKS.subscribe}>Subscribe</Link> for more professional voice slots.
      </p>
      {sessions && sessions.length > 0 && (
        <section aria-labelledby="pvc-sessions">
          <h3 id="pvc-sessions">{pvcMessages.returnToSession}</h3>
          <ul className="pvc-sessions">
            {sessions.map((v) => (
              <li key={v.voice_id}>
                <span className="pvc-session-name">{v.name}</span>
                {v.created_at_unix ? <span className="pvc-session-date">{formatDateTimeFull(v.created_at_unix)}</span> : null}
                <button type="button" className="button button-small" onClick={() => onOpen(v.voice_id)} aria-label={`${pvcMessages.continueEditing}: ${v.name}`}>
                  {pvcMessages.continueEditing}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <button type="button" className="button pvc-tips-toggle" aria-expanded={tips} onClick={() => setTips((t) => !t)}>
        {pvcMessages.tipsTitle}
      </button>
      {tips && (
        <>
          <VideoPlayer src={TIPS_VIDEO.src} captions={TIPS_VIDEO.captions} title={TIPS_VIDEO.title} poster={TIPS_VIDEO.poster} />
          <ol className="pvc-tips" aria-label={pvcMessages.tipsTitle}>
            {INTRO_TIPS.map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ol>
        </>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {upsell && (
        <p className="inline-warning pvc-upsell" role="status">
          {upsell.message} <Link to={upsell.link.to}>{upsell.link.label}</Link>
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onBack}>
          <Icon name="back" size={16} />
          Back
        </button>
        <button type="button" className="button button-primary" disabled={creating || upsell !== null} onClick={() => void create()}>
          {pvcMessages.createNewClone}
        </button>
      </div>
    </div>
  );
}

interface FileItem {
  key: string;
  name: string;
  file: File;
  stage: FileStage;
  percent: number;
  /** The item's problem (professional-voice-clone.md §3 Local file item): a warning can be skipped with Upload. */
  error: string | null;
  warning: { code: string } | null;
  /** The problem's code (min-duration, language-mismatch, duplicate_file, ...), when it has one. */
  code: string | null;
  /** The form's language when the file was added: the language the sample will be in. */
  language: string;
  /** Warning codes the user chose to skip for this file. */
  skipped: string[];
}

/**
 * Voice Data's labels (professional-voice-clone.md §2): the voice's own, with an accent row by
 * default; the language is the form's "Language used in audio samples" (an accent of another
 * language is reset when it changes).
 */
function dataLabels(record: Record<string, string> | null | undefined, language: string): Label[] {
  const labels = labelsFromRecord({ ...(record ?? {}), language }, language);
  return labels.some((l) => l.type === "accent") ? labels : [labels[0], { type: "accent", value: "" }, ...labels.slice(1)];
}

const setLanguageLabel = (labels: Label[], language: string): Label[] => labels.map((l) => (l.type === "language" ? { ...l, value: language } : l));

/**
 * A file's duration as the browser reads it from its header (no decoding), or null when it
 * cannot tell within a few seconds: the server measures it anyway.
 */
function probeDuration(file: File): Promise<number | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const audio = new Audio();
    const done = (v: number | null) => {
      clearTimeout(timer);
      audio.removeAttribute("src");
      URL.revokeObjectURL(url);
      resolve(v);
    };
    const timer = setTimeout(() => done(null), 5000);
    audio.preload = "metadata";
    audio.onloadedmetadata = () => done(Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : null);
    audio.onerror = () => done(null);
    audio.src = url;
  });
}

/** A file's identity for the duplicate check: name, last-modified time, size and type (§5 rule 3). */
const fileSignature = (f: File) => JSON.stringify([f.name, f.lastModified, f.size, f.type]);

/** PUT with upload progress (fetch reports none). */
function putWithProgress(url: string, body: Blob, headers: Record<string, string>, onProgress: (loaded: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() !== "content-length" && k.toLowerCase() !== "host") xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(pvcMessages.uploadFailed)));
    xhr.onerror = () => reject(new Error(pvcMessages.networkError));
    xhr.send(body);
  });
}

function VoiceDataStep({ voiceId, onBack, onCancel, onNext }: { voiceId: string; onBack?: () => void; onCancel: () => void; onNext: (v: PvcVoice) => void }) {
  const [voice, setVoice] = useState<PvcVoice | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [form, setForm] = useState<{ name: string; language: string; description: string; labels: Label[] }>({ name: "", language: "en", description: "", labels: [] });
  // The fields wait for the voice: a name typed before its load would be replaced by the stored one
  // (seen under load: the draft saved as "Untitled voice" after the user had typed another name).
  const [loaded, setLoaded] = useState(false);
  const [labelsError, setLabelsError] = useState<string | null>(null);
  const [trainingOptOut, setTrainingOptOut] = useState(false);
  useEffect(() => {
    let live = true;
    v1Json("/v1/workspace", z.object({ training_opt_out: z.boolean().optional() }))
      .then((w) => live && setTrainingOptOut(w.training_opt_out === true))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  const [dirty, setDirty] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [files, setFiles] = useState<FileItem[]>([]);
  const [dragging, setDragging] = useState(false);
  const [busyNext, setBusyNext] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [settingsFor, setSettingsFor] = useState<PvcSample | null>(null);
  const [recording, setRecording] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const reload = useCallback(async () => {
    const v = await v1Json(`/v1/voices/${voiceId}`, PvcVoiceWire);
    setVoice(v);
    return v;
  }, [voiceId]);

  useEffect(() => {
    reload()
      .then((v) => {
        const language = v.fine_tuning?.language ?? v.labels?.language ?? "en";
        savedLanguage.current = language;
        setForm({ name: v.name, language, description: v.description ?? "", labels: dataLabels(v.labels, language) });
        setLoaded(true);
      })
      .catch((e: unknown) => setLoadError(e instanceof Error ? e.message : pvcMessages.couldNotSaveVoice));
  }, [reload]);

  // The samples and the files on their way, for the language rule (read by save and addFiles).
  const current = useRef<{ samples: PvcSample[]; items: FileItem[] }>({ samples: [], items: [] });
  /** The language the voice has on the server (samples are stored in it). */
  const savedLanguage = useRef<string | null>(null);
  current.current = { samples: voice?.samples ?? [], items: files };
  const errors = formErrors(form, current.current);
  const save = useCallback(async () => {
    const now = formErrors(form, current.current);
    if (now.name || now.description || now.language) {
      setSaveError(pvcMessages.invalidForm);
      return false;
    }
    try {
      // Labels go with the language they were checked against (the form's): only those with a value.
      const labels = labelsToRecord(setLanguageLabel(form.labels, form.language).filter((l) => l.value.trim()));
      await v1Json(`/v1/voices/pvc/${voiceId}`, z.object({ voice_id: z.string() }), { method: "POST", json: { name: form.name, language: form.language, description: form.description || null, labels } });
      savedLanguage.current = form.language;
      setDirty(false);
      setSaveError(null);
      return true;
    } catch (e) {
      setSaveError(e instanceof ApiCallError ? e.message : pvcMessages.couldNotSaveVoice);
      return false;
    }
  }, [form, voiceId]);

  // Auto-save about a second after the last change, when the form is valid.
  useEffect(() => {
    if (!dirty || errors.name || errors.description || errors.language) return;
    const t = setTimeout(() => void save(), AUTO_SAVE_MS);
    return () => clearTimeout(t);
  }, [dirty, errors.name, errors.description, errors.language, save]);

  const edit = (patch: Partial<typeof form>) => {
    setForm((f) => ({ ...f, ...patch }));
    setDirty(true);
  };

  const setItem = (key: string, patch: Partial<FileItem>) => setFiles((all) => all.map((f) => (f.key === key ? { ...f, ...patch } : f)));

  const uploadOne = async (file: File, key: string, skipped: readonly string[] = []) => {
    try {
      setItem(key, { stage: "uploading", percent: 0 });
      const started = await v1Fetch(`/v1/voices/pvc/${voiceId}/uploads`, {
        method: "POST",
        body: JSON.stringify({ file_name: file.name, content_type: file.type || "application/octet-stream", size_bytes: file.size, skip_warnings: skipped }),
      });
      if (!started.ok) throw await apiCallError(started);
      const ticket = UploadTicketWire.parse(await started.json());
      const report = (done: number) => setItem(key, { percent: (100 * done) / file.size });
      if (ticket.kind === "single") {
        await putWithProgress(ticket.url!, file, ticket.headers, report);
      } else {
        // The URLs live 15 minutes: on a slow line, fresh ones for the parts still to go.
        let current = ticket;
        let offset = 0;
        for (const { part_number, size_bytes } of ticket.parts) {
          if (Date.now() / 1000 > current.expires_at_unix - 60) {
            const fresh = await v1Fetch(`/v1/voices/pvc/${voiceId}/uploads/${ticket.upload_id}`);
            if (!fresh.ok) throw await apiCallError(fresh);
            current = UploadTicketWire.parse(await fresh.json());
          }
          // A fresh ticket lists only the parts not stored yet.
          const part = current.parts.find((p) => p.part_number === part_number);
          const from = offset;
          if (part) await putWithProgress(part.url, file.slice(from, from + size_bytes), part.headers, (n) => report(from + n));
          offset += size_bytes;
        }
      }
      setItem(key, { stage: "processing", percent: 100 });
      const done = await v1Fetch(`/v1/voices/pvc/${voiceId}/uploads/${ticket.upload_id}/complete`, { method: "POST" });
      if (!done.ok) throw await apiCallError(done);
      setItem(key, { stage: "uploaded" });
      await reload();
      setFiles((all) => all.filter((f) => f.key !== key));
    } catch (e) {
      // The server's duplicate check (same audio as a sample) is the spec's skippable warning too.
      const warning = e instanceof ApiCallError && e.code === "duplicate_file" ? { code: "duplicate_file" } : null;
      setItem(key, { stage: "error", error: e instanceof Error ? e.message : pvcMessages.couldNotUpload, warning, code: e instanceof ApiCallError ? (e.code ?? null) : null });
    }
  };

  /** Files sent this session, by signature: a second copy is warned about before it is sent. */
  const sent = useRef(new Set<string>());

  const addFiles = (list: FileList | File[]) => {
    const language = form.language;
    const others = sampleLanguages(current.current.samples, current.current.items);
    // §5 rule 2 comes before the duplicate warning (rule 3): a file in another language is checked for that first.
    const mismatch = [...others].some((l) => l !== language);
    const items = [...list].map((file, i) => {
      const duplicate = sent.current.has(fileSignature(file));
      // A file refused for its language is not sent: adding it again later is no duplicate.
      if (!mismatch) sent.current.add(fileSignature(file));
      const base = { key: `${Date.now()}-${i}-${file.name}`, name: file.name, file, percent: 0, skipped: [], language };
      const item: FileItem =
        duplicate && !mismatch
          ? { ...base, stage: "error", error: pvcMessages.duplicateFile, warning: { code: "duplicate_file" }, code: "duplicate_file" }
          : { ...base, stage: "pending", error: null, warning: null, code: null };
      return item;
    });
    setFiles((all) => [...all, ...items]);
    // One at a time, in order: each is checked against the samples before it.
    void (async () => {
      if (mismatch) {
        // Its duration first (rule 1), then its language (rule 2); it is not sent.
        for (const item of items) {
          const problem = addedFileProblem(language, others, await probeDuration(item.file));
          if (problem) setItem(item.key, { stage: "error", error: problem.message, warning: null, code: problem.code });
        }
        return;
      }
      // A sample is stored in the voice's language: a language just chosen is saved before the files go.
      if (savedLanguage.current !== language && !(await save())) {
        for (const item of items) if (item.stage === "pending") setItem(item.key, { stage: "error", error: pvcMessages.invalidForm, warning: null, code: null });
        return;
      }
      for (const item of items) if (item.stage === "pending") await uploadOne(item.file, item.key);
    })();
  };

  /** Upload on a warning: the item returns to pending and remembers the warning it skips. */
  const uploadAnyway = (f: FileItem) => {
    if (!f.warning) return;
    const skipped = [...new Set([...f.skipped, f.warning.code])];
    setItem(f.key, { stage: "pending", error: null, warning: null, code: null, skipped, percent: 0 });
    void uploadOne(f.file, f.key, skipped);
  };

  const removeSample = async (sampleId: string) => {
    const r = await v1Fetch(`/v1/voices/pvc/${voiceId}/samples/${sampleId}`, { method: "DELETE" });
    if (r.ok) await reload();
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) addFiles(e.dataTransfer.files);
  };

  if (loadError) {
    return (
      <p className="form-error" role="alert">
        {loadError}
      </p>
    );
  }
  const samples = voice?.samples ?? [];
  const seconds = totalSeconds(samples);
  const busy = files.some((f) => f.stage === "pending" || f.stage === "uploading" || f.stage === "processing");
  const next = nextState(seconds, busy || busyNext);
  const share = ringShare(seconds);

  const goNext = async () => {
    setConfirming(false);
    // Every label the user added needs a value; the accent row the form starts with may stay empty (it is not sent).
    const lp = labelsProblem(form.labels.filter((l) => l.type !== "accent" || l.value));
    setLabelsError(lp);
    if (lp) return;
    setBusyNext(true);
    const saved = await save();
    if (saved) {
      await v1Fetch(`/v1/voices/pvc/${voiceId}`, { method: "POST", body: JSON.stringify({ is_draft: false }) });
      onNext(await reload());
    }
    setBusyNext(false);
  };

  return (
    <div className="pvc-data">
      <form className="pvc-form" onSubmit={(e) => (e.preventDefault(), void save())} noValidate>
        <label className="field">
          <span>Voice name</span>
          <input value={form.name} disabled={!loaded} onChange={(e) => edit({ name: e.target.value })} aria-invalid={errors.name ? true : undefined} />
          {errors.name && <span className="field-error">{errors.name}</span>}
        </label>
        <label className="field">
          <span>Language used in audio samples</span>
          <select
            value={form.language}
            disabled={!loaded}
            onChange={(e) => edit({ language: e.target.value, labels: setLanguage(form.labels, e.target.value) })}
            aria-invalid={errors.language ? true : undefined}
            aria-describedby={errors.language ? "pvc-language-error" : undefined}
          >
            {PVC_LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name}
              </option>
            ))}
          </select>
          {errors.language && (
            <span id="pvc-language-error" className="field-error" role="alert">
              {errors.language}
            </span>
          )}
        </label>
        <label className="field">
          <span>Description</span>
          <textarea rows={3} value={form.description} disabled={!loaded} onChange={(e) => edit({ description: e.target.value })} aria-invalid={errors.description ? true : undefined} />
          {errors.description && <span className="field-error">{errors.description}</span>}
        </label>
        <LabelsEditor
          labels={form.labels}
          languageElsewhere
          error={labelsError}
          onChange={(labels) => {
            setLabelsError(null);
            edit({ labels });
          }}
        />
        {saveError && (
          <p className="form-error" role="alert">
            {saveError}
          </p>
        )}
      </form>
      <div className="pvc-audio">
        <div className="pvc-ring" role="progressbar" aria-label="Audio for training" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(share * 100)} aria-valuetext={formatDuration(seconds)}>
          <div className="pvc-ring-bar" style={{ width: `${share * 100}%` }} />
          <ul className="pvc-ring-marks">
            {RING_MARKS.map((m) => (
              <li key={m.label} className={seconds >= m.seconds ? "reached" : undefined} style={{ left: `${ringShare(m.seconds) * 100}%` }}>
                {m.label}
              </li>
            ))}
          </ul>
          <p className="pvc-ring-total">{formatDuration(seconds)} of audio</p>
        </div>
        <div
          className={`pvc-drop${dragging ? " dragging" : ""}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          {dragging ? (
            <span>{pvcMessages.dropHere}</span>
          ) : (
            <>
              <button type="button" className="button" onClick={() => inputRef.current?.click()}>
                <Icon name="plus" size={16} />
                Upload samples
              </button>
              <button type="button" className="button" onClick={() => setRecording(true)}>
                <Icon name="voices" size={16} />
                Record yourself
              </button>
              <span className="pvc-drop-hint">or drag audio files here</span>
            </>
          )}
          <input
            ref={inputRef}
            type="file"
            accept="audio/*,video/*"
            multiple
            hidden
            aria-label="Upload samples"
            onChange={(e) => {
              if (e.target.files?.length) addFiles(e.target.files);
              e.target.value = "";
            }}
          />
        </div>
        <aside className="card pvc-sample-tips" aria-labelledby="pvc-sample-tips">
          <h3 id="pvc-sample-tips">{SAMPLE_TIPS_TITLE}</h3>
          <ul>
            {SAMPLE_TIPS.map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ul>
        </aside>
        <ul className="pvc-samples" aria-label="Samples">
          {files.map((f) => (
            <li key={f.key} className={`pvc-file ${f.stage}`} data-problem={f.warning ? "warning" : f.stage === "error" ? "error" : undefined} data-code={f.stage === "error" ? (f.code ?? undefined) : undefined}>
              <span className="pvc-sample-name">{f.name}</span>
              <span className="pvc-sample-meta" role={f.stage === "error" ? "alert" : "status"}>
                {f.stage === "error" ? f.error : fileStatusText(f.stage, f.percent)}
              </span>
              {f.stage === "error" && f.warning && (
                <button type="button" className="button button-small" aria-label={`Upload ${f.name}`} onClick={() => uploadAnyway(f)}>
                  Upload
                </button>
              )}
              {f.stage === "error" && (
                <button type="button" className="icon-button" aria-label={`Dismiss ${f.name}`} onClick={() => setFiles((all) => all.filter((x) => x.key !== f.key))}>
                  ×
                </button>
              )}
            </li>
          ))}
          {samples.map((s) => (
            <li key={s.sample_id} className="pvc-sample">
              <span className="pvc-sample-name">{s.file_name}</span>
              <span className="pvc-sample-meta">{formatDuration(s.duration_secs ?? 0)}</span>
              <button type="button" className="button button-small" aria-label={`Settings for ${s.file_name}`} onClick={() => setSettingsFor(s)}>
                Settings
              </button>
              <button type="button" className="icon-button" aria-label={`Delete ${s.file_name}`} onClick={() => void removeSample(s.sample_id)}>
                ×
              </button>
            </li>
          ))}
        </ul>
        {trainingOptOut && (
          <p className="muted pvc-training-notice" role="note">
            {TRAINING_OPT_OUT_NOTICE}
          </p>
        )}
        <SamplePlayerBar voiceId={voiceId} samples={samples} />
      </div>
      <div className="dialog-actions pvc-footer">
        {onBack && (
          <button type="button" className="button" onClick={onBack}>
            <Icon name="back" size={16} />
            Back
          </button>
        )}
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button" disabled={!dirty} onClick={() => void save()}>
          {dirty ? pvcMessages.save : pvcMessages.autoSaved}
        </button>
        <span className="pvc-next" title={next.tooltip ?? undefined}>
          <button
            type="button"
            className="button button-primary"
            disabled={next.disabled}
            aria-describedby={next.tooltip ? "pvc-next-why" : undefined}
            onClick={() => {
              // An invalid form (a language other than the samples', say) is not taken on.
              if (errors.name || errors.description || errors.language) return setSaveError(pvcMessages.invalidForm);
              if (seconds < PVC.recommendedSeconds) setConfirming(true);
              else void goNext();
            }}
          >
            Next
          </button>
          {next.tooltip && (
            <span id="pvc-next-why" className="pvc-next-why">
              {next.tooltip}
            </span>
          )}
        </span>
      </div>
      {settingsFor && (
        <SampleSettings
          voiceId={voiceId}
          sample={settingsFor}
          onClose={() => {
            setSettingsFor(null);
            void reload();
          }}
        />
      )}
      {recording && <RecorderDialog voiceId={voiceId} language={form.language} onRecorded={(f) => addFiles([f])} onClose={() => setRecording(false)} />}
      {!recording && <RecoveryDialog voiceId={voiceId} onRecover={(f) => addFiles([f])} />}
      {confirming && <ShortAudioConfirm seconds={seconds} onCancel={() => setConfirming(false)} onConfirm={() => void goNext()} />}
    </div>
  );
}

/** Under 30 minutes of audio: 'Are you sure you want to continue?', confirmable after 3 seconds. */
function ShortAudioConfirm({ seconds, onCancel, onConfirm }: { seconds: number; onCancel: () => void; onConfirm: () => void }) {
  const [wait, setWait] = useState<number>(PVC.confirmWaitSeconds);
  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);
  return (
    <Dialog title={pvcMessages.confirmContinue} onClose={onCancel}>
      <p>
        You have {formatDuration(seconds)} of audio. We recommend at least 30 minutes for a good Professional Voice Clone; with less, the clone may not sound like you.
      </p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button button-primary" disabled={wait > 0} onClick={onConfirm}>
          {wait > 0 ? `Continue (${wait})` : "Continue"}
        </button>
      </div>
    </Dialog>
  );
}

function FinishStep({ voiceId }: { voiceId: string }) {
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    // Finish starts fine-tuning on entry (once).
    if (started.current) return;
    started.current = true;
    void v1Fetch(`/v1/voices/pvc/${voiceId}/train`, { method: "POST", body: JSON.stringify({ model_id: FINISH_MODEL_ID }) }).then(async (r) => {
      // Started twice (a reload of this screen) is fine: it is already fine-tuning.
      if (r.ok || r.status === 409) return;
      setError((await apiCallError(r)).message || pvcMessages.failedToStartFineTuning);
    });
  }, [voiceId]);
  return (
    <div className="pvc-finish">
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : (
        <p>Fine-tuning has started. The voice is ready to use once its state reaches fine-tuned; its details panel shows the progress and the dataset quality report.</p>
      )}
      <p>
        <Link to={`/app/voice-lab?voiceId=${encodeURIComponent(voiceId)}`}>Open the voice's details</Link>
      </p>
      <div className="dialog-actions">
        <Link className="button button-primary" to="/app">
          {pvcMessages.finishButton}
        </Link>
      </div>
    </div>
  );
}
