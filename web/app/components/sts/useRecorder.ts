import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Recording from the microphone into a file (MediaRecorder, WebM/Opus where the browser has it).
 * One owner for every resource: the stream's tracks stop and the timer clears when the recording
 * ends or the component unmounts.
 */
export type RecorderState = { status: "idle" } | { status: "starting" } | { status: "recording"; seconds: number } | { status: "error"; message: string };

export const recorderMessages = {
  denied: "Microphone access was denied. Allow it in your browser to record.",
  unavailable: "Recording is not available in this browser.",
} as const;

export function useRecorder(onRecorded: (file: File) => void) {
  const [state, setState] = useState<RecorderState>({ status: "idle" });
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const timer = useRef<number | null>(null);
  const count = useRef(0);
  const callback = useRef(onRecorded);
  callback.current = onRecorded;

  const release = useCallback(() => {
    if (timer.current !== null) window.clearInterval(timer.current);
    timer.current = null;
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
      stream.current = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      release();
      setState({ status: "error", message: recorderMessages.denied });
      return;
    }
    const type = ["audio/webm;codecs=opus", "audio/webm", "audio/ogg;codecs=opus"].find((t) => MediaRecorder.isTypeSupported(t));
    const r = new MediaRecorder(stream.current, type ? { mimeType: type } : undefined);
    const parts: Blob[] = [];
    r.ondataavailable = (e) => e.data.size && parts.push(e.data);
    r.onstop = () => {
      const mime = r.mimeType || "audio/webm";
      const ext = mime.includes("ogg") ? "ogg" : "webm";
      count.current += 1;
      release();
      setState({ status: "idle" });
      if (parts.length) callback.current(new File(parts, `Recording ${count.current}.${ext}`, { type: mime.split(";")[0] }));
    };
    recorder.current = r;
    r.start(250);
    const started = Date.now();
    setState({ status: "recording", seconds: 0 });
    timer.current = window.setInterval(() => setState({ status: "recording", seconds: Math.floor((Date.now() - started) / 1000) }), 500);
  }, [release]);

  const stop = useCallback(() => {
    if (recorder.current?.state === "recording") recorder.current.stop();
  }, []);

  return { state, start, stop };
}
