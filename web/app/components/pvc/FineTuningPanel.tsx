import { useCallback, useEffect, useState } from "react";
import { z } from "zod";
import { v1Fetch, v1Json } from "../tts/client.js";
import { formatDuration, pvcMessages } from "./wizard.js";

const StateWire = z.object({
  is_owner: z.boolean().nullish(),
  fine_tuning: z.object({
    state: z.record(z.string()).nullish(),
    progress: z.record(z.number()).nullish(),
    message: z.record(z.string()).nullish(),
  }),
});

const ReportWire = z.object({
  model_id: z.string(),
  total_duration_secs: z.number(),
  speech_secs: z.number(),
  samples: z.number(),
  snr_db: z.object({ mean: z.number(), min: z.number() }),
  clipping: z.object({ samples_clipping: z.number() }),
  loudness_lufs: z.object({ mean: z.number().nullable() }),
  speaker_consistency: z.object({ mean: z.number(), outliers: z.array(z.string()) }),
  problems: z.array(z.string()),
  per_sample: z.array(z.object({ sample_id: z.string(), file_name: z.string(), problems: z.array(z.string()) })),
});
type Report = z.infer<typeof ReportWire>;

const STATE_LABELS: Record<string, string> = {
  not_started: "Not started",
  queued: "Queued",
  fine_tuning: "Fine-tuning",
  fine_tuned: "Fine-tuned",
  failed: "Failed",
  delayed: "Delayed",
};

/** How often the panel looks again while a model is fine-tuning. */
const POLL_MS = 5000;

/**
 * A professional clone's fine-tuning in the voice's detail panel: the state per model (with its
 * progress while tuning, its message when it failed), refreshed every 5 s while one is running,
 * and the latest dataset quality report (issue 11 §2). A failed model offers Retry, and the
 * voice's owner can retrain a tuned one (speech-generation.md §4, §6); starting twice is ignored
 * (fine_tuning_already_queued), other refusals say 'Failed to start fine tuning'.
 */
export function FineTuningPanel({ voiceId }: { voiceId: string }) {
  const [ft, setFt] = useState<z.infer<typeof StateWire>["fine_tuning"] | null>(null);
  const [owner, setOwner] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const [starting, setStarting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);

  const load = useCallback(async () => {
    const v = await v1Json(`/v1/voices/${encodeURIComponent(voiceId)}`, StateWire).catch(() => null);
    if (v) {
      setFt(v.fine_tuning);
      setOwner(v.is_owner === true);
    }
    const r = await v1Fetch(`/v1/voices/pvc/${encodeURIComponent(voiceId)}/quality-report`);
    if (r.ok) setReport(ReportWire.parse(await r.json()));
    return v;
  }, [voiceId]);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      const v = await load();
      const running = Object.values(v?.fine_tuning.state ?? {}).some((s) => s === "queued" || s === "fine_tuning");
      if (live && running) timer = setTimeout(() => void tick(), POLL_MS);
    };
    void tick();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [load, round]);

  const train = async (model: string) => {
    setStarting(model);
    setError(null);
    const r = await v1Fetch(`/v1/voices/pvc/${encodeURIComponent(voiceId)}/train`, { method: "POST", body: JSON.stringify({ model_id: model }) });
    if (!r.ok) {
      const body = (await r.json().catch(() => null)) as { detail?: { status?: string } } | null;
      if (body?.detail?.status !== "fine_tuning_already_queued") setError(pvcMessages.failedToStartFineTuning);
    }
    setStarting(null);
    // Look again, and keep looking while it runs.
    setRound((n) => n + 1);
  };

  const models = Object.entries(ft?.state ?? {});
  return (
    <section className="voice-detail-section" aria-label="Fine-tuning">
      <h3 className="section-title">Fine-tuning</h3>
      {models.length === 0 ? (
        <p className="muted">Not fine-tuned yet.</p>
      ) : (
        <ul className="pvc-models">
          {models.map(([model, state]) => (
            <li key={model}>
              <span className="pvc-model-id">{model}</span>{" "}
              <span className={`pvc-model-state ${state}`}>
                {STATE_LABELS[state] ?? state}
                {state === "fine_tuning" && ft?.progress?.[model] !== undefined ? ` ${Math.round(ft.progress[model] * 100)}%` : ""}
              </span>
              {state === "failed" && ft?.message?.[model] && <span className="field-error"> {ft.message[model]}</span>}
              {(state === "failed" || (state === "fine_tuned" && owner)) && (
                <button type="button" className="button button-small" disabled={starting !== null} aria-label={`${state === "failed" ? "Retry" : "Retrain"} ${model}`} onClick={() => void train(model)}>
                  {state === "failed" ? "Retry" : "Retrain"}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {report && (
        <div className="pvc-report" aria-label="Dataset quality report" role="group">
          <h4>Dataset quality report</h4>
          <dl>
            <dt>Audio used</dt>
            <dd>
              {formatDuration(report.total_duration_secs)} ({formatDuration(report.speech_secs)} of speech) in {report.samples} samples
            </dd>
            <dt>Signal-to-noise</dt>
            <dd>
              {report.snr_db.mean.toFixed(1)} dB on average, {report.snr_db.min.toFixed(1)} dB at worst
            </dd>
            <dt>Clipping</dt>
            <dd>{report.clipping.samples_clipping === 0 ? "None" : `${report.clipping.samples_clipping} samples clip`}</dd>
            <dt>Loudness</dt>
            <dd>{report.loudness_lufs.mean === null ? "Unknown" : `${report.loudness_lufs.mean.toFixed(1)} LUFS`}</dd>
            <dt>Speaker consistency</dt>
            <dd>
              {Math.round(report.speaker_consistency.mean * 100)}%{report.speaker_consistency.outliers.length ? `, ${report.speaker_consistency.outliers.length} samples stand out` : ""}
            </dd>
          </dl>
          {(report.problems.length > 0 || report.per_sample.some((s) => s.problems.length)) && (
            <ul className="pvc-report-problems">
              {report.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
              {report.per_sample.flatMap((s) =>
                s.problems.map((p) => (
                  <li key={`${s.sample_id}-${p}`}>
                    <strong>{s.file_name}</strong>: {p}
                  </li>
                )),
              )}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
