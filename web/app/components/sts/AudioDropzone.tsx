import { useRef, useState, type DragEvent, type ReactNode } from "react";
import { formatClock } from "../audio/waveform.js";
import type { IconName } from "../../lib/nav.js";
import { Icon } from "../Icon.js";
import { useRecorder } from "./useRecorder.js";

/**
 * The audio input of the Voice Changer and the Voice Isolator: a drop zone, Upload audio (a
 * hidden file input, one file or several) and Record audio from the microphone (useRecorder),
 * with the recorder's error below. Every way in ends in `onFiles`.
 */
export function AudioDropzone({
  icon,
  prompt,
  multiple = false,
  inputLabel,
  onFiles,
  testId,
}: {
  icon: IconName;
  prompt: ReactNode;
  multiple?: boolean;
  inputLabel: string;
  onFiles: (files: File[]) => void;
  testId?: string;
}) {
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const recorder = useRecorder((file) => onFiles([file]));

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    const files = [...e.dataTransfer.files];
    onFiles(multiple ? files : files.slice(0, 1));
  }

  return (
    <>
      <div
        className="sts-dropzone"
        data-dragging={dragging || undefined}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid={testId}
      >
        <Icon name={icon} size={28} />
        <p>{prompt}</p>
        <div className="sts-dropzone-actions">
          <button type="button" className="button" onClick={() => input.current?.click()}>
            <Icon name="upload" size={16} />
            Upload audio
          </button>
          {recorder.state.status === "countdown" ? (
            <button type="button" className="button" onClick={recorder.stop} aria-label={`Recording in ${recorder.state.left}… Cancel`}>
              <span role="timer" aria-live="assertive">
                Recording in {recorder.state.left}…
              </span>
            </button>
          ) : recorder.state.status === "recording" ? (
            <button type="button" className="button button-danger" onClick={recorder.stop}>
              <Icon name="stop" size={16} />
              Stop recording ({formatClock(recorder.state.seconds)})
            </button>
          ) : (
            <button type="button" className="button" onClick={() => void recorder.start()} disabled={recorder.state.status === "starting"}>
              <Icon name="stt" size={16} />
              Record audio
            </button>
          )}
        </div>
        <input
          ref={input}
          type="file"
          accept="audio/*,.wav,.mp3,.m4a,.ogg,.opus,.flac,.webm"
          multiple={multiple}
          className="visually-hidden"
          aria-label={inputLabel}
          tabIndex={-1}
          onChange={(e) => {
            onFiles([...(e.target.files ?? [])]);
            e.target.value = "";
          }}
        />
      </div>
      {recorder.state.status === "error" && (
        <p className="form-error" role="alert">
          {recorder.state.message}
        </p>
      )}
    </>
  );
}
