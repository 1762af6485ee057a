import { Link, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { stsMessages } from "../../../../functions/platform/contract/sts.js";
import { formatNumber } from "../../lib/format.js";
import { useShell } from "../../lib/shell.js";
import { rememberTaskModel, taskModel } from "../../lib/taskModel.js";
import { v1Fetch } from "../tts/client.js";
import { SUBSCRIPTION_PATH, speechErrorMessages, speechErrorView } from "../tts/errors.js";
import { modelForVoice } from "../tts/models.js";
import { quotaCheck } from "../tts/quota.js";
import { DEFAULT_VOICE_SETTINGS } from "../tts/settings.js";
import { voiceDisplayName } from "../tts/voices.js";
import type { Model, Voice, VoiceSettings } from "../tts/wire.js";
import { AudioPlayer } from "../audio/AudioPlayer.js";
import { formatClock } from "../audio/waveform.js";
import { Icon } from "../Icon.js";
import { HistoryList } from "../tts/HistoryList.js";
import { HistoryTabs, useSpeechTab } from "../tts/HistoryTabs.js";
import { ModelPicker } from "../tts/ModelPicker.js";
import { VoicePreview } from "../tts/VoicePreview.js";
import { VoiceSettingsPanel } from "../tts/VoiceSettingsPanel.js";
import { markVoicesUsed } from "../voices/recentVoices.js";
import { VoicePicker } from "../voices/VoicePicker.js";
import { decodedDurationMs } from "./audioFiles.js";
import { admit, convertedName, itemCost, queueReducer, type QueueItem } from "./queue.js";
import { AudioDropzone } from "./AudioDropzone.js";

const OUTPUT_FORMAT = "mp3_44100_128";

const STATUS_LABEL: Record<QueueItem["status"], string> = { pending: "Pending", processing: "Converting…", converted: "Converted", error: "Error" };

/** What a failed conversion shows: the quota message when over quota, else the spec's two messages. */
async function conversionError(res: Response | null): Promise<string> {
  if (!res || res.status >= 500) return stsMessages.somethingWentWrong;
  const view = speechErrorView(res.status, await res.json().catch(() => undefined));
  if (view.kind === "subscription") return view.message;
  return view.message && view.message !== speechErrorMessages.generic ? `${stsMessages.conversionFailed}: ${view.message}` : stsMessages.conversionFailed;
}

/**
 * The Voice Changer (speech-generation.md §2 speech to speech screen, §3 queue item, §4 states):
 * an upload queue (drag and drop, several files, or a microphone recording), each item pending,
 * processing, converted or error, with convert, regenerate and remove; converted items play and
 * download. The voice, a voice-conversion model and the voice settings apply to every item; the
 * credits are shown before converting. The history tab (?tab=history) lists past conversions
 * (source STS) with the TTS page's history list: play, download, convert again, delete.
 */
export function VoiceChanger({ models, voice: loadedVoice }: { models: Model[]; voice: Voice | null }) {
  const stsModels = useMemo(() => models.filter((m) => m.can_do_voice_conversion), [models]);
  const [modelId, setModelId] = useState<string | null>(() => taskModelOnServer(models));
  const [modelWarning, setModelWarning] = useState<string | null>(null);
  const [voice, setVoice] = useState<Voice | null>(loadedVoice);
  const [settings, setSettings] = useState<VoiceSettings>(loadedVoice?.settings ?? DEFAULT_VOICE_SETTINGS);
  const [removeNoise, setRemoveNoise] = useState(false);
  const [queue, dispatch] = useReducer(queueReducer, []);
  const [notices, setNotices] = useState<string[]>([]);
  const [running, setRunning] = useState<string | null>(null);
  const requested = useRef<string[]>([]);
  const pumping = useRef(false);
  const urls = useRef(new Set<string>());
  const shell = useShell();
  const revalidator = useRevalidator();
  const [tab, setTab] = useSpeechTab();
  const model = stsModels.find((m) => m.model_id === modelId) ?? null;
  const multiplier = model?.model_rates.character_cost_multiplier ?? 1;

  // The tab's model: the one last chosen here, else the voice-conversion default (§4).
  useEffect(() => {
    const r = taskModel(models, "sts", modelId);
    if (r.modelId && r.modelId !== modelId) setModelId(r.modelId);
    if (loadedVoice && r.modelId) {
      const v = modelForVoice(models, r.modelId, loadedVoice, "sts");
      setModelWarning(v.warning);
      if (v.modelId !== r.modelId) setModelId(v.modelId);
    }
  }, []); // once, after hydration (the remembered model lives in this browser)

  // Every object URL has one owner: the queue. Revoked when an item goes or the page does.
  useEffect(() => () => urls.current.forEach((u) => URL.revokeObjectURL(u)), []);

  const add = useCallback((files: File[]) => {
    const { items, refused } = admit(queueRef.current, files);
    setNotices(refused);
    if (!items.length) return;
    dispatch({ type: "add", items });
    for (const item of items) void decodedDurationMs(item.file).then((ms) => dispatch({ type: "duration", id: item.id, durationMilliseconds: ms }));
  }, []);
  const queueRef = useRef(queue);
  queueRef.current = queue;

  function pickVoice(v: Voice) {
    setVoice(v);
    setSettings(v.settings ?? DEFAULT_VOICE_SETTINGS);
    if (!modelId) return;
    // A professional voice without a model fine-tuned for it: the warning, and the multilingual STS model.
    const r = modelForVoice(models, modelId, v, "sts");
    setModelWarning(r.warning);
    if (r.modelId !== modelId) setModelId(r.modelId);
  }

  function chooseModel(id: string) {
    setModelId(id);
    setModelWarning(null);
    rememberTaskModel("sts", id);
  }

  const used = shell?.subscription.used ?? 0;
  const limit = shell?.subscription.limit ?? Number.POSITIVE_INFINITY;

  async function convert(item: QueueItem) {
    if (!voice || !model) return;
    const cost = itemCost(item.durationMilliseconds, multiplier);
    // Over quota: the item becomes an error with the quota message (§4), nothing is sent.
    const quota = quotaCheck({ cost: cost ?? 0, tier: shell?.subscription.tier ?? "free", used, limit });
    if (quota.message) {
      dispatch({ type: "error", id: item.id, error: quota.message });
      return;
    }
    dispatch({ type: "processing", id: item.id });
    const form = new FormData();
    form.append("audio", item.file, item.file.name);
    form.append("model_id", model.model_id);
    const voiceSettings: Record<string, unknown> = { stability: settings.stability, similarity_boost: settings.similarity_boost };
    if (model.can_use_style) voiceSettings.style = settings.style;
    if (model.can_use_speaker_boost) voiceSettings.use_speaker_boost = settings.use_speaker_boost;
    form.append("voice_settings", JSON.stringify(voiceSettings));
    form.append("remove_background_noise", String(removeNoise));
    let res: Response | null = null;
    try {
      res = await v1Fetch(`/v1/speech-to-speech/${encodeURIComponent(voice.voice_id)}?output_format=${OUTPUT_FORMAT}`, { method: "POST", body: form });
      if (!res.ok) throw new Error("conversion failed");
      const blob = await res.blob();
      const url = URL.createObjectURL(blob);
      urls.current.add(url);
      const previous = queueRef.current.find((i) => i.id === item.id)?.convertedFile;
      if (previous) {
        URL.revokeObjectURL(previous.url);
        urls.current.delete(previous.url);
      }
      dispatch({
        type: "converted",
        id: item.id,
        file: { id: res.headers.get("history-item-id"), filename: convertedName(item.file.name, voiceDisplayName(voice.name)), url, cost: Number(res.headers.get("character-cost") ?? cost ?? 0) },
      });
      markVoicesUsed([voice.voice_id]);
      revalidator.revalidate();
    } catch {
      dispatch({ type: "error", id: item.id, error: await conversionError(res && !res.ok ? res : null) });
    }
  }

  // One conversion at a time, in the order asked: the others wait as pending.
  async function pump() {
    if (pumping.current) return;
    pumping.current = true;
    try {
      for (;;) {
        const id = requested.current.shift();
        if (!id) break;
        const item = queueRef.current.find((i) => i.id === id);
        if (!item || item.status !== "pending") continue;
        setRunning(id);
        await convert(item);
      }
    } finally {
      pumping.current = false;
      setRunning(null);
    }
  }

  function request(ids: string[]) {
    for (const id of ids) if (!requested.current.includes(id)) requested.current.push(id);
    void pump();
  }

  function regenerate(item: QueueItem) {
    dispatch({ type: "regenerate", id: item.id });
    queueRef.current = queueRef.current.map((i) => (i.id === item.id ? { ...i, status: "pending" } : i));
    request([item.id]);
  }

  function retry(item: QueueItem) {
    dispatch({ type: "regenerate", id: item.id });
    queueRef.current = queueRef.current.map((i) => (i.id === item.id ? { ...i, status: "pending" } : i));
    request([item.id]);
  }

  function remove(item: QueueItem) {
    requested.current = requested.current.filter((id) => id !== item.id);
    if (item.convertedFile) {
      URL.revokeObjectURL(item.convertedFile.url);
      urls.current.delete(item.convertedFile.url);
    }
    dispatch({ type: "remove", id: item.id });
  }

  const pending = queue.filter((i) => i.status === "pending");
  const pendingCost = pending.reduce((n, i) => n + (itemCost(i.durationMilliseconds, multiplier) ?? 0), 0);
  const unknownCost = pending.some((i) => i.durationMilliseconds === null);
  const canConvert = !!voice && !!model;

  return (
    <div className="tts">
      <HistoryTabs
        tab={tab}
        onTab={setTab}
        label="Voice Changer views"
        mainLabel="Convert"
        mainClassName="tts-layout sts"
        history={<HistoryList source="STS" onGenerate={() => setTab("main")} onRegenerated={() => revalidator.revalidate()} />}
      >
        <div className="tts-main">
          <AudioDropzone
            icon="upload"
            prompt={
              <>
                <strong>Drop audio files here</strong> or choose them; several at once are queued.
              </>
            }
            multiple
            inputLabel="Audio files to convert"
            onFiles={add}
            testId="sts-dropzone"
          />
          {notices.map((n) => (
            <p key={n} className="inline-warning" role="status">
              {n}
            </p>
          ))}

          {queue.length > 0 && (
            <section aria-label="Upload queue" className="sts-queue-section">
              <div className="sts-queue-head">
                <h2>Queue</h2>
                <p className="muted" data-testid="sts-pending-cost">
                  {pending.length ? `${pending.length} pending · ${unknownCost ? "at least " : ""}${formatNumber(pendingCost)} credits` : "Nothing pending"}
                </p>
                <button type="button" className="button button-primary" disabled={!canConvert || !pending.length || !!running} onClick={() => request(pending.map((i) => i.id))}>
                  Convert all
                </button>
              </div>
              <ul className="sts-queue">
                {queue.map((item) => {
                  const cost = itemCost(item.durationMilliseconds, multiplier);
                  return (
                    <li key={item.id} className="sts-item card" data-status={item.status} data-testid="sts-item" aria-label={item.file.name}>
                      <div className="sts-item-head">
                        <span className="sts-item-name">{item.file.name}</span>
                        <span className="badge" data-testid="sts-status">
                          {STATUS_LABEL[item.status]}
                        </span>
                      </div>
                      <p className="sts-item-meta muted">
                        {item.durationMilliseconds === null ? "Reading duration…" : formatClock(item.durationMilliseconds / 1000)}
                        {cost !== null && ` · ${formatNumber(cost)} credits`}
                      </p>
                      {item.error && (
                        <p className="form-error" role="alert" data-testid="sts-error">
                          {item.error}
                          {item.error.startsWith("This request exceeds your quota") && (
                            <>
                              {" "}
                              <Link to={SUBSCRIPTION_PATH}>{speechErrorMessages.updateSubscription}</Link>
                            </>
                          )}
                        </p>
                      )}
                      {item.convertedFile && (
                        <AudioPlayer label={`Converted ${item.file.name}`} src={item.convertedFile.url} variant="compact" testId="sts-player">
                          <a className="button button-small" href={item.convertedFile.url} download={item.convertedFile.filename}>
                            <Icon name="download" size={16} />
                            Download
                          </a>
                        </AudioPlayer>
                      )}
                      <div className="sts-item-actions">
                        {(item.status === "pending" || item.status === "error") && (
                          <button
                            type="button"
                            className="button button-small button-primary"
                            disabled={!canConvert || requested.current.includes(item.id)}
                            onClick={() => (item.status === "error" ? retry(item) : request([item.id]))}
                          >
                            Convert
                          </button>
                        )}
                        {item.status === "processing" && (
                          <span className="generate-progress" role="status">
                            <span className="spinner" aria-hidden="true" />
                            Converting…
                          </span>
                        )}
                        {item.status === "converted" && (
                          <button type="button" className="button button-small" onClick={() => regenerate(item)} disabled={!canConvert}>
                            Regenerate
                          </button>
                        )}
                        <button type="button" className="button button-small" onClick={() => remove(item)} disabled={item.status === "processing"} aria-label={`Remove ${item.file.name}`}>
                          <Icon name="trash" size={16} />
                          Remove
                        </button>
                      </div>
                    </li>
                  );
                })}
              </ul>
            </section>
          )}
        </div>

        <aside className="tts-side" aria-label="Voice changer settings">
          <div className="control">
            <span className="control-label">Voice</span>
            <VoicePicker value={voice} onChange={pickVoice} label="Voice" />
            {voice?.preview_url && <VoicePreview url={voice.preview_url} name={voiceDisplayName(voice.name)} />}
          </div>
          <ModelPicker models={stsModels} value={modelId ?? ""} onChange={chooseModel} warning={modelWarning} />
          <VoiceSettingsPanel settings={settings} onChange={setSettings} dialogue={false} showSpeed={false} canUseStyle={model?.can_use_style ?? false} canUseSpeakerBoost={model?.can_use_speaker_boost ?? false} />
          <label className="toggle-row">
            Remove background noise
            <input type="checkbox" role="switch" className="switch" checked={removeNoise} onChange={(e) => setRemoveNoise(e.target.checked)} />
          </label>
        </aside>
      </HistoryTabs>
    </div>
  );
}

/** The server renders the voice-conversion default; the remembered model is applied after hydration. */
function taskModelOnServer(models: readonly Model[]): string | null {
  const m = models.find((x) => x.model_id === "eleven_multilingual_sts_v2" && x.can_do_voice_conversion) ?? models.find((x) => x.can_do_voice_conversion);
  return m?.model_id ?? null;
}
