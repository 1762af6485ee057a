import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent, type ReactNode, type Ref } from "react";
import { Icon } from "../Icon.js";
import { useRedrawOnResize } from "./useRedrawOnResize.js";
import { decodePeaks, drawWaveform, formatClock, nextRate, SEEK_STEP_SECONDS } from "./waveform.js";

export interface AudioPlayerProps {
  /** What the player is playing, for its controls' names ("Play Generated speech"). */
  label: string;
  /** A URL the caller owns (an object URL of a finished file). */
  src?: string | null;
  /** Fetches the audio on the first Play; the player owns the object URL it makes of it. */
  load?: () => Promise<Blob>;
  /** The complete file, for the waveform (defaults to what `load` returned). */
  waveform?: Blob | null;
  /** A waveform computed elsewhere (the server's peaks of a long sample), instead of decoding a file. */
  peaks?: Float32Array | null;
  /** The caller's handle on the <audio> element (streaming sets its source directly). */
  audioRef?: Ref<HTMLAudioElement>;
  /** While audio streams in: seconds received so far. */
  receivedSeconds?: number | null;
  /** The length known before the audio is loaded (a history item's), shown until the file says it. */
  knownSeconds?: number | null;
  autoPlay?: boolean;
  variant?: "full" | "compact";
  testId?: string;
  /** Extra controls after the player's own (Download, …). */
  children?: ReactNode;
  onError?: (error: unknown) => void;
}

function assignRef<T>(ref: Ref<T> | undefined, value: T | null) {
  if (typeof ref === "function") ref(value);
  else if (ref) (ref as { current: T | null }).current = value;
}

/** The length to show and seek in: the duration, or what is buffered while it is unknown (streams). */
function knownLength(el: HTMLAudioElement): number {
  if (Number.isFinite(el.duration) && el.duration > 0) return el.duration;
  const ranges = el.seekable.length ? el.seekable : el.buffered;
  return ranges.length ? ranges.end(ranges.length - 1) : 0;
}

/**
 * The one audio player of the app: play/pause, a waveform that shows progress and seeks on a
 * click or drag, the time, and the playback rates 1x, 1.5x and 2x (app-shell.md §4). The
 * waveform is a slider for the keyboard (arrows ±5 s, Page keys ±10%, Home/End; Space or K
 * plays and pauses). Every resource has one owner: the player revokes the object URLs it makes,
 * removes its listeners, cancels its animation frame and stops observing its size on unmount.
 */
export function AudioPlayer({ label, src, load, waveform, peaks: givenPeaks = null, audioRef, receivedSeconds = null, knownSeconds = null, autoPlay, variant = "full", testId, children, onError }: AudioPlayerProps) {
  const audio = useRef<HTMLAudioElement | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef(0);
  const ownedUrl = useRef<string | null>(null);
  const playWhenReady = useRef(false);
  const [loadedUrl, setLoadedUrl] = useState<string | null>(null);
  const [loadedBlob, setLoadedBlob] = useState<Blob | null>(null);
  const [decodedPeaks, setPeaks] = useState<Float32Array | null>(null);
  const peaks = givenPeaks ?? decodedPeaks;
  const [playing, setPlaying] = useState(false);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const [time, setTime] = useState(0);
  const [length, setLength] = useState(0);
  const [rate, setRate] = useState(1);
  /** The element has a source even when the caller set it directly (a stream), not through `src`. */
  const [attached, setAttached] = useState(false);
  const timeId = useId();
  const shapeFrom = waveform ?? loadedBlob;
  const source = src ?? loadedUrl ?? undefined;

  const setAudio = useCallback(
    (el: HTMLAudioElement | null) => {
      audio.current = el;
      assignRef(audioRef, el);
    },
    [audioRef],
  );

  const draw = useCallback(() => {
    const el = audio.current;
    const c = canvas.current;
    if (!el || !c) return;
    const total = knownLength(el);
    const received = receivedSeconds !== null && total > 0 ? Math.min(1, receivedSeconds / Math.max(total, receivedSeconds)) : receivedSeconds !== null ? 0 : null;
    drawWaveform(c, { peaks, progress: total > 0 ? el.currentTime / total : 0, received });
  }, [peaks, receivedSeconds]);

  // Element events -> state. Listeners are removed when the element or the player goes away.
  useEffect(() => {
    const el = audio.current;
    if (!el) return;
    const sync = () => {
      setAttached(Boolean(el.getAttribute("src")));
      setTime(el.currentTime);
      setLength(knownLength(el));
      setRate(el.playbackRate);
      draw();
    };
    const onPlay = () => setPlaying(true);
    const onPause = () => setPlaying(false);
    const onError = () => {
      if (el.getAttribute("src")) setFailed(true);
    };
    const events: Array<[string, () => void]> = [
      ["play", onPlay], ["playing", onPlay], ["pause", onPause], ["ended", onPause], ["error", onError],
      ["timeupdate", sync], ["durationchange", sync], ["loadedmetadata", sync], ["ratechange", sync], ["progress", sync], ["emptied", sync], ["seeked", sync], ["loadstart", sync],
    ];
    for (const [name, fn] of events) el.addEventListener(name, fn);
    sync();
    return () => {
      for (const [name, fn] of events) el.removeEventListener(name, fn);
    };
  }, [draw]);

  // A smooth playhead while playing.
  useEffect(() => {
    if (!playing) return;
    const tick = () => {
      draw();
      frame.current = requestAnimationFrame(tick);
    };
    frame.current = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame.current);
  }, [playing, draw]);

  useRedrawOnResize(canvas, draw);

  useEffect(() => {
    draw();
  }, [draw, source]);

  // The waveform's shape, decoded once per file; a newer file wins over a slower decode.
  useEffect(() => {
    setPeaks(null);
    if (!shapeFrom || givenPeaks) return;
    let current = true;
    decodePeaks(shapeFrom)
      .then((p) => current && setPeaks(p))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [shapeFrom, givenPeaks]);

  // The object URL made from `load` belongs to the player.
  useEffect(
    () => () => {
      if (ownedUrl.current) URL.revokeObjectURL(ownedUrl.current);
      ownedUrl.current = null;
    },
    [],
  );

  useEffect(() => {
    const el = audio.current;
    if (!el || !source || !playWhenReady.current) return;
    playWhenReady.current = false;
    el.play().catch((e: unknown) => onError?.(e));
  }, [source, onError]);

  useEffect(() => {
    setFailed(false);
  }, [source]);

  async function toggle() {
    const el = audio.current;
    if (!el) return;
    if (!el.paused) return el.pause();
    if (!source && load) {
      setLoading(true);
      try {
        const blob = await load();
        const url = URL.createObjectURL(blob);
        if (ownedUrl.current) URL.revokeObjectURL(ownedUrl.current);
        ownedUrl.current = url;
        playWhenReady.current = true;
        setLoadedBlob(blob);
        setLoadedUrl(url);
      } catch (e) {
        setFailed(true);
        onError?.(e);
      } finally {
        setLoading(false);
      }
      return;
    }
    el.play().catch((e: unknown) => onError?.(e));
  }

  function seekTo(seconds: number) {
    const el = audio.current;
    if (!el) return;
    const total = knownLength(el);
    if (!total) return;
    el.currentTime = Math.max(0, Math.min(total, seconds));
    setTime(el.currentTime);
    draw();
  }

  const dragging = useRef(false);
  function seekAtPointer(e: ReactPointerEvent<HTMLDivElement>) {
    const el = audio.current;
    if (!el) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const share = Math.max(0, Math.min(1, (e.clientX - rect.left) / rect.width));
    seekTo(share * knownLength(el));
  }

  function onSliderKey(e: KeyboardEvent<HTMLDivElement>) {
    const el = audio.current;
    if (!el) return;
    const total = knownLength(el);
    const keys: Record<string, () => void> = {
      ArrowRight: () => seekTo(el.currentTime + SEEK_STEP_SECONDS),
      ArrowUp: () => seekTo(el.currentTime + SEEK_STEP_SECONDS),
      ArrowLeft: () => seekTo(el.currentTime - SEEK_STEP_SECONDS),
      ArrowDown: () => seekTo(el.currentTime - SEEK_STEP_SECONDS),
      PageUp: () => seekTo(el.currentTime + total / 10),
      PageDown: () => seekTo(el.currentTime - total / 10),
      Home: () => seekTo(0),
      End: () => seekTo(total),
      " ": () => void toggle(),
      k: () => void toggle(),
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  }

  function cycleRate() {
    const el = audio.current;
    const next = nextRate(el?.playbackRate ?? rate);
    if (el) {
      el.playbackRate = next;
      // A new source resets the rate; defaultPlaybackRate keeps the choice for it.
      el.defaultPlaybackRate = next;
    }
    setRate(next);
  }

  const canPlay = Boolean(source || load || attached);
  const streaming = receivedSeconds !== null;
  const shownLength = streaming ? Math.max(length, receivedSeconds ?? 0) : length || (knownSeconds ?? 0);
  const timeText = `${formatClock(time)} / ${formatClock(shownLength)}`;

  return (
    <div className="player" data-variant={variant} data-state={playing ? "playing" : "paused"} role="group" aria-label={`Audio player: ${label}`}>
      {/* The element is driven by the controls below; it has no UI of its own. */}
      <audio ref={setAudio} src={source} preload={load && !source ? "none" : "metadata"} autoPlay={autoPlay} data-testid={testId} />
      <button type="button" className="player-toggle" onClick={toggle} disabled={!canPlay || loading} aria-label={`${playing ? "Pause" : "Play"} ${label}`}>
        {loading ? <span className="spinner" aria-hidden="true" /> : <Icon name={playing ? "pause" : "play"} />}
      </button>
      <div
        className="player-wave"
        role="slider"
        tabIndex={canPlay ? 0 : -1}
        aria-label={`Seek ${label}`}
        aria-valuemin={0}
        aria-valuemax={Math.round(shownLength)}
        aria-valuenow={Math.round(time)}
        aria-valuetext={timeText}
        aria-describedby={timeId}
        onKeyDown={onSliderKey}
        onPointerDown={(e) => {
          dragging.current = true;
          e.currentTarget.setPointerCapture(e.pointerId);
          seekAtPointer(e);
        }}
        onPointerMove={(e) => dragging.current && seekAtPointer(e)}
        onPointerUp={() => (dragging.current = false)}
        onPointerCancel={() => (dragging.current = false)}
      >
        <canvas ref={canvas} className="player-canvas" aria-hidden="true" />
      </div>
      <span className="player-time" id={timeId}>
        {failed ? "Could not play" : streaming ? `${formatClock(time)} / ${formatClock(shownLength)}…` : timeText}
      </span>
      <button type="button" className="player-rate" onClick={cycleRate} aria-label={`Playback speed ${rate}×`}>
        {rate}×
      </button>
      {children && <span className="player-extra">{children}</span>}
    </div>
  );
}
