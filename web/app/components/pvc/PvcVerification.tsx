import { Link } from "@remix-run/react";
import { FormActions } from "../FormActions.js";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { z } from "zod";
import { Dialog } from "../Dialog.js";
import { Icon } from "../Icon.js";
import { Recorder } from "../voice-creation/Recorder.js";
import { useToast } from "../ui/Toast.js";
import { apiCallError, v1Fetch, v1Json } from "../tts/client.js";
import { formatDateTimeFull } from "../../lib/format.js";
import { docsPath, legalPath } from "../../lib/links.js";
import { PVC, pvcMessages } from "./wizard.js";
import { attemptsLinkShown, maxAttemptsScreen, remainingAttempts, relativeTime, type VerifyVoice, VerifyVoiceWire } from "./verification.js";

/**
 * The wizard's Verification screen (professional-voice-clone.md §2 "Verification screen", §4
 * "Verification attempts" and "Verification flow", §8): starting a recording fetches the captcha
 * image, the recording (at most 15 s) is submitted on stop and the voice is refetched; a failure
 * shows 'Voice verification attempt failed' with Play recording, Try again and Manual
 * verification; the attempts-left link opens 'Verification history'; the maximum-attempts
 * screen says when to try again. It moves on to Finish once the voice may be fine-tuned (or the
 * workspace skips the captcha, or the server says it is already verified).
 */
const SubscriptionFlags = z.object({ can_bypass_voice_captcha: z.boolean().nullish(), can_request_manual_pro_voice_verification: z.boolean().nullish() }).passthrough();
const FailureDetail = z.object({ status: z.string(), message: z.string(), reasons: z.array(z.string()).default([]) });

type View = { kind: "record" } | { kind: "submitting" } | { kind: "failed"; reasons: string[] } | { kind: "max" };

export function PvcVerification({ voiceId, onVerified, onBack, onSkip }: { voiceId: string; onVerified: () => void; onBack?: () => void; onSkip?: () => void }) {
  const toast = useToast();
  const [voice, setVoice] = useState<VerifyVoice | null>(null);
  const [flags, setFlags] = useState<z.infer<typeof SubscriptionFlags> | null>(null);
  const [view, setView] = useState<View>({ kind: "record" });
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [recording, setRecording] = useState<string | null>(null);
  const [serverMax, setServerMax] = useState(false);
  const [history, setHistory] = useState(false);
  const [manual, setManual] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const done = useRef(false);
  const urls = useRef<string[]>([]);

  const moveOn = useCallback(() => {
    if (done.current) return;
    done.current = true;
    onVerified();
  }, [onVerified]);

  const refetch = useCallback(async () => {
    const v = await v1Json(`/v1/voices/${encodeURIComponent(voiceId)}`, VerifyVoiceWire);
    setVoice(v);
    setNow(Date.now());
    if (v.fine_tuning?.is_allowed_to_fine_tune || v.voice_verification?.requires_verification === false) moveOn();
    return v;
  }, [voiceId, moveOn]);

  useEffect(() => {
    void refetch().catch((e: unknown) => setError(e instanceof Error ? e.message : pvcMessages.couldNotSaveVoice));
    void v1Json("/v1/user/subscription", SubscriptionFlags)
      .then((f) => {
        setFlags(f);
        if (f.can_bypass_voice_captcha) moveOn();
      })
      .catch(() => setFlags({}));
  }, [refetch, moveOn]);

  useEffect(() => () => urls.current.forEach((u) => URL.revokeObjectURL(u)), []);
  const objectUrl = (b: Blob) => {
    const u = URL.createObjectURL(b);
    urls.current.push(u);
    return u;
  };

  const alreadyVerified = () => {
    toast.show({ message: pvcMessages.alreadyVerified, kind: "success" });
    moveOn();
  };

  /** Starting a recording fetches the captcha image. */
  const fetchCaptcha = async () => {
    setError(null);
    setCaptcha(null);
    const r = await v1Fetch(`/v1/voices/pvc/${encodeURIComponent(voiceId)}/captcha`, { cache: "no-store" });
    if (r.ok) {
      setCaptcha(objectUrl(await r.blob()));
      return;
    }
    const detail = FailureDetail.safeParse(((await r.clone().json().catch(() => ({}))) as { detail?: unknown }).detail);
    if (detail.success && detail.data.status === "already_verified") return alreadyVerified();
    if (detail.success && detail.data.status === "max_verification_attempts_reached") {
      setServerMax(true);
      setView({ kind: "max" });
      return;
    }
    setError((await apiCallError(r)).message);
  };

  /** The recording is submitted on stop; then the voice is refetched. */
  const submit = async (file: File) => {
    setRecording(objectUrl(file));
    setView({ kind: "submitting" });
    setError(null);
    const form = new FormData();
    form.append("recording", file, file.name);
    try {
      const r = await v1Fetch(`/v1/voices/pvc/${encodeURIComponent(voiceId)}/captcha?wait=20`, { method: "POST", body: form });
      if (r.status === 200) {
        await refetch();
        moveOn();
        return;
      }
      if (r.status === 202) {
        // Still deciding: wait for the attempt to be decided, then read the voice.
        for (let i = 0; i < 60; i++) {
          await new Promise((d) => setTimeout(d, 2000));
          const s = await v1Json(`/v1/voices/${encodeURIComponent(voiceId)}/verification`, z.object({ pending_attempt_id: z.string().nullish(), is_verified: z.boolean(), last_attempt: z.object({ reasons: z.array(z.string()) }).nullish() }).passthrough());
          if (s.pending_attempt_id) continue;
          const v = await refetch();
          if (s.is_verified || v.fine_tuning?.is_allowed_to_fine_tune) return moveOn();
          setView({ kind: "failed", reasons: s.last_attempt?.reasons ?? [] });
          return;
        }
      }
      const detail = FailureDetail.safeParse(((await r.clone().json().catch(() => ({}))) as { detail?: unknown }).detail);
      await refetch().catch(() => undefined);
      if (detail.success && detail.data.status === "verification_failed") return setView({ kind: "failed", reasons: detail.data.reasons });
      if (detail.success && detail.data.status === "already_verified") return alreadyVerified();
      if (detail.success && detail.data.status === "max_verification_attempts_reached") {
        setServerMax(true);
        return setView({ kind: "max" });
      }
      setView({ kind: "record" });
      setError((await apiCallError(r)).message);
    } catch {
      setView({ kind: "record" });
      setError(pvcMessages.networkError);
    }
  };

  if (!voice) {
    return (
      <div className="pvc-verify">
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </div>
    );
  }

  const ft = voice.fine_tuning ?? {};
  const left = remainingAttempts(ft);
  const showAttemptsLink = attemptsLinkShown(ft, now);
  const max = maxAttemptsScreen(ft, serverMax, now);
  const requested = ft.manual_verification_requested === true;
  const rejected = ft.manual_verification?.status === "rejected" ? ft.manual_verification : null;
  const canManual = flags?.can_request_manual_pro_voice_verification === true;

  const manualButton = canManual ? (
    <button type="button" className="button" onClick={() => setManual(true)} disabled={requested}>
      {requested ? pvcMessages.manualVerificationRequested : pvcMessages.manualVerification}
    </button>
  ) : null;

  return (
    <div className="pvc-verify" data-testid="pvc-verification">
      <p>
        Read the words in the image aloud, in the voice you are cloning, to show the voice is yours. By verifying you agree to the <Link to={legalPath("terms")}>Terms of Service</Link> and the{" "}
        <Link to={legalPath("privacy")}>Privacy Policy</Link>.
      </p>
      {rejected && (
        <p className="form-error" role="status">
          {pvcMessages.manualRejectedIntro} {rejected.rejection_reason}
        </p>
      )}
      {requested && <p className="muted">{pvcMessages.manualPendingText}</p>}

      {view.kind === "max" || (max.shown && view.kind !== "failed") ? (
        <div className="pvc-verify-max" role="status">
          <h3>{pvcMessages.maxAttempts}</h3>
          {max.resetMs !== null ? (
            <p>You can try again {relativeTime(max.resetMs, now)}.</p>
          ) : (
            <p>
              Please visit the <Link to={docsPath("help-center")}>Help Center</Link> for help with verifying this voice.
            </p>
          )}
          <div className="dialog-actions">{manualButton}</div>
        </div>
      ) : view.kind === "failed" ? (
        <div className="pvc-verify-failed" role="alert">
          <h3>{pvcMessages.attemptFailed}</h3>
          <ul>
            {(view.reasons.length ? view.reasons : [pvcMessages.unknownFailure]).map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
          {recording && <audio className="visually-hidden" id="pvc-verify-recording" src={recording} preload="auto" />}
          <div className="dialog-actions">
            {recording && (
              <button type="button" className="button" onClick={() => void (document.getElementById("pvc-verify-recording") as HTMLAudioElement | null)?.play()}>
                <Icon name="play" size={16} />
                {pvcMessages.playRecording}
              </button>
            )}
            <button
              type="button"
              className="button button-primary"
              onClick={() => {
                setCaptcha(null);
                setView({ kind: "record" });
              }}
            >
              {pvcMessages.tryAgain}
            </button>
            {manualButton}
          </div>
        </div>
      ) : (
        <div className="pvc-verify-record">
          <div className="pvc-captcha" aria-live="polite">
            {captcha ? <img src={captcha} alt={pvcMessages.captchaAlt} data-testid="pvc-captcha" /> : <p className="muted">The words to read appear here when you start recording.</p>}
          </div>
          {view.kind === "submitting" ? (
            <p role="status">
              <span className="spinner" aria-hidden="true" /> Checking your recording…
            </p>
          ) : (
            <Recorder minSeconds={1} maxSeconds={PVC.verification.captchaMaxSeconds} stopEarly={false} onStart={() => void fetchCaptcha()} onRecorded={(f) => void submit(f)} label="Record" />
          )}
          {manualButton && <div className="dialog-actions">{manualButton}</div>}
        </div>
      )}

      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions pvc-verify-footer">
        {onBack && (
          <button type="button" className="button" onClick={onBack}>
            <Icon name="back" size={16} />
            Back
          </button>
        )}
        {onSkip && (
          <button type="button" className="button" onClick={onSkip}>
            Skip
          </button>
        )}
        {showAttemptsLink && (
          <button type="button" className="pvc-attempts-link" onClick={() => setHistory(true)}>
            {left === 1 ? "1 attempt left" : `${left} attempts left`}
          </button>
        )}
      </div>

      {history && <HistoryDialog voice={voice} onClose={() => setHistory(false)} />}
      {manual && (
        <ManualDialog
          voiceId={voiceId}
          name={voice.name}
          onClose={() => setManual(false)}
          onSent={() => {
            setManual(false);
            toast.show({ message: pvcMessages.manualSent, kind: "success" });
            void refetch();
          }}
        />
      )}
    </div>
  );
}

function HistoryDialog({ voice, onClose }: { voice: VerifyVoice; onClose: () => void }) {
  const attempts = [...(voice.fine_tuning?.verification_attempts ?? [])].reverse();
  return (
    <Dialog title={pvcMessages.verificationHistory} onClose={onClose}>
      {attempts.length === 0 ? (
        <p className="muted">No attempts yet.</p>
      ) : (
        <ol className="pvc-history">
          {attempts.map((a, i) => (
            <li key={`${a.date_unix}-${i}`}>
              <span className="pvc-history-date">{formatDateTimeFull(a.date_unix)}</span>
              <span className="pvc-history-result">{a.accepted ? "Verified" : a.status === "pending" ? "Checking…" : "Failed"}</span>
              {!a.accepted && a.status !== "pending" && (
                <ul>
                  {(a.reasons?.length ? a.reasons : [pvcMessages.unknownFailure]).map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  );
}

const ACCEPT = ".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png";

/** 'Manual verification request for {name}': documents and a supporting text, checked here as the API checks them. */
function ManualDialog({ voiceId, name, onClose, onSent }: { voiceId: string; name: string; onClose: () => void; onSent: () => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const [extraText, setExtraText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const M = PVC.verification;

  const check = (): string | null => {
    if (files.length === 0) return pvcMessages.manualNoFiles;
    if (files.length > M.manualFiles) return pvcMessages.manualTooManyFiles;
    if (files.reduce((n, f) => n + f.size, 0) >= M.manualBytes) return pvcMessages.manualTooLarge;
    if ([...extraText].length > M.manualTextMax) return pvcMessages.manualTextTooLong;
    return null;
  };

  const send = async (e: FormEvent) => {
    e.preventDefault();
    const problem = check();
    setError(problem);
    if (problem) return;
    setBusy(true);
    const form = new FormData();
    for (const f of files) form.append("files", f, f.name);
    if (extraText) form.append("extra_text", extraText);
    try {
      const r = await v1Fetch(`/v1/voices/pvc/${encodeURIComponent(voiceId)}/verification`, { method: "POST", body: form });
      if (r.ok) return onSent();
      setError((await apiCallError(r)).message);
    } catch {
      setError(pvcMessages.networkError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={pvcMessages.manualVerificationTitle(name)} onClose={onClose}>
      <form className="stack-form pvc-manual" onSubmit={(e) => void send(e)} noValidate>
        <p className="muted">Send up to {M.manualFiles} documents (PDF, JPG or PNG, under 10 MB in all) that show the voice is yours, for the server's administrators to review.</p>
        <div className="field">
          <label htmlFor="pvc-manual-files">Supporting documents</label>
          <input
            id="pvc-manual-files"
            type="file"
            multiple
            accept={ACCEPT}
            onChange={(e) => {
              const picked = [...(e.target.files ?? [])];
              setFiles((prev) => [...prev, ...picked]);
              e.target.value = "";
            }}
          />
        </div>
        {files.length > 0 && (
          <ul className="pvc-manual-files">
            {files.map((f, i) => (
              <li key={`${f.name}-${i}`}>
                <span className="pvc-sample-name">{f.name}</span>
                <button type="button" className="icon-button icon-button-sm" aria-label={`Remove ${f.name}`} onClick={() => setFiles((prev) => prev.filter((_, j) => j !== i))}>
                  <Icon name="close" size={16} />
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="field">
          <label htmlFor="pvc-manual-text">Supporting Text</label>
          <textarea id="pvc-manual-text" value={extraText} onChange={(e) => setExtraText(e.target.value)} rows={4} />
          <span className="muted">
            {[...extraText].length} / {M.manualTextMax}
          </span>
        </div>
        <FormActions error={error} onCancel={onClose} busy={busy} submit="Send request" />
      </form>
    </Dialog>
  );
}
