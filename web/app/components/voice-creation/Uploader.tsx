import { useId, useRef, useState, type DragEvent } from "react";
import { Icon } from "../Icon.js";

/**
 * The drag-and-drop uploader (app-shell.md §2, §5): a 248 px dropzone that also opens the file
 * picker, accepting audio and video files. The caller checks the files (size, count, type) and
 * returns the rejection messages, of which only the first three are shown.
 */
export function Uploader({ onFiles, multiple = true, hint, disabled, label = "Upload audio" }: { onFiles: (files: File[]) => string[]; multiple?: boolean; hint: string; disabled?: boolean; label?: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const take = (list: FileList | null) => {
    if (!list || disabled) return;
    setErrors(onFiles([...list]).slice(0, 3));
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    take(e.dataTransfer.files);
  };
  return (
    <div className="uploader">
      <div
        className="dropzone"
        data-over={over || undefined}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <Icon name="upload" />
        <p className="dropzone-title">Drag and drop audio files here</p>
        <p className="field-hint">{hint}</p>
        <button type="button" className="button button-small" onClick={() => input.current?.click()} disabled={disabled}>
          {label}
        </button>
        <input
          ref={input}
          id={id}
          type="file"
          className="visually-hidden"
          accept="audio/*,video/*"
          multiple={multiple}
          aria-label={`${label}: choose files`}
          tabIndex={-1}
          onChange={(e) => {
            take(e.target.files);
            e.target.value = "";
          }}
        />
      </div>
      {errors.length > 0 && (
        <ul className="uploader-errors" role="alert">
          {errors.map((e) => (
            <li key={e} className="field-error">
              {e}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The duration of an audio file, read by the browser (null when it cannot tell). */
export function audioDuration(file: Blob): Promise<number | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const a = new Audio();
    const done = (v: number | null) => {
      URL.revokeObjectURL(url);
      a.removeAttribute("src");
      resolve(v);
    };
    a.preload = "metadata";
    a.onloadedmetadata = () => {
      if (Number.isFinite(a.duration)) done(a.duration);
      else {
        // Recorded WebM has no duration in its header: seeking far makes the browser find the end.
        a.ontimeupdate = () => {
          a.ontimeupdate = null;
          done(Number.isFinite(a.duration) ? a.duration : null);
        };
        a.currentTime = 1e9;
      }
    };
    a.onerror = () => done(null);
    a.src = url;
  });
}
