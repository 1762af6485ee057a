import { Link, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { enhanceMessages } from "../../../../functions/platform/domain/dialogueEnhance.js";
import { countCharacters } from "../../lib/characters.js";
import { useShell } from "../../lib/shell.js";
import { v1Fetch, v1Json } from "./client.js";
import {
  capDialogue,
  dialogueCharacters,
  dialogueInputs,
  dialogueStability,
  newBlockId,
  nextPreference,
  voiceForNewSpeaker,
  type DialogueBlock,
  type Preference,
} from "./dialogue.js";
import { creditCost, DEFAULT_DIALOGUE_MODEL_ID, DEFAULT_MODEL_FOR_TASK, modelForTask, modelForVoice, textLimit } from "./models.js";
import { rememberTaskModel, taskModel } from "../../lib/taskModel.js";
import { DEFAULT_VOICE_SETTINGS, keepPerRequest, ttsVoiceSettings } from "./settings.js";
import { bracketWarning, requestText, SAMPLE_TEXTS } from "./text.js";
import { QUOTA_DIALOG_TITLE, quotaCheck } from "./quota.js";
import { voiceDisplayName } from "./voices.js";
import { SUBSCRIPTION_PATH, speechErrorMessages } from "./errors.js";
import { Icon } from "../Icon.js";
import { EnhanceWire, PreferenceWire, VoiceSettingsWire, type Model, type Voice, type VoiceSettings } from "./wire.js";
import { markVoicesUsed } from "../voices/recentVoices.js";
import { VoicePicker } from "../voices/VoicePicker.js";
import { CostIndicator } from "./CostIndicator.js";
import { DialogueEditor } from "./DialogueEditor.js";
import { GenerationPlayer } from "./GenerationPlayer.js";
import { HistoryList } from "./HistoryList.js";
import { HistoryTabs, useSpeechTab } from "./HistoryTabs.js";
import { ModelPicker } from "./ModelPicker.js";
import { PreferencePanel } from "./PreferencePanel.js";
import { SpeechErrorDialog } from "./SpeechErrorDialog.js";
import { TextEditor } from "./TextEditor.js";
import { isRegeneration, useSpeechGeneration, type Generation, type SpeechRequest } from "./useSpeechGeneration.js";
import { VoicePreview } from "./VoicePreview.js";
import { VoiceSettingsPanel } from "./VoiceSettingsPanel.js";
import { LANGUAGE_TOAST_MS, languageToast, shouldCheckLanguage } from "./language.js";
import { useToast } from "../ui/Toast.js";
import { z } from "zod";

export interface TextToSpeechProps {
  models: Model[];
  voice: Voice | null;
  starterVoices: Voice[];
}

const OUTPUT_FORMAT = "mp3_44100_128";

type EnhanceState = { status: "idle"; error: string | null; unchanged?: boolean } | { status: "loading" } | { status: "review"; previous: DialogueBlock[] };

interface PreferencePair {
  a: Generation;
  b: Generation;
  preference: Preference | null;
}

function initialModel(models: Model[], voice: Voice | null): { id: string | null; warning: string | null } {
  const forTask = modelForTask(models, DEFAULT_MODEL_FOR_TASK.tts, "tts");
  if (!forTask.modelId) return { id: null, warning: forTask.error };
  if (!voice) return { id: forTask.modelId, warning: null };
  const forVoice = modelForVoice(models, forTask.modelId, voice, "tts");
  return { id: forVoice.modelId, warning: forVoice.warning };
}

/**
 * The Text to Speech screen (speech-generation.md §2): voice and model pickers, voice settings,
 * the editor (single speaker or dialogue), the credit cost, Generate with audio that plays while
 * it streams, the dialogue preference panel and the history tab (?tab=history, replacing the
 * history entry).
 */
export function TextToSpeech({ models, voice: loadedVoice, starterVoices }: TextToSpeechProps) {
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useSpeechTab();
  const ttsModels = useMemo(() => models.filter((m) => m.can_do_text_to_speech), [models]);
  const [start] = useState(() => initialModel(models, loadedVoice));

  const [modelId, setModelId] = useState<string | null>(start.id);
  const [modelWarning, setModelWarning] = useState<string | null>(start.warning);
  const [voice, setVoice] = useState<Voice | null>(loadedVoice);
  const [settings, setSettings] = useState<VoiceSettings>(loadedVoice?.settings ?? DEFAULT_VOICE_SETTINGS);
  const [dialogue, setDialogue] = useState(false);
  const [text, setText] = useState("");
  const [textNotice, setTextNotice] = useState<string | null>(null);
  const [blocks, setBlocks] = useState<DialogueBlock[]>([]);
  const [dialogueWarnings, setDialogueWarnings] = useState<string[]>([]);
  const [knownVoices, setKnownVoices] = useState(() => new Map([...starterVoices, ...(loadedVoice ? [loadedVoice] : [])].map((v) => [v.voice_id, v])));
  const [enhance, setEnhance] = useState<EnhanceState>({ status: "idle", error: null });
  const [pair, setPair] = useState<PreferencePair | null>(null);
  const modelBeforeDialogue = useRef<string | null>(null);
  const latestVoiceId = useRef(loadedVoice?.voice_id ?? null);
  const audio = useRef<HTMLAudioElement>(null);
  const generation = useSpeechGeneration(audio);
  const revalidator = useRevalidator();
  const shell = useShell();
  const [quotaDialog, setQuotaDialog] = useState<string | null>(null);
  const toast = useToast();
  const languageChecked = useRef<string | null>(null);

  const model = models.find((m) => m.model_id === modelId) ?? null;
  const limit = model ? textLimit(model) : 0;
  const starterIds = useMemo(() => starterVoices.map((v) => v.voice_id), [starterVoices]);

  function rememberVoice(v: Voice) {
    setKnownVoices((prev) => (prev.get(v.voice_id) === v ? prev : new Map(prev).set(v.voice_id, v)));
  }

  function applyVoiceModelRule(v: Voice) {
    if (!modelId) return;
    const r = modelForVoice(models, modelId, v, "tts");
    setModelWarning(r.warning);
    if (r.modelId !== modelId) setModelId(r.modelId);
  }

  async function pickVoice(v: Voice) {
    latestVoiceId.current = v.voice_id;
    setVoice(v);
    rememberVoice(v);
    applyVoiceModelRule(v);
    // Initial values come from the voice's settings (the workspace's own, when saved).
    // Volume and noise removal are the page's, per request: another voice keeps them.
    setSettings((prev) => keepPerRequest(prev, v.settings ?? DEFAULT_VOICE_SETTINGS));
    try {
      const s = await v1Json(`/v1/voices/${encodeURIComponent(v.voice_id)}/settings`, VoiceSettingsWire);
      if (latestVoiceId.current === v.voice_id) setSettings((prev) => keepPerRequest(prev, s));
    } catch {
      // The defaults stay; generating still works.
    }
  }

  // The tab's model (speech-generation.md §4): the one last chosen on this tab, after hydration
  // (it lives in this browser), so coming back from the voice changer returns to it.
  useEffect(() => {
    const r = taskModel(models, "tts", modelId);
    if (!r.modelId || r.modelId === modelId) return;
    const forVoice = loadedVoice ? modelForVoice(models, r.modelId, loadedVoice, "tts") : { modelId: r.modelId, warning: null };
    setModelId(forVoice.modelId);
    setModelWarning(forVoice.warning);
  }, []); // once, on arrival

  // ?mode=dialogue (Home's Dialogue action) starts in dialogue mode; the parameter then goes.
  useEffect(() => {
    if (params.get("mode") !== "dialogue") return;
    setDialogueMode(true);
    const p = new URLSearchParams(params);
    p.delete("mode");
    setParams(p, { replace: true, preventScrollReset: true });
  }, []); // once, on arrival

  // Arriving again with another ?voice_id (a link to this page) selects that voice.
  const loadedId = loadedVoice?.voice_id;
  const firstLoad = useRef(true);
  useEffect(() => {
    if (firstLoad.current) {
      firstLoad.current = false;
      return;
    }
    if (loadedVoice && loadedId !== latestVoiceId.current) void pickVoice(loadedVoice);
  }, [loadedId]); // only a newly loaded voice matters

  function setDialogueMode(on: boolean) {
    if (on === dialogue) return;
    setModelWarning(null);
    if (on) {
      modelBeforeDialogue.current = modelId;
      if (ttsModels.some((m) => m.model_id === DEFAULT_DIALOGUE_MODEL_ID)) setModelId(DEFAULT_DIALOGUE_MODEL_ID);
      if (blocks.length === 0) {
        const first = voice?.voice_id ?? starterIds[0];
        if (first) {
          const firstBlock = { id: newBlockId(), voiceId: first, text: "" };
          const second = voiceForNewSpeaker([firstBlock], starterIds) ?? first;
          setBlocks([firstBlock, { id: newBlockId(), voiceId: second, text: "" }]);
        }
      }
    } else if (modelBeforeDialogue.current) {
      setModelId(modelBeforeDialogue.current);
    }
    setDialogue(on);
  }

  const request: SpeechRequest | null = useMemo(() => {
    if (!model) return null;
    if (!dialogue) {
      const t = requestText(text);
      if (!voice || !t) return null;
      const body = { text: t, model_id: model.model_id, voice_settings: ttsVoiceSettings(settings, model) };
      return {
        kind: "tts",
        path: `/v1/text-to-speech/${encodeURIComponent(voice.voice_id)}/stream?output_format=${OUTPUT_FORMAT}`,
        body,
        key: JSON.stringify(["tts", voice.voice_id, body]),
        voiceNames: [voiceDisplayName(voice.name)],
      };
    }
    const inputs = dialogueInputs(blocks);
    if (!inputs.length) return null;
    const body = {
      inputs,
      model_id: model.model_id,
      settings: { stability: dialogueStability(settings.stability), similarity: settings.similarity_boost, ...(settings.volume ? { volume: settings.volume } : {}) },
    };
    return {
      kind: "dialogue",
      path: `/v1/text-to-dialogue/stream?output_format=${OUTPUT_FORMAT}`,
      body,
      key: JSON.stringify(["dialogue", body]),
      voiceNames: inputs.map((i) => voiceDisplayName(knownVoices.get(i.voice_id)?.name ?? "Speaker")),
    };
  }, [model, dialogue, text, voice, settings, blocks, knownVoices]);

  // Characters are code points (an emoji is one), as the server counts them for limits and credits.
  const characters = dialogue ? dialogueInputs(blocks).reduce((n, i) => n + countCharacters(i.text), 0) : countCharacters(requestText(text));
  const overLimit = dialogue ? dialogueCharacters(blocks) > limit : countCharacters(text) > limit;
  const cost = model ? creditCost(characters, model.model_rates.character_cost_multiplier) : 0;
  const last = generation.current;
  const busy = generation.status !== "idle";
  const regenerating = request !== null && isRegeneration(last, request.key);
  // While a generation runs, the label shows what that generation costs (its own headers), not the next click.
  const inFlight = busy && last && !last.url ? last : null;
  const free = inFlight ? inFlight.cost === 0 && inFlight.regenerationCount > 0 : regenerating && last !== null && last.freeRegenerationsRemaining > 0;
  const shownCost = inFlight ? inFlight.cost : cost;
  const quota = quotaCheck({ cost: free ? 0 : cost, tier: shell?.subscription.tier ?? "free", used: shell?.subscription.used ?? 0, limit: shell?.subscription.limit ?? Number.POSITIVE_INFINITY });
  const brackets = dialogue
    ? bracketWarning(blocks.map((b) => b.text).join("\n"), { v3Dialogue: modelId === DEFAULT_DIALOGUE_MODEL_ID })
    : bracketWarning(text, { v3Dialogue: false });

  function sendPreference(p: PreferencePair) {
    if (!p.preference || !p.a.requestId || !p.b.requestId) return;
    void v1Json("/v1/dialogue-preference", PreferenceWire, {
      method: "POST",
      json: { request_a_id: p.a.requestId, request_b_id: p.b.requestId, preference: p.preference },
    }).catch(() => undefined);
  }

  function dismissPreference() {
    if (pair) sendPreference(pair);
    setPair(null);
  }

  /**
   * The prompt's language check (speech-generation.md §5): once per prompt, model and voice, beside
   * the generation (it never holds it up); detection that fails says nothing.
   */
  async function checkLanguage(req: SpeechRequest) {
    if (!model) return;
    const prompt = req.kind === "tts" ? requestText(text) : dialogueInputs(blocks).map((i) => i.text).join("\n");
    if (!shouldCheckLanguage(prompt) || languageChecked.current === req.key) return;
    languageChecked.current = req.key;
    try {
      const r = await v1Json("/v1/text/detect-language", z.object({ detected_languages: z.array(z.string()) }), { method: "POST", json: { text: prompt.slice(0, 1000) } });
      const t = languageToast(models, model, r.detected_languages[0], req.kind === "tts" ? voice : null);
      if (t) toast.show({ kind: t.kind, message: t.message, durationMs: LANGUAGE_TOAST_MS });
    } catch {
      // Without detection the prompt is simply generated.
    }
  }

  async function onGenerate() {
    if (!request || overLimit || busy || quota.blocked) return;
    // Paid tiers get the quota dialog before anything is sent (speech-generation.md §6).
    if (quota.dialog) return setQuotaDialog(quota.message);
    void checkLanguage(request);
    const previous = generation.current;
    const result = await generation.generate(request, previous);
    if (!result) return;
    markVoicesUsed(request.kind === "tts" ? [voice!.voice_id] : dialogueInputs(blocks).map((i) => i.voice_id));
    // The credit usage in the shell (profile menu, banner) reloads.
    revalidator.revalidate();
    if (result.kind === "dialogue" && previous?.kind === "dialogue" && previous.key === result.key && previous.url) {
      if (pair) sendPreference(pair);
      setPair({ a: previous, b: result, preference: null });
    } else if (pair) {
      dismissPreference();
    }
  }

  function changeBlocks(next: DialogueBlock[], warnings: string[]) {
    // Editing after Enhance keeps its result (and retires its messages).
    if (enhance.status !== "loading") setEnhance({ status: "idle", error: null });
    setBlocks(next);
    setDialogueWarnings(warnings);
  }

  async function onEnhance() {
    const filled = blocks.filter((b) => b.text.trim());
    if (!filled.length) return;
    setEnhance({ status: "loading" });
    try {
      const res = await v1Fetch("/v1/text-to-dialogue/enhance", {
        method: "POST",
        body: JSON.stringify({ dialogue_blocks: filled.map((b) => ({ text: b.text, voice_id: b.voiceId })) }),
      });
      if (res.status === 429) return setEnhance({ status: "idle", error: enhanceMessages.dailyLimit });
      if (!res.ok) return setEnhance({ status: "idle", error: enhanceMessages.failed });
      const enhanced = EnhanceWire.parse(await res.json()).enhanced_blocks;
      if (enhanced.length !== filled.length) return setEnhance({ status: "idle", error: enhanceMessages.failed });
      if (enhanced.every((e, i) => e.text === filled[i]!.text)) return setEnhance({ status: "idle", error: null, unchanged: true });
      let k = 0;
      const capped = capDialogue(
        blocks.map((b) => (b.text.trim() ? { ...b, text: enhanced[k++]!.text } : b)),
        limit,
      );
      setEnhance({ status: "review", previous: blocks });
      setBlocks(capped.blocks);
      setDialogueWarnings(capped.warnings);
    } catch {
      setEnhance({ status: "idle", error: enhanceMessages.failed });
    }
  }

  return (
    <div className="tts">
      <HistoryTabs tab={tab} onTab={setTab} label="Text to Speech views" mainLabel="Generate" mainClassName="tts-layout tts-layout-split" history={<HistoryList onGenerate={() => setTab("main")} />}>
        <div className="tts-main">
          <div className="tts-toolbar">
            <label className="toggle-row">
              <input type="checkbox" role="switch" className="switch" checked={dialogue} onChange={(e) => setDialogueMode(e.target.checked)} disabled={busy} />
              Dialogue mode
            </label>
            {dialogue && (
              <button type="button" className="button button-small" onClick={onEnhance} disabled={busy || enhance.status === "loading" || !blocks.some((b) => b.text.trim())}>
                {enhance.status === "loading" ? "Enhancing…" : "Enhance"}
              </button>
            )}
          </div>

          {!dialogue && !text && (
            <div className="sample-texts" role="group" aria-label="Start with a sample text">
              <span className="muted">Try a sample:</span>
              {SAMPLE_TEXTS.map((sample) => (
                <button key={sample.label} type="button" className="chip" onClick={() => setText(sample.text)}>
                  {sample.label}
                </button>
              ))}
            </div>
          )}

          {dialogue ? (
            <DialogueEditor
              blocks={blocks}
              voices={knownVoices}
              starterVoiceIds={starterIds}
              limit={limit}
              warnings={dialogueWarnings}
              onChange={changeBlocks}
              onVoicePicked={(v) => {
                rememberVoice(v);
                applyVoiceModelRule(v);
              }}
              disabled={busy || enhance.status === "loading"}
            />
          ) : (
            <TextEditor
              text={text}
              limit={limit}
              notice={textNotice}
              onChange={(t, notice) => {
                setText(t);
                setTextNotice(notice);
              }}
            />
          )}

          {brackets && (
            <p className="inline-warning" role="status">
              {brackets}
            </p>
          )}
          {dialogue && enhance.status === "review" && (
            <div className="enhance-review" role="status">
              <span>The dialogue was enhanced.</span>
              <button type="button" className="button button-small" onClick={() => setEnhance({ status: "idle", error: null })}>
                Keep
              </button>
              <button
                type="button"
                className="button button-small"
                onClick={() => {
                  setBlocks(enhance.previous);
                  setDialogueWarnings([]);
                  setEnhance({ status: "idle", error: null });
                }}
              >
                Undo
              </button>
            </div>
          )}
          {dialogue && enhance.status === "idle" && enhance.unchanged && (
            <p className="muted" role="status">
              Enhance suggested no changes to this dialogue.
            </p>
          )}
          {dialogue && enhance.status === "idle" && enhance.error && (
            <p className="form-error" role="alert">
              {enhance.error}
            </p>
          )}
        </div>

        {/* The pickers and settings sit between the text and Generate: beside both on a desktop, between them on a phone (issue 28 §10). */}
        <aside className="tts-side" aria-label="Speech settings">
          {!dialogue && (
            <div className="control">
              <span className="control-label">Voice</span>
              <VoicePicker value={voice} onChange={(v) => void pickVoice(v)} label="Voice" />
              {voice?.preview_url && <VoicePreview url={voice.preview_url} name={voiceDisplayName(voice.name)} />}
            </div>
          )}
          <ModelPicker
            models={ttsModels}
            value={modelId ?? ""}
            onChange={(id) => {
              setModelId(id);
              setModelWarning(null);
              if (!dialogue) rememberTaskModel("tts", id);
            }}
            warning={modelWarning}
          />
          <VoiceSettingsPanel settings={settings} onChange={setSettings} dialogue={dialogue} canUseStyle={model?.can_use_style ?? false} canUseSpeakerBoost={model?.can_use_speaker_boost ?? false} showVolume showNoiseRemoval={!dialogue} />
        </aside>

        <div className="tts-main tts-output">
          <div className="tts-generate-bar">
            <CostIndicator cost={shownCost} free={free} />
            {busy ? (
              <div className="generate-progress" role="status" aria-live="polite">
                <span className="spinner" aria-hidden="true" />
                <span data-testid="generation-progress">
                  {generation.status === "streaming" ? `Generating… ${generation.received.toFixed(1)} s of audio received` : "Generating…"}
                </span>
                <button type="button" className="button button-small" onClick={generation.stop}>
                  <Icon name="stop" size={16} />
                  Stop
                </button>
              </div>
            ) : (
              <button type="button" className="button button-primary generate-button" onClick={onGenerate} disabled={!request || overLimit || quota.blocked || enhance.status === "loading"}>
                {regenerating ? "Regenerate" : "Generate speech"}
              </button>
            )}
          </div>
          {quota.blocked && (
            <p className="inline-warning quota-blocked" role="status" data-testid="quota-blocked">
              {quota.message}{" "}
              <Link to={SUBSCRIPTION_PATH}>{speechErrorMessages.updateSubscription}</Link>
            </p>
          )}
          {generation.stopped && !busy && (
            <p className="muted" role="status">
              Generation stopped.
            </p>
          )}

          <GenerationPlayer audio={audio} current={last} streaming={busy} receivedSeconds={generation.received} />
          {pair && pair.a.url && pair.b.url && (
            <PreferencePanel
              a={pair.a}
              b={pair.b}
              preference={pair.preference}
              onChoose={(which) => setPair((p) => (p ? { ...p, preference: nextPreference(p.preference, which) } : p))}
              onDismiss={dismissPreference}
            />
          )}
        </div>
      </HistoryTabs>

      {generation.error && <SpeechErrorDialog error={generation.error} onClose={generation.clearError} />}
      {quotaDialog && <SpeechErrorDialog error={{ kind: "subscription", title: QUOTA_DIALOG_TITLE, message: quotaDialog }} onClose={() => setQuotaDialog(null)} />}
    </div>
  );
}
