import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Link } from "@remix-run/react";
import { Icon } from "../Icon.js";
import { useToast } from "../ui/Toast.js";
import { usePermissions } from "../../lib/shell.js";
import { permissionDeniedMessage } from "../../../../functions/platform/domain/permissions.js";
import { CreationDialog, Stepper } from "../voice-creation/CreationDialog.js";
import { LabelsEditor, labelsFromRecord, labelsProblem, labelsToRecord, type Label } from "../voice-creation/LabelsEditor.js";
import { Recorder } from "../voice-creation/Recorder.js";
import { Uploader, audioDuration } from "../voice-creation/Uploader.js";
import { usePlayback } from "../voice-creation/usePlayback.js";
import { ApiCallError, audioUrl, awaitDecision, clonePreview, getSubscription, getVerification, getVoice, saveClone, submitVerification, type Alternative, type VerificationState } from "../voice-creation/api.js";
import { checkFiles, progress, samplesKey, samplesProblem, samplesProblemNow, stepNames, totalSeconds, type CloneMode, type CloneStep, type SampleItem } from "./cloneState.js";
import { RECORDING_MAX_SECONDS, RECORDING_MIN_SECONDS, VERIFICATION_RECORDING_MAX_SECONDS, cloneMessages, designMessages, verificationMessages } from "../../../../functions/platform/contract/voiceCreation.js";
import { SAMPLE_MAX_BYTES, SAMPLE_MIN_SECONDS, VOICE_DESCRIPTION_MAX, voiceMessages } from "../../../../functions/platform/contract/voices.js";
import { ErrorText } from "../voices/ErrorText.js";

/**
 * The Instant Voice Clone dialog (voice-creation.md §2.3, §4, §5): Upload Audio (Edit Audio when
 * editing), Voice Information, Verification (Finish up once verified). Escape does not close it.
 * The upload step makes a preview voice whenever the files changed; the information step saves
 * it (a new voice, or the edited one); verification records the sentence shown, or is skipped.
 */
export function InstantCloneDialog({ mode, voiceId: initialVoiceId, onClose }: { mode: CloneMode; voiceId: string | null; onClose: () => void }) {
  const toast = useToast();
  const permissions = usePermissions();
  const [gate, setGate] = useState<string | null>(null);
  const [step, setStep] = useState<CloneStep>(mode === "verify" ? "verify" : "upload");
  const [voiceId, setVoiceId] = useState<string | null>(initialVoiceId);
  const [loaded, setLoaded] = useState(mode === "create");
  const [samples, setSamples] = useState<SampleItem[]>([]);
  const [denoise, setDenoise] = useState(true);
  const [preview, setPreview] = useState<{ id: string; url: string; key: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [labels, setLabels] = useState<Label[]>([{ type: "language", value: "en" }]);
  const [agree, setAgree] = useState(false);
  const [infoErrors, setInfoErrors] = useState<{ name?: string; description?: string; labels?: string | null; terms?: string; form?: string }>({});
  const [verified, setVerified] = useState(false);
  const [skipped, setSkipped] = useState(false);
  const playback = usePlayback();
  const ids = { name: useId(), description: useId() };
  const localId = useRef(0);
  const names = stepNames(mode, verified);

  // Plan and permission gates (voice-creation.md §6).
  useEffect(() => {
    if (permissions && !permissions.has("create_instant_voice_clone")) setGate(permissionDeniedMessage("create_instant_voice_clone"));
    getSubscription().then((s) => !s.can_use_instant_voice_cloning && setGate(cloneMessages.starterRequired), () => undefined);
  }, [permissions]);

  // Edit and verify start from the voice.
  useEffect(() => {
    if (!initialVoiceId || mode === "create") return;
    let live = true;
    getVoice(initialVoiceId).then(
      (v) => {
        if (!live) return;
        const ver = v.voice_verification;
        // Verify mode closes itself when the voice no longer needs verification.
        if (mode === "verify" && (!ver?.requires_verification || ver.is_verified)) {
          onClose();
          return;
        }
        setName(v.name);
        setDescription(v.description ?? "");
        setLabels(labelsFromRecord(v.labels ?? null));
        setSamples((v.samples ?? []).map((s) => ({ id: s.sample_id, name: s.file_name, seconds: s.duration_secs ?? null, remote: true })));
        setVerified(!!ver && (!ver.requires_verification || ver.is_verified));
        setLoaded(true);
      },
      () => live && setGate("Voice not found"),
    );
    return () => {
      live = false;
    };
  }, [initialVoiceId, mode, onClose]);

  const fresh = samples.filter((s) => !s.remote);
  const problem = samplesProblem(samples);
  // Said as soon as a file's duration is known, not only at Next.
  const problemNow = samplesProblemNow(samples);
  const key = samplesKey(samples) + `|${denoise}`;
  const bar = progress(samples);

  const addFiles = (files: File[]): string[] => {
    const { accepted, errors } = checkFiles(files, samples.length);
    for (const f of accepted) {
      const id = `local-${++localId.current}`;
      setSamples((all) => [...all, { id, name: f.name, seconds: null, remote: false, file: f }]);
      void audioDuration(f).then((seconds) => setSamples((all) => all.map((s) => (s.id === id ? { ...s, seconds } : s))));
    }
    return errors;
  };

  const addRecording = (file: File, seconds: number) => {
    const id = `local-${++localId.current}`;
    setSamples((all) => [...all, { id, name: file.name, seconds, remote: false, file, recorded: true }]);
  };

  const makePreview = async () => {
    setUploadError(problem);
    if (problem) return false;
    if (preview?.key === key) return true;
    setBusy(true);
    playback.stop();
    try {
      const form = new FormData();
      for (const s of fresh) form.append("files", s.file!, s.name);
      form.append("remove_background_noise", String(denoise));
      if (voiceId) {
        form.append("voice_id", voiceId);
        const original = (await getVoice(voiceId)).samples ?? [];
        const kept = new Set(samples.filter((s) => s.remote).map((s) => s.id));
        form.append("sample_ids_to_remove", JSON.stringify(original.filter((s) => !kept.has(s.sample_id)).map((s) => s.sample_id)));
      }
      form.append("labels", JSON.stringify(labelsToRecord(labels.filter((l) => l.value))));
      const p = await clonePreview(form);
      setPreview({ id: p.generated_voice_id, url: playback.own(audioUrl(p.audio_base_64, p.media_type)), key });
      return true;
    } catch (e) {
      setUploadError(e instanceof ApiCallError ? e.view.message : designMessages.somethingWentWrong);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const toInfo = async () => {
    if (await makePreview()) setStep("info");
  };

  const save = async () => {
    const e: typeof infoErrors = {};
    if (!name.trim()) e.name = voiceMessages.nameRequired;
    if (description.length > VOICE_DESCRIPTION_MAX) e.description = voiceMessages.descriptionTooLong;
    const lp = labelsProblem(labels);
    if (lp) e.labels = lp;
    // Terms are needed when new files were uploaded (voice-creation.md §5).
    if (fresh.length && !agree) e.terms = designMessages.agreeToTerms;
    setInfoErrors(e);
    if (Object.keys(e).length) return;
    if (!preview) {
      setStep("upload");
      return;
    }
    setBusy(true);
    try {
      const v = await saveClone({ cloned_voice_preview_id: preview.id, voice_name: name.trim(), voice_description: description.trim() || null, labels: labelsToRecord(labels), voice_id: voiceId });
      setVoiceId(v.voice_id);
      setSamples((v.samples ?? []).map((s) => ({ id: s.sample_id, name: s.file_name, seconds: s.duration_secs ?? null, remote: true })));
      setPreview(null);
      // No verification needed: the flow counts as verified (voice-creation.md §4).
      setVerified(!v.requires_verification);
      setStep(v.requires_verification ? "verify" : "finish");
    } catch (err) {
      setInfoErrors({ form: err instanceof ApiCallError ? err.view.message : designMessages.couldNotCreate });
    } finally {
      setBusy(false);
    }
  };

  const steps = [
    { key: "upload" as const, name: names.upload, enabled: mode !== "verify", done: !!voiceId && step !== "upload" },
    { key: "info" as const, name: names.info, enabled: mode !== "verify" && (!!preview || !!voiceId), done: !!voiceId && (step === "verify" || step === "finish") },
    // The Verification step is disabled until a voice exists.
    { key: "verify" as const, name: names.verify, enabled: !!voiceId, done: verified },
  ];
  const title = mode === "edit" ? "Edit Instant Voice Clone" : mode === "verify" ? "Verify your voice" : "Instant Voice Clone";

  if (gate) {
    return (
      <CreationDialog title={title} onClose={onClose} escapeCloses={false} testId="instant-clone-dialog">
        <p className="permission-denied" role="alert">
          {gate}
        </p>
      </CreationDialog>
    );
  }

  return (
    <CreationDialog title={title} subtitle="10 seconds of audio is enough to clone a voice" onClose={onClose} escapeCloses={false} testId="instant-clone-dialog">
      <Stepper steps={steps} current={step === "finish" ? "verify" : step} onSelect={(k) => (k === "info" ? void toInfo() : setStep(k))} />
      {!loaded ? (
        <p className="muted">Loading the voice…</p>
      ) : step === "upload" ? (
        <section aria-label={names.upload} className="clone-upload">
          <Uploader onFiles={addFiles} hint={`Audio or video files, at least 5 s each, up to ${SAMPLE_MAX_BYTES / 1048576} MB`} />
          <Recorder minSeconds={RECORDING_MIN_SECONDS} maxSeconds={RECORDING_MAX_SECONDS} label="Record audio" onRecorded={addRecording} />
          {samples.length > 0 && (
            <ul className="sample-list" aria-label="Samples">
              {samples.map((s) => (
                <li key={s.id} className="sample-row">
                  <Icon name="waveform" />
                  <span className="sample-name">{s.name}</span>
                  <span className={!s.remote && s.seconds !== null && s.seconds < SAMPLE_MIN_SECONDS ? "sample-too-short" : "muted"}>{s.seconds === null ? "…" : `${s.seconds.toFixed(1)} s`}</span>
                  <button type="button" className="icon-button icon-button-sm" aria-label={`Remove ${s.name}`} onClick={() => setSamples((all) => all.filter((x) => x.id !== s.id))}>
                    <Icon name="trash" />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="clone-progress">
            <div className="meter" role="progressbar" aria-label="Audio collected" aria-valuemin={0} aria-valuemax={180} aria-valuenow={Math.round(totalSeconds(samples))} aria-valuetext={bar.label}>
              <div className="meter-fill" style={{ width: `${Math.round(bar.fraction * 100)}%` }} />
            </div>
            <p className="field-hint" data-testid="clone-progress-label">
              {bar.label}
            </p>
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={denoise} onChange={(e) => setDenoise(e.target.checked)} /> {cloneMessages.removeBackgroundNoise}
          </label>
          {(uploadError ?? problemNow) && (
            <ErrorText message={(uploadError ?? problemNow)!} />
          )}
          {preview && (
            <p className="clone-preview">
              <button type="button" className="button button-small" aria-pressed={playback.playing === preview.id} onClick={() => void playback.toggle(preview.id, preview.url)}>
                <Icon name={playback.playing === preview.id ? "pause" : "play"} /> Play the cloned voice
              </button>
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" className="button button-primary" onClick={() => void toInfo()} disabled={busy || !samples.length}>
              {busy && <span className="spinner" aria-hidden="true" />}
              Next
            </button>
          </div>
        </section>
      ) : step === "info" ? (
        <form
          className="save-form"
          aria-label={names.info}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          {preview && (
            <p className="clone-preview">
              <button type="button" className="button button-small" aria-pressed={playback.playing === preview.id} onClick={() => void playback.toggle(preview.id, preview.url)}>
                <Icon name={playback.playing === preview.id ? "pause" : "play"} /> Play the cloned voice
              </button>
            </p>
          )}
          <div className="field">
            <label htmlFor={ids.name}>Voice name</label>
            <input id={ids.name} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} aria-invalid={!!infoErrors.name || undefined} />
            {infoErrors.name && <p className="field-error">{infoErrors.name}</p>}
          </div>
          <div className="field">
            <label htmlFor={ids.description}>Description</label>
            <textarea id={ids.description} rows={3} value={description} onChange={(e) => setDescription(e.target.value)} aria-invalid={!!infoErrors.description || undefined} />
            {infoErrors.description && <p className="field-error">{infoErrors.description}</p>}
          </div>
          <LabelsEditor labels={labels} onChange={setLabels} error={infoErrors.labels} />
          {fresh.length > 0 && (
            <label className="checkbox">
              <input type="checkbox" checked={agree} onChange={(e) => setAgree(e.target.checked)} /> I confirm these recordings are of my own voice, or that I have the speaker's consent to clone it.
            </label>
          )}
          {infoErrors.terms && <p className="field-error">{infoErrors.terms}</p>}
          {infoErrors.form && <ErrorText message={infoErrors.form} />}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setStep("upload")}>
              Back
            </button>
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy && <span className="spinner" aria-hidden="true" />}
              Save voice
            </button>
          </div>
        </form>
      ) : step === "verify" && voiceId && !verified ? (
        <VerificationStep
          voiceId={voiceId}
          onVerified={() => {
            setVerified(true);
            setStep("finish");
          }}
          onSkip={() => {
            setSkipped(true);
            setStep("finish");
          }}
          onError={(m) => toast.show({ kind: "error", message: m })}
        />
      ) : (
        <FinishUp voiceId={voiceId} skipped={skipped && !verified} />
      )}
    </CreationDialog>
  );
}

type Outcome = { kind: "idle" } | { kind: "checking" } | { kind: "failed"; reasons: string[]; attemptsLeft: number; alternatives: Alternative[] } | { kind: "max" };

/** Verification: the sentence to read, a recording of at most 15 s, the decision. */
function VerificationStep({ voiceId, onVerified, onSkip, onError }: { voiceId: string; onVerified: () => void; onSkip: () => void; onError: (m: string) => void }) {
  const [state, setState] = useState<VerificationState | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ kind: "idle" });
  const [recording, setRecording] = useState<{ url: string } | null>(null);
  const playback = usePlayback();

  const load = useCallback(async () => {
    try {
      const s = await getVerification(voiceId);
      if (!s.requires_verification || s.is_verified) onVerified();
      else if (s.attempts_left <= 0) setOutcome({ kind: "max" });
      setState(s);
    } catch (e) {
      onError(e instanceof ApiCallError ? e.view.message : designMessages.somethingWentWrong);
    }
  }, [voiceId, onVerified, onError]);
  useEffect(() => void load(), [load]);

  const submit = async (file: File) => {
    setRecording({ url: playback.own(URL.createObjectURL(file)) });
    setOutcome({ kind: "checking" });
    try {
      // Still deciding: ask again until the attempt has its decision (api.ts awaitDecision).
      const r = await awaitDecision(await submitVerification(voiceId, file, file.name), () => getVerification(voiceId));
      if (r.kind === "verified" || r.kind === "already_verified") onVerified();
      else if (r.kind === "max_attempts") setOutcome({ kind: "max" });
      else if (r.kind === "failed") setOutcome({ kind: "failed", reasons: r.reasons, attemptsLeft: r.attemptsLeft, alternatives: r.alternatives });
      else setOutcome({ kind: "failed", reasons: [verificationMessages.unknownError], attemptsLeft: state?.attempts_left ?? 0, alternatives: [] });
    } catch (e) {
      onError(e instanceof ApiCallError ? e.view.message : designMessages.somethingWentWrong);
      setOutcome({ kind: "idle" });
    }
  };

  if (outcome.kind === "max") {
    return (
      <section className="verify" aria-label="Verification">
        <p className="form-error" role="alert">
          {verificationMessages.maxAttempts} {verificationMessages.maxAttemptsHint}
        </p>
      </section>
    );
  }
  if (outcome.kind === "failed") {
    return (
      <section className="verify" aria-label="Verification">
        <h3>{verificationMessages.attemptFailed}</h3>
        <ul className="plain-list">
          {outcome.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
        <p className="muted">{outcome.attemptsLeft} attempts left</p>
        <div className="inline-form">
          {recording && (
            <button type="button" className="button" onClick={() => void playback.toggle("recording", recording.url)}>
              <Icon name={playback.playing === "recording" ? "pause" : "play"} /> Play recording
            </button>
          )}
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              setOutcome({ kind: "idle" });
              void load();
            }}
          >
            Try again
          </button>
        </div>
        {outcome.alternatives.length > 0 && (
          <div className="alternatives">
            <p className="section-title">Similar voices from the Voice Library</p>
            <ul className="alternative-list">
              {outcome.alternatives.slice(0, 4).map((a) => (
                <li key={a.voice_id}>
                  <Link to={`/app/voice-library?voiceId=${encodeURIComponent(a.voice_id)}`}>{a.name}</Link>
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
    );
  }
  return (
    <section className="verify" aria-label="Verification">
      <p>Read this out loud, in your own voice, within {VERIFICATION_RECORDING_MAX_SECONDS} seconds:</p>
      <blockquote className="verify-sentence" data-testid="verification-sentence">
        {state?.text ?? "…"}
      </blockquote>
      {outcome.kind === "checking" ? (
        <p role="status">
          <span className="spinner" aria-hidden="true" /> Checking your recording…
        </p>
      ) : (
        <Recorder minSeconds={1} maxSeconds={VERIFICATION_RECORDING_MAX_SECONDS} stopEarly={false} label="Record the sentence" onRecorded={(f) => void submit(f)} disabled={!state?.text} />
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onSkip}>
          Skip for now
        </button>
      </div>
    </section>
  );
}

/** The finish cards (voice-creation.md §2.3). */
function FinishUp({ voiceId, skipped }: { voiceId: string | null; skipped: boolean }) {
  const tts = `/app/speech-synthesis/text-to-speech${voiceId ? `?voice_id=${encodeURIComponent(voiceId)}` : ""}`;
  return (
    <section className="finish" aria-label="Finish up">
      {skipped && <p className="inline-warning">Verification skipped: the voice cannot be used until it is verified.</p>}
      <ul className="finish-cards">
        <li>
          <Link className="finish-card" to={tts}>
            <Icon name="tts" />
            <span>Generate speech</span>
          </Link>
        </li>
        <li>
          <Link className="finish-card" to="/app/conversational-ai">
            <Icon name="agents" />
            <span>Speak with yourself</span>
          </Link>
        </li>
        <li>
          <Link className="finish-card" to="/app/studio">
            <Icon name="studio" />
            <span>Narrate a story</span>
          </Link>
        </li>
      </ul>
    </section>
  );
}
