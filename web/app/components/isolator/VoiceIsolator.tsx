import { Link, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { ISOLATION_MAX_BYTES, stsMessages } from "../../../../functions/platform/contract/sts.js";
import { isolationCredits } from "../../../../functions/platform/domain/audioCredits.js";
import { formatNumber } from "../../lib/format.js";
import { useShell } from "../../lib/shell.js";
import { v1Fetch } from "../tts/client.js";
import { SUBSCRIPTION_PATH, speechErrorMessages, speechErrorView } from "../tts/errors.js";
import { quotaCheck } from "../tts/quota.js";
import { AudioPlayer } from "../audio/AudioPlayer.js";
import { formatClock } from "../audio/waveform.js";
import { Icon } from "../Icon.js";
import { decodedDurationMs } from "../sts/audioFiles.js";
import { AudioDropzone } from "../sts/AudioDropzone.js";

type State = { status: "idle" } | { status: "working" } | { status: "done"; url: string; filename: string; cost: number } | { status: "error"; message: string };

const isolatedName = (upload: string) => `${upload.replace(/\.[^.]+$/, "") || "audio"}_isolated.mp3`;

/**
 * The Voice Isolator (Tools): upload a recording (or record one), see what it costs (1,000
 * credits a minute), isolate the voice, and compare before and after; the result downloads as MP3.
 */
export function VoiceIsolator() {
  const [file, setFile] = useState<File | null>(null);
  const [original, setOriginal] = useState<string | null>(null);
  const [durationMs, setDurationMs] = useState<number | null>(null);
  const [state, setState] = useState<State>({ status: "idle" });
  const shell = useShell();
  const revalidator = useRevalidator();

  // One owner per object URL: replaced or unmounted, it is revoked.
  useEffect(() => () => void (original && URL.revokeObjectURL(original)), [original]);
  const result = state.status === "done" ? state.url : null;
  useEffect(() => () => void (result && URL.revokeObjectURL(result)), [result]);

  function choose(f: File | undefined) {
    if (!f) return;
    setFile(f);
    setOriginal(URL.createObjectURL(f));
    setDurationMs(null);
    setState(f.size > ISOLATION_MAX_BYTES ? { status: "error", message: stsMessages.audioTooLarge(ISOLATION_MAX_BYTES / 1024 / 1024) } : { status: "idle" });
    void decodedDurationMs(f).then(setDurationMs);
  }

  const cost = durationMs === null ? null : isolationCredits(durationMs / 1000);

  async function isolate() {
    if (!file) return;
    const quota = quotaCheck({ cost: cost ?? 0, tier: shell?.subscription.tier ?? "free", used: shell?.subscription.used ?? 0, limit: shell?.subscription.limit ?? Number.POSITIVE_INFINITY });
    if (quota.message) return setState({ status: "error", message: quota.message });
    setState({ status: "working" });
    const form = new FormData();
    form.append("audio", file, file.name);
    let res: Response | null = null;
    try {
      res = await v1Fetch("/v1/audio-isolation", { method: "POST", body: form });
      if (!res.ok) throw new Error("isolation failed");
      const url = URL.createObjectURL(await res.blob());
      setState({ status: "done", url, filename: isolatedName(file.name), cost: Number(res.headers.get("character-cost") ?? cost ?? 0) });
      revalidator.revalidate();
    } catch {
      if (!res || res.ok || res.status >= 500) return setState({ status: "error", message: stsMessages.somethingWentWrong });
      const view = speechErrorView(res.status, await res.json().catch(() => undefined));
      setState({ status: "error", message: view.message });
    }
  }

  return (
    <div className="isolator">
      <AudioDropzone
        icon="isolator"
        prompt={
          <>
            <strong>Drop a recording here</strong> or choose one: background noise is removed and the voice kept.
          </>
        }
        inputLabel="Audio file to isolate"
        onFiles={(files) => choose(files[0])}
      />

      {file && (
        <div className="isolator-bar">
          <span className="sts-item-name">{file.name}</span>
          <span className="muted" data-testid="isolator-cost">
            {durationMs === null ? "Reading duration…" : `${formatClock(durationMs / 1000)} · ${formatNumber(cost ?? 0)} credits`}
          </span>
          {state.status === "working" ? (
            <span className="generate-progress" role="status">
              <span className="spinner" aria-hidden="true" />
              Isolating…
            </span>
          ) : (
            <button type="button" className="button button-primary" onClick={() => void isolate()}>
              Isolate voice
            </button>
          )}
        </div>
      )}
      {state.status === "error" && (
        <p className="form-error" role="alert" data-testid="isolator-error">
          {state.message}
          {state.message.startsWith("This request exceeds your quota") && (
            <>
              {" "}
              <Link to={SUBSCRIPTION_PATH}>{speechErrorMessages.updateSubscription}</Link>
            </>
          )}
        </p>
      )}

      {file && original && (
        <div className="isolator-players">
          <section className="card" aria-label="Before">
            <h2>Before</h2>
            <AudioPlayer label={`Original ${file.name}`} src={original} variant="compact" testId="isolator-before" />
          </section>
          <section className="card" aria-label="After">
            <h2>After</h2>
            {state.status === "done" ? (
              <AudioPlayer label="Isolated voice" src={state.url} variant="compact" testId="isolator-after">
                <a className="button button-small" href={state.url} download={state.filename}>
                  <Icon name="download" size={16} />
                  Download
                </a>
              </AudioPlayer>
            ) : (
              <p className="muted">The isolated voice appears here.</p>
            )}
          </section>
        </div>
      )}
    </div>
  );
}
