import { useCallback, useEffect, useId, useRef, useState } from "react";
import { cloneMessages, designMessages } from "../../../../functions/platform/contract/voiceCreation.js";
import { Icon } from "../Icon.js";

/**
 * The recorder (app-shell.md §4, §9): microphone permission (a spinner after 500 ms), the list of
 * microphones, a 3 s get-ready countdown during which background noise is checked every 10 ms
 * (flagged when 60% or more of the checks deviate by more than 10%), recording in 100 ms chunks
 * with a 10-bar level meter, an automatic stop at the maximum, and a minimum length. The result
 * is a file named recording.{ext}. One owner for every resource: the stream's tracks, the audio
 * context, the recorder and the timers end on stop and on unmount.
 */
export const RECORDER = { countdownSeconds: 3, noiseCheckMs: 10, noiseThreshold: 0.1, noisyRatio: 0.6, chunkMs: 100, meterBars: 10, spinnerAfterMs: 500 } as const;
const MIME_TYPES = ["audio/webm", "audio/mp4"];

/**
 * The raw microphone: the browser's echo cancellation, noise suppression and gain control reshape
 * the voice's spectrum and level, which the clone would copy and verification would compare
 * (the server denoises the samples itself when asked).
 */
function micConstraints(deviceId: string): MediaStreamConstraints {
  return { audio: { ...(deviceId ? { deviceId: { exact: deviceId } } : {}), echoCancellation: false, noiseSuppression: false, autoGainControl: false } };
}

type Phase = "idle" | "asking" | "ready" | "countdown" | "recording" | "denied";

export interface RecorderProps {
  minSeconds: number;
  maxSeconds: number;
  /** The generic recorder stops half a second before the maximum (app-shell.md §4). */
  stopEarly?: boolean;
  onRecorded: (file: File, seconds: number) => void;
  /** Called when the user starts a recording (the professional clone's captcha is fetched then). */
  onStart?: () => void;
  /** "Record a sample", "Record the sentence". */
  label: string;
  disabled?: boolean;
}

export function Recorder({ minSeconds, maxSeconds, stopEarly = true, onRecorded, onStart, label, disabled }: RecorderProps) {
  const id = useId();
  const [phase, setPhase] = useState<Phase>("idle");
  const [spinner, setSpinner] = useState(false);
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [deviceId, setDeviceId] = useState("");
  const [count, setCount] = useState<number>(RECORDER.countdownSeconds);
  const [elapsed, setElapsed] = useState(0);
  const [level, setLevel] = useState(0);
  const [noisy, setNoisy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const res = useRef<{ stream?: MediaStream; ctx?: AudioContext; rec?: MediaRecorder; timers: number[]; frames: number[]; chunks: Blob[]; started: number; stopping: boolean }>({ timers: [], frames: [], chunks: [], started: 0, stopping: false });

  const release = useCallback(() => {
    const r = res.current;
    r.timers.forEach((t) => window.clearTimeout(t));
    r.timers.forEach((t) => window.clearInterval(t));
    r.frames.forEach((f) => cancelAnimationFrame(f));
    r.timers = [];
    r.frames = [];
    r.stream?.getTracks().forEach((t) => t.stop());
    r.stream = undefined;
    void r.ctx?.close().catch(() => undefined);
    r.ctx = undefined;
  }, []);
  useEffect(() => release, [release]);

  const ask = async () => {
    setError(null);
    setPhase("asking");
    const spin = window.setTimeout(() => setSpinner(true), RECORDER.spinnerAfterMs);
    try {
      const stream = await navigator.mediaDevices.getUserMedia(micConstraints(deviceId));
      stream.getTracks().forEach((t) => t.stop());
      const all = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === "audioinput");
      setDevices(all);
      setDeviceId((current) => current || all[0]?.deviceId || "");
      setPhase("ready");
    } catch (e) {
      const name = (e as { name?: string }).name;
      const denied = name === "NotAllowedError" || name === "PermissionDeniedError" || name === "SecurityError";
      setPhase(denied ? "denied" : "idle");
      setError(denied ? designMessages.microphoneDenied : "No microphone could be opened.");
    } finally {
      window.clearTimeout(spin);
      setSpinner(false);
    }
  };

  const start = async () => {
    setError(null);
    setNoisy(false);
    onStart?.();
    release();
    const r = res.current;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia(micConstraints(deviceId));
    } catch {
      setPhase("denied");
      setError(designMessages.microphoneDenied);
      return;
    }
    r.stream = stream;
    const ctx = new AudioContext();
    r.ctx = ctx;
    const analyser = ctx.createAnalyser();
    analyser.fftSize = 1024;
    ctx.createMediaStreamSource(stream).connect(analyser);
    const buf = new Float32Array(analyser.fftSize);
    const rms = () => {
      analyser.getFloatTimeDomainData(buf);
      let s = 0;
      for (const v of buf) s += v * v;
      return Math.sqrt(s / buf.length);
    };
    // Countdown with the background-noise check.
    let checks = 0;
    let loud = 0;
    setPhase("countdown");
    setCount(RECORDER.countdownSeconds);
    const noise = window.setInterval(() => {
      checks++;
      if (rms() > RECORDER.noiseThreshold) loud++;
    }, RECORDER.noiseCheckMs);
    r.timers.push(noise);
    for (let left = RECORDER.countdownSeconds - 1; left >= 0; left--) {
      await new Promise<void>((done) => r.timers.push(window.setTimeout(done, 1000)));
      if (res.current.stream !== stream) return;
      setCount(left);
    }
    window.clearInterval(noise);
    setNoisy(checks > 0 && loud / checks >= RECORDER.noisyRatio);
    // Recording.
    const mime = MIME_TYPES.find((m) => typeof MediaRecorder !== "undefined" && MediaRecorder.isTypeSupported(m));
    const rec = new MediaRecorder(stream, mime ? { mimeType: mime } : undefined);
    r.rec = rec;
    r.chunks = [];
    r.stopping = false;
    rec.ondataavailable = (e) => e.data.size && r.chunks.push(e.data);
    rec.onstop = () => {
      const seconds = (performance.now() - r.started) / 1000;
      const type = rec.mimeType || mime || "audio/webm";
      const ext = type.includes("mp4") ? "mp4" : "webm";
      const blob = new Blob(r.chunks, { type });
      release();
      setPhase("ready");
      setLevel(0);
      if (seconds < minSeconds) setError(cloneMessages.recordingTooShort(minSeconds));
      else onRecorded(new File([blob], `recording.${ext}`, { type }), Math.min(seconds, maxSeconds));
    };
    r.started = performance.now();
    rec.start(RECORDER.chunkMs);
    setPhase("recording");
    setElapsed(0);
    const limit = maxSeconds - (stopEarly ? 0.5 : 0);
    const tick = () => {
      const t = (performance.now() - r.started) / 1000;
      setElapsed(t);
      setLevel(Math.min(1, rms() * 4));
      if (t >= limit) stop();
      else r.frames.push(requestAnimationFrame(tick));
    };
    r.frames.push(requestAnimationFrame(tick));
  };

  const stop = () => {
    const r = res.current;
    if (r.rec && r.rec.state !== "inactive" && !r.stopping) {
      r.stopping = true;
      r.rec.stop();
    }
  };

  const bars = Array.from({ length: RECORDER.meterBars }, (_, i) => i < Math.round(level * RECORDER.meterBars));
  return (
    <div className="recorder" data-phase={phase}>
      {phase === "idle" || phase === "asking" || phase === "denied" ? (
        <button type="button" className="button" onClick={ask} disabled={disabled || phase === "asking"}>
          {spinner ? <span className="spinner" aria-hidden="true" /> : <Icon name="voices" />}
          {label}
        </button>
      ) : (
        <div className="recorder-controls">
          <label htmlFor={`${id}-device`} className="visually-hidden">
            Microphone
          </label>
          <select id={`${id}-device`} value={deviceId} onChange={(e) => setDeviceId(e.target.value)} disabled={phase !== "ready"}>
            {devices.map((d, i) => (
              <option key={d.deviceId || i} value={d.deviceId}>
                {d.label || `Microphone ${i + 1}`}
              </option>
            ))}
          </select>
          {phase === "ready" && (
            <button type="button" className="button button-primary" onClick={start} disabled={disabled}>
              <Icon name="voices" /> Start recording
            </button>
          )}
          {phase === "countdown" && (
            <p className="recorder-countdown" role="status" aria-live="assertive">
              Get ready… {count}
            </p>
          )}
          {phase === "recording" && (
            <>
              <span className="recorder-time" role="timer" aria-label="Recording time">
                {elapsed.toFixed(1)} s / {maxSeconds} s
              </span>
              <span className="level-meter" aria-hidden="true">
                {bars.map((on, i) => (
                  <span key={i} data-on={on || undefined} />
                ))}
              </span>
              <button type="button" className="button button-danger" onClick={stop}>
                <Icon name="stop" /> Stop
              </button>
            </>
          )}
        </div>
      )}
      {noisy && <p className="inline-warning">{cloneMessages.backgroundNoise}</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
