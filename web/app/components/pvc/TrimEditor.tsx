import { useCallback, useEffect, useRef, useState } from "react";
import { resamplePeaks, waveformSurface } from "../audio/waveform.js";
import { useRedrawOnResize } from "../audio/useRedrawOnResize.js";
import { useSampleMedia } from "./sampleMedia.js";
import { PVC, formatTrimTime, moveTrimEdge, trimChanges, trimOf, type PvcSample, type Trim } from "./wizard.js";

const BAR = 2;
const GAP = 1;

/** The sample's waveform with the kept part in the accent colour and a playhead while previewing. */
function drawTrim(canvas: HTMLCanvasElement, peaks: Float32Array | null, trim: Trim, lengthMs: number, playheadMs: number | null) {
  const surface = lengthMs ? waveformSurface(canvas) : null;
  if (!surface) return;
  const { g, width, height, base, played: kept } = surface;
  const from = (trim.start / lengthMs) * width;
  const to = (trim.end / lengthMs) * width;
  g.globalAlpha = 0.12;
  g.fillStyle = kept;
  g.fillRect(from, 0, to - from, height);
  g.globalAlpha = 1;
  const bars = Math.max(1, Math.floor(width / (BAR + GAP)));
  const shaped = peaks ? resamplePeaks(peaks, bars) : null;
  for (let i = 0; i < bars; i++) {
    const x = i * (BAR + GAP);
    const h = shaped ? Math.max(0.04, shaped[i]!) * (height - 4) : 2;
    const inside = x + BAR / 2 >= from && x + BAR / 2 <= to;
    g.fillStyle = inside ? kept : base;
    g.globalAlpha = inside ? 1 : 0.45;
    g.fillRect(x, height / 2 - h / 2, BAR, h);
  }
  g.globalAlpha = 1;
  g.fillStyle = kept;
  g.fillRect(from - 1, 0, 2, height);
  g.fillRect(to - 1, 0, 2, height);
  if (playheadMs !== null) g.fillRect((playheadMs / lengthMs) * width - 0.5, 0, 1, height);
}

/**
 * The trim editor of a sample's Settings (behind the feature flag pvc-audio-trimming): two edges
 * over the waveform, moved with sliders (keyboard and touch alike), kept at least a second apart
 * and inside the audio (§5 Trim); Play selection previews the kept part; Save sends the edges that
 * moved (§7 Update sample), Reset keeps the whole sample.
 */
export function TrimEditor({ voiceId, sample, onSave }: { voiceId: string; sample: PvcSample; onSave: (changes: { trim_start_time?: number; trim_end_time?: number }) => Promise<boolean> }) {
  const lengthMs = Math.round((sample.duration_secs ?? 0) * 1000);
  const [saved, setSaved] = useState<Trim>(() => trimOf(sample));
  const [trim, setTrim] = useState<Trim>(saved);
  const [saving, setSaving] = useState(false);
  const [playhead, setPlayhead] = useState<number | null>(null);
  const media = useSampleMedia(voiceId, sample.sample_id);
  const canvas = useRef<HTMLCanvasElement>(null);
  const audio = useRef<HTMLAudioElement>(null);

  const draw = useCallback(() => {
    if (canvas.current) drawTrim(canvas.current, media.peaks, trim, lengthMs, playhead);
  }, [media.peaks, trim, lengthMs, playhead]);
  useEffect(draw, [draw]);
  useRedrawOnResize(canvas, draw);

  // The preview stops at the end of the selection.
  useEffect(() => {
    const el = audio.current;
    if (!el) return;
    const tick = () => {
      const ms = el.currentTime * 1000;
      if (ms >= trim.end) {
        el.pause();
        setPlayhead(null);
      } else setPlayhead(ms);
    };
    const stop = () => setPlayhead(null);
    el.addEventListener("timeupdate", tick);
    el.addEventListener("pause", stop);
    return () => {
      el.removeEventListener("timeupdate", tick);
      el.removeEventListener("pause", stop);
    };
  }, [trim.end]);

  const playing = playhead !== null;
  const preview = () => {
    const el = audio.current;
    if (!el) return;
    if (playing) return el.pause();
    el.currentTime = trim.start / 1000;
    setPlayhead(trim.start);
    el.play().catch(() => setPlayhead(null));
  };

  const dirty = trim.start !== saved.start || trim.end !== saved.end;
  const save = async () => {
    setSaving(true);
    const ok = await onSave(trimChanges(saved, trim));
    setSaving(false);
    if (ok) setSaved(trim);
  };

  if (lengthMs <= 0) return null;
  return (
    <section className="pvc-trim" aria-labelledby="pvc-trim-title">
      <h3 id="pvc-trim-title">Trim</h3>
      <canvas ref={canvas} className="pvc-trim-wave" aria-hidden="true" />
      <audio ref={audio} src={media.url ?? undefined} preload="metadata" data-testid="pvc-trim-audio" />
      <div className="pvc-trim-edges">
        <TrimEdge edge="start" trim={trim} lengthMs={lengthMs} onChange={setTrim} />
        <TrimEdge edge="end" trim={trim} lengthMs={lengthMs} onChange={setTrim} />
      </div>
      <p className="muted">
        Keeps {formatTrimTime(trim.end - trim.start)} of {formatTrimTime(lengthMs)} (at least {PVC.minTrimMs / 1000} s).
      </p>
      <div className="pvc-trim-actions">
        <button type="button" className="button button-small" disabled={!media.url} onClick={preview}>
          {playing ? "Stop" : "Play selection"}
        </button>
        <button type="button" className="button button-small" disabled={trim.start === 0 && trim.end === lengthMs} onClick={() => setTrim({ start: 0, end: lengthMs })}>
          Reset
        </button>
        <button type="button" className="button button-small button-primary" disabled={!dirty || saving} onClick={() => void save()}>
          Save trim
        </button>
      </div>
    </section>
  );
}

/** One edge of the selection: a slider in tenths of a second, with its time beside its name. */
function TrimEdge({ edge, trim, lengthMs, onChange }: { edge: "start" | "end"; trim: Trim; lengthMs: number; onChange: (t: Trim) => void }) {
  const name = edge === "start" ? "Start" : "End";
  return (
    <label className="field">
      <span>
        {name} <output data-testid={`pvc-trim-${edge}`}>{formatTrimTime(trim[edge])}</output>
      </span>
      <input type="range" min={0} max={lengthMs} step={100} value={trim[edge]} aria-label={`Trim ${edge}`} aria-valuetext={formatTrimTime(trim[edge])} onChange={(e) => onChange(moveTrimEdge(trim, edge, Number(e.target.value), lengthMs))} />
    </label>
  );
}
