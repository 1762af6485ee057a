import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useRouteLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Dialog } from "../Dialog.js";
import { Icon } from "../Icon.js";
import { apiToken, v1Json } from "../tts/client.js";
import { LIVE_ENDING_CODES, LiveServerMessageWire } from "../../../../functions/platform/contract/pvcRecorder.js";
import { PVC_LANGUAGES } from "./wizard.js";
import {
  LIVE_READING,
  PVC,
  RECORDER_BITS_PER_SECOND,
  RECORDER_TIPS,
  SCRIPT_STYLES,
  backupFile,
  checkScriptFile,
  clearBackup,
  detectionSample,
  highlightLength,
  isScriptLanguage,
  passagesOf,
  HeldAudio,
  pvcMessages,
  readBackup,
  recorderText,
  recordingName,
  scriptUrl,
  writeBackup,
  type RecordingBackup,
  type Script,
  type ScriptStyle,
} from "./recorder.js";
import "../../styles/pvc-recorder.css";

/**
 * 'Record audio samples' (professional-voice-clone.md §2 "Recorder dialog", §4 "Recorder"):
 * the tips, the microphone, a script (bundled per language and style, or uploaded), start /
 * restart / stop through idle -> microphone permission -> 3 s countdown -> recording -> stopping.
 * While recording, the script's words light up as they are read (the live reading websocket,
 * 16 kHz PCM from the same microphone) and the recording is backed up every 30 s in localStorage
 * under 'pvc'. A finished recording of at least 30 s goes to the wizard's upload queue
 * (`onRecorded`); closing the dialog cancels a recording in progress and drops its backup. One
 * owner for every resource: tracks, audio context, recorder, socket and timers end on stop,
 * restart and unmount.
 */
type Phase = "idle" | "permission" | "countdown" | "recording" | "stopping";
type Live = "off" | "connecting" | "on" | "failed";
const MIME_TYPES = ["audio/webm;codecs=opus", "audio/webm", "audio/mp4"];

/** The raw microphone (no echo cancellation, noise suppression or gain control: the clone would copy them). */
function micConstraints(deviceId: string): MediaStreamConstraints {
  return { audio: { ...(deviceId ? { deviceId: { exact: deviceId } } : {}), echoCancellation: false, noiseSuppression: false, autoGainControl: false } };
}

const languageName = (code: string) => PVC_LANGUAGES.find((l) => l.code === code)?.name ?? code;

interface Take {
  stream?: MediaStream;
  rec?: MediaRecorder;
  chunks: Blob[];
  mimeType: string;
  startedAt: number;
  audio?: AudioContext;
  socket?: WebSocket;
  timers: number[];
  /** Set when the take was cancelled (restart, close): its stop emits nothing. */
  cancelled: boolean;
}

export function RecorderDialog({ voiceId, language, onRecorded, onClose }: { voiceId: string; language: string; onRecorded: (file: File) => void; onClose: () => void }) {
  const id = useId();
  const [phase, setPhase] = useState<Phase>("idle");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [deviceId, setDeviceId] = useState("");
  const [count, setCount] = useState<number>(PVC.countdownSeconds);
  const [elapsed, setElapsed] = useState(0);
  const [choice, setChoice] = useState<ScriptStyle | "uploaded" | "none">("conversational");
  const [script, setScript] = useState<Script | null>(null);
  const [scriptError, setScriptError] = useState<string | null>(null);
  const [passage, setPassage] = useState(0);
  const [transcript, setTranscript] = useState("");
  const [live, setLive] = useState<Live>("off");
  // On AWS the websocket is API Gateway's (the root loader says where); elsewhere this origin serves it.
  const root = useRouteLoaderData<{ liveReadingUrl: string | null; recordingBackupMs: number | null }>("root");
  const liveReadingUrl = root?.liveReadingUrl ?? null;
  // The server's PVC_RECORDING_BACKUP_SECONDS (the spec's 30 s unless the operator set it).
  const backupMs = root?.recordingBackupMs ?? PVC.recordingBackupMs;
  const [backupNote, setBackupNote] = useState<string | null>(null);
  const [mismatch, setMismatch] = useState<{ script: Script; detected: string } | null>(null);
  const [recovery, setRecovery] = useState<RecordingBackup | null>(null);
  const take = useRef<Take | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const scriptLanguage = isScriptLanguage(language) ? language : "en";
  const passages = script ? passagesOf(script.text) : [];
  const current = passages[passage] ?? "";
  // The socket's handlers read the latest passages through this.
  const latest = useRef({ passages, passage, language });
  latest.current = { passages, passage, language };

  /** Ends a take's resources; with `cancel`, its recorder's stop emits nothing. */
  const release = useCallback((t: Take | null, cancel: boolean) => {
    if (!t) return;
    if (cancel) t.cancelled = true;
    t.timers.forEach((x) => {
      window.clearTimeout(x);
      window.clearInterval(x);
    });
    t.timers = [];
    if (cancel && t.rec && t.rec.state !== "inactive") t.rec.stop();
    t.stream?.getTracks().forEach((x) => x.stop());
    void t.audio?.close().catch(() => undefined);
    t.audio = undefined;
    if (t.socket && t.socket.readyState <= WebSocket.OPEN) t.socket.close(1000);
    t.socket = undefined;
  }, []);

  // Leaving the screen cancels the recording (and its backup: it was not finished, it was abandoned).
  useEffect(
    () => () => {
      if (take.current && !take.current.cancelled) {
        release(take.current, true);
        clearBackup(window.localStorage);
      }
    },
    [release],
  );

  // A recording a crash left behind is offered first.
  useEffect(() => {
    const b = readBackup(window.localStorage);
    if (b && b.voiceId === voiceId) setRecovery(b);
  }, [voiceId]);

  // The bundled script of the chosen style, in the samples' language.
  useEffect(() => {
    if (choice === "uploaded") return;
    setPassage(0);
    setTranscript("");
    if (choice === "none") {
      setScript(null);
      setScriptError(null);
      return;
    }
    let alive = true;
    setScriptError(null);
    fetch(scriptUrl(scriptLanguage, choice))
      .then(async (r) => {
        if (!r.ok) throw new Error(String(r.status));
        const text = await r.text();
        if (alive) setScript({ type: choice, text, language: scriptLanguage });
      })
      .catch(() => {
        if (!alive) return;
        setScript(null);
        setScriptError(pvcMessages.scriptLoadFailed);
      });
    return () => {
      alive = false;
    };
  }, [choice, scriptLanguage]);

  const goToPassage = (i: number) => {
    setPassage(i);
    setTranscript("");
    const t = take.current;
    const text = latest.current.passages[i];
    if (t?.socket?.readyState === WebSocket.OPEN && text) t.socket.send(JSON.stringify({ script: text }));
  };

  // When the passage has been read to its end, the next one follows.
  useEffect(() => {
    if (current && transcript && highlightLength(current, transcript) >= current.length && passage + 1 < passages.length) goToPassage(passage + 1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [transcript]);

  const openLive = async (t: Take, stream: MediaStream) => {
    const first = latest.current.passages[latest.current.passage];
    if (!first) return;
    setLive("connecting");
    // The microphone is listened to from the first moment of the recording; what is read while
    // the socket opens is held back and sent after the script.
    const held = new HeldAudio((LIVE_READING.burstSeconds - 1) * LIVE_READING.sampleRate);
    let send: ((b64: string) => void) | null = null;
    try {
      // 16 kHz from the same microphone, a quarter second at a time.
      const audio = new AudioContext({ sampleRate: LIVE_READING.sampleRate });
      t.audio = audio;
      const source = audio.createMediaStreamSource(stream);
      const processor = audio.createScriptProcessor(4096, 1, 1);
      processor.onaudioprocess = (e) => held.push(e.inputBuffer.getChannelData(0), send);
      source.connect(processor);
      processor.connect(audio.destination);
      const token = await apiToken();
      if (t.cancelled) return;
      const url = liveReadingUrl ?? `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}${LIVE_READING.path}`;
      const socket = new WebSocket(url, [LIVE_READING.subprotocol, `${LIVE_READING.bearerPrefix}${token}`]);
      t.socket = socket;
      socket.onopen = () => {
        socket.send(JSON.stringify({ language: latest.current.language, script: latest.current.passages[latest.current.passage] }));
        send = (b64) => {
          if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ user_audio_chunk: b64 }));
        };
        held.flush(send);
      };
      socket.onmessage = (e) => {
        const parsed = LiveServerMessageWire.safeParse(JSON.parse(String(e.data)));
        if (!parsed.success) return;
        const m = parsed.data;
        if (m.type === "session_started") setLive("on");
        else if (m.type === "user_transcript") setTranscript(m.user_transcription_event.user_transcript);
        else if (m.type === "ping") socket.send(JSON.stringify({ type: "pong", event_id: m.ping_event.event_id }));
        // Recognition errors are reported (§8), not shown: the recording goes on.
        else if (m.type === "error") {
          console.warn("live reading:", m.error.code, m.error.message);
          // On AWS the close that follows carries API Gateway's code, not ours: this says the session ends.
          if (LIVE_ENDING_CODES.has(m.error.code)) setLive("failed");
        }
      };
      socket.onclose = (e) => {
        if (!t.cancelled && e.code !== 1000) setLive("failed");
      };
    } catch (e) {
      console.warn("live reading unavailable:", e);
      setLive("failed");
    }
  };

  const backupNow = async (t: Take) => {
    if (!t.chunks.length || t.cancelled) return;
    const blob = new Blob(t.chunks, { type: t.mimeType });
    const dataUrl = await new Promise<string>((resolve, reject) => {
      const r = new FileReader();
      r.onload = () => resolve(String(r.result));
      r.onerror = () => reject(r.error);
      r.readAsDataURL(blob);
    });
    if (t.cancelled) return;
    const kept = writeBackup(window.localStorage, { voiceId, mimeType: t.mimeType, seconds: (performance.now() - t.startedAt) / 1000, savedAt: Date.now() }, dataUrl.slice(dataUrl.indexOf(",") + 1));
    setBackupNote(kept === "full" ? null : recorderText.backupPartial);
  };

  const start = async () => {
    setError(null);
    setNotice(null);
    setBackupNote(null);
    setTranscript("");
    setLive("off");
    release(take.current, true);
    const t: Take = { chunks: [], mimeType: "", startedAt: 0, timers: [], cancelled: false };
    take.current = t;
    setPhase("permission");
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia(micConstraints(deviceId));
    } catch (e) {
      const name = (e as { name?: string }).name;
      if (take.current !== t) return;
      take.current = null;
      setPhase("idle");
      setError(name === "NotFoundError" || name === "OverconstrainedError" ? "No microphone could be opened." : pvcMessages.micDenied);
      return;
    }
    if (t.cancelled) return stream.getTracks().forEach((x) => x.stop());
    t.stream = stream;
    void navigator.mediaDevices.enumerateDevices().then((all) => {
      const inputs = all.filter((d) => d.kind === "audioinput");
      setDevices(inputs);
      const used = stream.getAudioTracks()[0]?.getSettings().deviceId;
      setDeviceId((d) => d || used || inputs[0]?.deviceId || "");
    });
    setPhase("countdown");
    for (let left = PVC.countdownSeconds; left > 0; left--) {
      setCount(left);
      await new Promise<void>((done) => t.timers.push(window.setTimeout(done, 1000)));
      if (t.cancelled) return;
    }
    const mime = MIME_TYPES.find((m) => MediaRecorder.isTypeSupported(m));
    const rec = new MediaRecorder(stream, { ...(mime ? { mimeType: mime } : {}), audioBitsPerSecond: RECORDER_BITS_PER_SECOND });
    t.rec = rec;
    t.mimeType = (rec.mimeType || mime || "audio/webm").split(";")[0];
    rec.ondataavailable = (e) => {
      if (e.data.size) t.chunks.push(e.data);
    };
    rec.onstop = () => {
      const seconds = (performance.now() - t.startedAt) / 1000;
      release(t, false);
      if (t.cancelled) return;
      t.cancelled = true;
      if (take.current === t) take.current = null;
      // Finished: the backup has done its job either way.
      clearBackup(window.localStorage);
      setPhase("idle");
      setLive("off");
      if (seconds < PVC.recorderMinSeconds) {
        setError(pvcMessages.recordingTooShort(PVC.recorderMinSeconds));
        return;
      }
      onRecorded(new File(t.chunks, recordingName(Date.now(), t.mimeType), { type: t.mimeType }));
      setNotice(recorderText.added);
    };
    t.startedAt = performance.now();
    rec.start(1000);
    setPhase("recording");
    setElapsed(0);
    t.timers.push(window.setInterval(() => setElapsed((performance.now() - t.startedAt) / 1000), 250));
    t.timers.push(window.setInterval(() => void backupNow(t).catch((e: unknown) => console.warn("recording backup failed:", e)), backupMs));
    void openLive(t, stream);
  };

  const stop = () => {
    const t = take.current;
    if (!t?.rec || t.rec.state === "inactive") return;
    setPhase("stopping");
    t.rec.stop();
  };

  const restart = () => {
    release(take.current, true);
    take.current = null;
    clearBackup(window.localStorage);
    setPassage(0);
    void start();
  };

  const uploadScript = async (file: File) => {
    setScriptError(null);
    // The size is checked before anything is read.
    const bytes = file.size <= PVC.scriptMaxBytes ? new Uint8Array(await file.arrayBuffer().catch(() => new ArrayBuffer(0))) : null;
    const checked = checkScriptFile(file, bytes);
    if ("error" in checked) {
      setScriptError(checked.error);
      return;
    }
    const uploaded: Script = { type: "uploaded", text: checked.text, language };
    let detected: string | undefined;
    try {
      const r = await v1Json("/v1/text/detect-language", z.object({ detected_languages: z.array(z.string()) }), { method: "POST", json: { text: detectionSample(checked.text) } });
      detected = r.detected_languages[0];
    } catch {
      detected = undefined; // detection unavailable: the script is used as it is
    }
    if (detected && detected !== language) setMismatch({ script: uploaded, detected });
    else applyScript(uploaded);
  };

  const applyScript = (s: Script) => {
    setChoice("uploaded");
    setScript(s);
    setPassage(0);
    setTranscript("");
  };

  const busy = phase !== "idle";
  const lit = highlightLength(current, transcript);
  return (
    <Dialog title={pvcMessages.recorderTitle} onClose={onClose}>
      <div className="pvc-recorder" data-phase={phase}>
        <ul className="pvc-recorder-tips">
          {RECORDER_TIPS.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
        <div className="pvc-recorder-choices">
          <div className="field">
            <label htmlFor={`${id}-mic`}>{recorderText.microphone}</label>
            <select id={`${id}-mic`} value={deviceId} onChange={(e) => setDeviceId(e.target.value)} disabled={busy}>
              {devices.length === 0 && <option value="">Default microphone</option>}
              {devices.map((d, i) => (
                <option key={d.deviceId || i} value={d.deviceId}>
                  {d.label || `Microphone ${i + 1}`}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-script`}>{recorderText.script}</label>
            <select id={`${id}-script`} value={choice} onChange={(e) => setChoice(e.target.value as typeof choice)} disabled={busy}>
              {SCRIPT_STYLES.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
              {choice === "uploaded" && <option value="uploaded">{recorderText.uploadScript}</option>}
              <option value="none">{recorderText.noScript}</option>
            </select>
          </div>
          <button type="button" className="button button-small" onClick={() => fileRef.current?.click()} disabled={busy}>
            <Icon name="plus" size={16} />
            {recorderText.uploadScript}
          </button>
          <input
            ref={fileRef}
            type="file"
            accept=".txt,text/plain"
            hidden
            aria-label={recorderText.uploadScript}
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = "";
              if (f) void uploadScript(f);
            }}
          />
        </div>
        {scriptError && (
          <p className="field-error" role="alert">
            {scriptError}
          </p>
        )}
        {current && (
          <section className="pvc-script" aria-label={recorderText.scriptText}>
            <p className="pvc-script-text" lang={script?.language} data-live={live}>
              <mark className="pvc-script-read" data-testid="pvc-script-read">
                {current.slice(0, lit)}
              </mark>
              <span>{current.slice(lit)}</span>
            </p>
            <div className="pvc-script-nav">
              <button type="button" className="button button-small" disabled={passage === 0} onClick={() => goToPassage(passage - 1)}>
                {recorderText.previousPassage}
              </button>
              <span className="pvc-script-count">{recorderText.passage(passage + 1, passages.length)}</span>
              <button type="button" className="button button-small" disabled={passage + 1 >= passages.length} onClick={() => goToPassage(passage + 1)}>
                {recorderText.nextPassage}
              </button>
            </div>
            {live === "failed" && <p className="inline-warning">{recorderText.highlightOff}</p>}
          </section>
        )}
        <div className="pvc-recorder-controls">
          {phase === "idle" && (
            <button type="button" className="button button-primary" onClick={() => void start()} disabled={recovery !== null}>
              <Icon name="voices" /> {recorderText.start}
            </button>
          )}
          {phase === "permission" && <p role="status">{recorderText.askingPermission}</p>}
          {phase === "countdown" && (
            <p className="recorder-countdown" role="status" aria-live="assertive">
              {recorderText.countdown(count)}
            </p>
          )}
          {phase === "recording" && (
            <>
              <span className="recorder-time" role="timer" aria-label="Recording time">
                {formatClock(elapsed)}
              </span>
              <button type="button" className="button" onClick={restart}>
                {recorderText.restart}
              </button>
              <button type="button" className="button button-danger" onClick={stop}>
                <Icon name="stop" /> {recorderText.stop}
              </button>
            </>
          )}
          {phase === "stopping" && <p role="status">{recorderText.stopping}</p>}
        </div>
        {backupNote && <p className="inline-warning">{backupNote}</p>}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        {notice && <p role="status">{notice}</p>}
      </div>
      {mismatch && (
        <Dialog title={pvcMessages.languageMismatch} onClose={() => setMismatch(null)}>
          <p>{recorderText.mismatch(languageName(mismatch.detected), languageName(language))}</p>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setMismatch(null)}>
              {recorderText.cancel}
            </button>
            <button
              type="button"
              className="button button-primary"
              onClick={() => {
                applyScript(mismatch.script);
                setMismatch(null);
              }}
            >
              {recorderText.useAnyway}
            </button>
          </div>
        </Dialog>
      )}
      {recovery && (
        <RecoveryPrompt
          backup={recovery}
          onRecover={(f) => {
            onRecorded(f);
            setNotice(recorderText.added);
          }}
          onDone={() => setRecovery(null)}
        />
      )}
    </Dialog>
  );
}

const formatClock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`;

/** 'Recover unsaved recording': recover it as a sample, or discard it; either clears the backup. */
function RecoveryPrompt({ backup, onRecover, onDone }: { backup: RecordingBackup; onRecover: (file: File) => void; onDone: () => void }) {
  return (
    <Dialog title={pvcMessages.recoverTitle} onClose={onDone}>
      <p>{recorderText.recoverBody(backup.seconds, backup.partial)}</p>
      <div className="dialog-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            clearBackup(window.localStorage);
            onDone();
          }}
        >
          {recorderText.discard}
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={() => {
            onRecover(backupFile(backup));
            clearBackup(window.localStorage);
            onDone();
          }}
        >
          {recorderText.recover}
        </button>
      </div>
    </Dialog>
  );
}

/** The recovery prompt on the wizard's Voice Data step, for a backup of this voice. */
export function RecoveryDialog({ voiceId, onRecover }: { voiceId: string; onRecover: (file: File) => void }) {
  const [backup, setBackup] = useState<RecordingBackup | null>(null);
  useEffect(() => {
    const b = readBackup(window.localStorage);
    setBackup(b && b.voiceId === voiceId ? b : null);
  }, [voiceId]);
  return backup ? <RecoveryPrompt backup={backup} onRecover={onRecover} onDone={() => setBackup(null)} /> : null;
}
