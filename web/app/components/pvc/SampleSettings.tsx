import { useCallback, useEffect, useState } from "react";
import { z } from "zod";
import { Dialog } from "../Dialog.js";
import { Icon } from "../Icon.js";
import { apiCallError, v1Fetch, v1Json } from "../tts/client.js";
import { useShell } from "../../lib/shell.js";
import { TrimEditor } from "./TrimEditor.js";
import { audioUrl } from "../voice-creation/api.js";
import { usePlayback } from "../voice-creation/usePlayback.js";
import { PVC, formatDuration, pvcMessages, type PvcSample } from "./wizard.js";

const SeparationWire = z.object({
  status: z.enum(["not_started", "pending", "completed", "failed"]),
  speakers: z.record(z.object({ speaker_id: z.string(), duration_secs: z.number() })).nullable(),
  selected_speaker_ids: z.array(z.string()).nullable(),
  message: z.string().nullish(),
});
type Separation = z.infer<typeof SeparationWire>;
const IsolatedPreviewWire = z.object({ audio_base_64: z.string(), media_type: z.string() });

/** Six speaker colours (§2 Sample settings): the speaker's swatch in the list. */
export const SPEAKER_COLOURS = ["#2563eb", "#db2777", "#059669", "#d97706", "#7c3aed", "#0891b2"] as const;

/**
 * A sample's 'Settings' dialog: background noise removal, the trim (only with the feature flag
 * pvc-audio-trimming), and speaker separation (started on request, polled every 5 s while
 * pending, then the speakers training uses are chosen).
 */
export function SampleSettings({ voiceId, sample, onClose }: { voiceId: string; sample: PvcSample; onClose: () => void }) {
  const trimming = useShell()?.flags["pvc-audio-trimming"] === true;
  const base = `/v1/voices/pvc/${encodeURIComponent(voiceId)}/samples/${encodeURIComponent(sample.sample_id)}`;
  const [denoise, setDenoise] = useState(sample.remove_background_noise === true);
  const [sep, setSep] = useState<Separation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const playback = usePlayback();
  /** The isolated preview (GET …/audio?remove_background_noise=true), fetched once per dialog. */
  const [isolated, setIsolated] = useState<{ state: "idle" | "loading" } | { state: "ready"; url: string }>({ state: "idle" });

  const previewIsolated = async () => {
    if (isolated.state === "ready") return void playback.toggle("isolated", isolated.url);
    if (isolated.state === "loading") return;
    setIsolated({ state: "loading" });
    try {
      const p = await v1Json(`${base}/audio?remove_background_noise=true`, IsolatedPreviewWire);
      const url = playback.own(audioUrl(p.audio_base_64, p.media_type));
      setIsolated({ state: "ready", url });
      setError(null);
      void playback.toggle("isolated", url);
    } catch (e) {
      setIsolated({ state: "idle" });
      setError(e instanceof Error && e.message ? e.message : pvcMessages.isolatedPreviewFailed);
    }
  };

  const load = useCallback(async () => {
    const s = await v1Json(`${base}/speakers`, SeparationWire);
    setSep(s);
    return s;
  }, [base]);

  // While pending, look again every 5 seconds.
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      const s = await load().catch(() => null);
      if (live && s?.status === "pending") timer = setTimeout(() => void tick(), PVC.pollMs);
    };
    void tick();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [load]);

  const update = async (body: Record<string, unknown>) => {
    const r = await v1Fetch(base, { method: "POST", body: JSON.stringify(body) });
    if (!r.ok) {
      setError((await apiCallError(r)).message || pvcMessages.couldNotSaveAudioSettings);
      return false;
    }
    setError(null);
    return true;
  };

  const separate = async () => {
    const r = await v1Fetch(`${base}/separate-speakers`, { method: "POST" });
    if (!r.ok) {
      setError(pvcMessages.separationStartFailed);
      return;
    }
    setSep((s) => (s ? { ...s, status: "pending" } : s));
    // Poll until it ends.
    const poll = async () => {
      const s = await load().catch(() => null);
      if (s?.status === "pending") setTimeout(() => void poll(), PVC.pollMs);
    };
    setTimeout(() => void poll(), PVC.pollMs);
  };

  const toggleSpeaker = async (id: string, on: boolean) => {
    if (!sep) return;
    const current = sep.selected_speaker_ids ?? [];
    const next = on ? [...new Set([...current, id])] : current.filter((x) => x !== id);
    // Shown at once; put back if the server refuses.
    setSep({ ...sep, selected_speaker_ids: next });
    if (!(await update({ selected_speaker_ids: next }))) setSep({ ...sep, selected_speaker_ids: current });
  };

  const speakers = Object.values(sep?.speakers ?? {});
  return (
    <Dialog title={pvcMessages.settingsTitle} onClose={onClose}>
      <div className="pvc-settings">
        <p className="muted">{sample.file_name}</p>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={denoise}
            onChange={async (e) => {
              const on = e.target.checked;
              setDenoise(on);
              if (!(await update({ remove_background_noise: on }))) setDenoise(!on);
            }}
          />
          Remove background noise
        </label>
        {denoise && (
          <button
            type="button"
            className="button button-small"
            aria-pressed={playback.playing === "isolated"}
            disabled={isolated.state === "loading"}
            onClick={() => void previewIsolated()}
          >
            <Icon name={playback.playing === "isolated" ? "pause" : "play"} /> Preview with background noise removed
          </button>
        )}
        {denoise && isolated.state === "loading" && <p role="status">Removing background noise…</p>}
        {trimming && <TrimEditor voiceId={voiceId} sample={sample} onSave={update} />}
        <section aria-labelledby="pvc-separation">
          <h3 id="pvc-separation">Speaker separation</h3>
          {sep?.status === "pending" ? (
            <p role="status">Separating speakers…</p>
          ) : sep?.status === "completed" ? (
            <fieldset className="pvc-speakers">
              <legend>Speakers training uses</legend>
              {speakers.map((s, i) => (
                <label key={s.speaker_id} className="checkbox">
                  <input type="checkbox" checked={sep.selected_speaker_ids?.includes(s.speaker_id) ?? false} onChange={(e) => void toggleSpeaker(s.speaker_id, e.target.checked)} />
                  <span className="pvc-speaker-swatch" style={{ background: SPEAKER_COLOURS[i % SPEAKER_COLOURS.length] }} aria-hidden="true" />
                  Speaker {i + 1} <span className="muted">{formatDuration(s.duration_secs)}</span>
                </label>
              ))}
            </fieldset>
          ) : (
            <>
              {sep?.status === "failed" && (
                <p className="form-error" role="alert">
                  {sep.message ?? pvcMessages.separationFailed}
                </p>
              )}
              <p className="muted">Find who speaks when in this sample, then choose the speakers to train on.</p>
              <button type="button" className="button" onClick={() => void separate()}>
                Separate speakers
              </button>
            </>
          )}
        </section>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}
