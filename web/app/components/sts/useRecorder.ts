import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Recording from the microphone into a file, as the spec's generic recorder (app-shell.md §5,
 * §10): permission, a get-ready countdown (3 s), recording in 100 ms chunks (WebM/Opus, else
 * MP4, where the browser has them; 44.1 kHz asked for), stop. One owner for every resource: the
 * stream's tracks stop and the timers clear when the recording ends, is cancelled, or the
 * component unmounts.
 */
export type RecorderState =
  | { status: "idle" }
  | { status: "starting" }
  | { status: "countdown"; left: number }
  | { status: "recording"; seconds: number }
  | { status: "error"; message: string };

export const RECORDER = { countdownSeconds: 3, chunkMs: 100, mimeTypes: ["audio/webm;codecs=opus", "audio/webm", "audio/mp4", "audio/ogg;codecs=opus"], sampleRate: 44_100 } as const;

export const recorderMessages = {
  denied: "Microphone access was denied. Allow it in your browser to record.",
  unavailable: "Recording is not available in this browser.",
} as const;

export function useRecorder(onRecorded: (file: File) => void) {
  const [state, setState] = useState<RecorderState>({ status: "idle" });
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const timer = useRef<number | null>(null);
  const countdown = useRef<number | null>(null);
  const count = useRef(0);
  const cancelCountdown = useRef<(() => void) | null>(null);
  const callback = useRef(onRecorded);
  callback.current = onRecorded;

  const release = useCallback(() => {
    if (timer.current !== null) window.clearInterval(timer.current);
    timer.current = null;
    if (countdown.current !== null) window.clearTimeout(countdown.current);
    countdown.current = null;
    stream.current?.getTracks().forEach((t) => t.stop());
    stream.current = null;
    recorder.current = null;
  }, []);

  useEffect(() => () => {
    if (recorder.current && recorder.current.state !== "inactive") recorder.current.ondataavailable = null;
    recorder.current?.state === "recording" && recorder.current.stop();
    release();
  }, [release]);

  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") {
      setState({ status: "error", message: recorderMessages.unavailable });
      return;
    }
    setState({ status: "starting" });
    try {
      stream.current = await navigator.mediaDevices.getUserMedia({ audio: { sampleRate: RECORDER.sampleRate, sampleSize: 16, channelCount: 1 } });
    } catch {
      release();
      setState({ status: "error", message: recorderMessages.denied });
      return;
    }
    // Get ready: the count shows, then recording starts (Stop before then cancels).
    for (let left = RECORDER.countdownSeconds; left > 0; left--) {
      setState({ status: "countdown", left });
      const go = await new Promise<boolean>((resolve) => {
        countdown.current = window.setTimeout(() => resolve(true), 1000);
        cancelCountdown.current = () => resolve(false);
      });
      cancelCountdown.current = null;
      if (!go || !stream.current) {
        release();
        setState({ status: "idle" });
        return;
      }
    }
    const type = RECORDER.mimeTypes.find((t) => MediaRecorder.isTypeSupported(t));
    const r = new MediaRecorder(stream.current, type ? { mimeType: type } : undefined);
    const parts: Blob[] = [];
    r.ondataavailable = (e) => e.data.size && parts.push(e.data);
    r.onstop = () => {
      const mime = r.mimeType || "audio/webm";
      const ext = mime.includes("ogg") ? "ogg" : mime.includes("mp4") ? "m4a" : "webm";
      count.current += 1;
      release();
      setState({ status: "idle" });
      if (parts.length) callback.current(new File(parts, `Recording ${count.current}.${ext}`, { type: mime.split(";")[0] }));
    };
    recorder.current = r;
    r.start(RECORDER.chunkMs);
    const started = Date.now();
    setState({ status: "recording", seconds: 0 });
    timer.current = window.setInterval(() => setState({ status: "recording", seconds: Math.floor((Date.now() - started) / 1000) }), 500);
  }, [release]);

  const stop = useCallback(() => {
    if (cancelCountdown.current) cancelCountdown.current();
    else if (recorder.current?.state === "recording") recorder.current.stop();
  }, []);

  return { state, start, stop };
}
