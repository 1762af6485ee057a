import { useEffect, useRef, useState } from "react";
import { Icon } from "../Icon.js";
import { CONTROLS_HIDE_MS, clock, controlsVisible, nextRate, rateLabel } from "./controls.js";

/**
 * The shared video player (app-shell.md, "Recorder, uploader, video player"): the video with its
 * captions, and controls that appear on hover or focus and hide 2 s after the pointer leaves.
 * Play/pause, the time, the playback rate (1x, 1.5x, 2x) and captions on or off.
 */
export function VideoPlayer({ src, captions, title, poster }: { src: string; captions?: { src: string; lang: string; label: string }; title: string; poster?: string }) {
  const video = useRef<HTMLVideoElement>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [lingering, setLingering] = useState(false);
  const [started, setStarted] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [rate, setRate] = useState(1);
  const [time, setTime] = useState({ at: 0, of: 0 });
  const [captionsOn, setCaptionsOn] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout>>();

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    const track = video.current?.textTracks[0];
    if (track) track.mode = captionsOn ? "showing" : "hidden";
  }, [captionsOn]);

  const enter = () => {
    clearTimeout(timer.current);
    setLingering(false);
    setHovered(true);
  };
  const leave = () => {
    setHovered(false);
    setLingering(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setLingering(false), CONTROLS_HIDE_MS);
  };
  const toggle = () => {
    const v = video.current;
    if (!v) return;
    if (v.paused) void v.play().catch(() => undefined);
    else v.pause();
  };
  const cycleRate = () => {
    const r = nextRate(rate);
    setRate(r);
    if (video.current) video.current.playbackRate = r;
  };

  const shown = controlsVisible({ hovered, focused, lingering, started });
  return (
    <figure
      className="video-player"
      data-controls={shown ? "shown" : "hidden"}
      onPointerEnter={enter}
      onPointerMove={() => !hovered && enter()}
      onPointerLeave={leave}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <video
        ref={video}
        src={src}
        poster={poster}
        preload="metadata"
        playsInline
        aria-label={title}
        onClick={toggle}
        onPlay={() => {
          setStarted(true);
          setPlaying(true);
        }}
        onPause={() => setPlaying(false)}
        onRateChange={(e) => setRate(e.currentTarget.playbackRate)}
        onLoadedMetadata={(e) => {
          setTime({ at: e.currentTarget.currentTime, of: e.currentTarget.duration });
          const track = e.currentTarget.textTracks[0];
          if (track) track.mode = captionsOn ? "showing" : "hidden";
        }}
        onTimeUpdate={(e) => setTime({ at: e.currentTarget.currentTime, of: e.currentTarget.duration })}
      >
        {captions && <track kind="captions" src={captions.src} srcLang={captions.lang} label={captions.label} default />}
      </video>
      <div className="video-controls" role="group" aria-label="Video controls">
        <button type="button" className="video-control" aria-label={playing ? "Pause" : "Play"} onClick={toggle}>
          <Icon name={playing ? "pause" : "play"} size={18} />
        </button>
        <span className="video-time" aria-label="Time">
          {clock(time.at)} / {clock(time.of)}
        </span>
        <span className="video-spacer" />
        {captions && (
          <button type="button" className="video-control" aria-pressed={captionsOn} aria-label="Captions" onClick={() => setCaptionsOn((c) => !c)}>
            CC
          </button>
        )}
        <button type="button" className="video-control video-rate" aria-label={`Playback speed ${rateLabel(rate)}`} onClick={cycleRate}>
          {rateLabel(rate)}
        </button>
      </div>
      <figcaption className="visually-hidden">{title}</figcaption>
    </figure>
  );
}
