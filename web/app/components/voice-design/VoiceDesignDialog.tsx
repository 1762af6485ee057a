import { useEffect, useId, useMemo, useRef, useState } from "react";
import { CopyButton } from "../CopyButton.js";
import { Icon } from "../Icon.js";
import { useToast } from "../ui/Toast.js";
import { useShell } from "../../lib/shell.js";
import { formatNumber } from "../../lib/format.js";
import { CreationDialog, Stepper } from "../voice-creation/CreationDialog.js";
import { LabelsEditor, labelsFromRecord, labelsProblem, labelsToRecord, type Label } from "../voice-creation/LabelsEditor.js";
import { Recorder } from "../voice-creation/Recorder.js";
import { Uploader, audioDuration } from "../voice-creation/Uploader.js";
import { usePlayback } from "../voice-creation/usePlayback.js";
import {
  ApiCallError,
  audioUrl,
  designVoice,
  generatePreviewText,
  getSubscription,
  getTextLimits,
  myVoices,
  saveDesignedVoice,
  type Preview,
  type Subscription,
  type VoiceInfo,
} from "../voice-creation/api.js";
import { saveWithRetry } from "./saveRetry.js";
import { DEFAULT_FORM, DESIGN_SLIDERS, checkForm, counterState, formFromParams, seedFor, shareLink, type DesignErrors, type DesignForm, type SliderSpec } from "./designParams.js";
import {
  PREVIEW_TEXT_MAX,
  PREVIEW_TEXT_MIN,
  RECOMMENDATION_TOAST_MS,
  REFERENCE_MAX_BYTES,
  REFERENCE_MAX_SECONDS,
  REFERENCE_MIN_SECONDS,
  SEED_MAX,
  VOICE_DESIGN_V3,
  designMessages,
} from "../../../../functions/platform/contract/voiceCreation.js";
import { VOICE_DESCRIPTION_MAX, voiceMessages } from "../../../../functions/platform/contract/voices.js";
import { ErrorText } from "../voices/ErrorText.js";

/**
 * The Voice Design dialog (voice-creation.md §2.2, §4, §5): generate, then save. The form can
 * start from a shared link and the share action copies one; three previews come back, the
 * first is selected and played, previews play one at a time, and exactly one selected preview
 * moves on to the save form (name, description, labels with their rules).
 */
type Step = "generate" | "save";
interface ShownPreview extends Preview {
  url: string;
  played: boolean;
}
type Reference = { kind: "none" } | { kind: "file"; file: File; seconds: number | null } | { kind: "voice"; voiceId: string };

function Slider({ spec, value, onChange }: { spec: SliderSpec; value: number; onChange: (v: number) => void }) {
  const id = useId();
  return (
    <div className="slider">
      <div className="slider-head">
        <label htmlFor={id}>{spec.label}</label>
        <output htmlFor={id} className="slider-value">
          {spec.display(value)}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={spec.min}
        max={spec.max}
        step={spec.step}
        value={spec.toInput(value)}
        aria-valuetext={spec.display(value)}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(spec.fromInput(Number(e.target.value)))}
      />
      <p className="field-hint" id={`${id}-hint`}>
        {spec.hint}
      </p>
    </div>
  );
}

async function toBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function VoiceDesignDialog({ params, onClose }: { params: URLSearchParams; onClose: () => void }) {
  const shell = useShell();
  const toast = useToast();
  const v3Available = shell?.flags["voice-design-v3"] ?? true;
  const autoTextAvailable = shell?.flags["auto-preview-text"] ?? true;
  const [step, setStep] = useState<Step>("generate");
  const [form, setForm] = useState<DesignForm>(() => ({ ...formFromParams(params), model: v3Available ? VOICE_DESIGN_V3 : "eleven_multilingual_ttv_v2" }));
  const [autoText, setAutoText] = useState(false);
  const [errors, setErrors] = useState<DesignErrors>({});
  const [limits, setLimits] = useState({ min: PREVIEW_TEXT_MIN, max: PREVIEW_TEXT_MAX });
  const [subscription, setSubscription] = useState<Subscription | null>(null);
  const [busy, setBusy] = useState(false);
  const [previews, setPreviews] = useState<ShownPreview[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [reference, setReference] = useState<Reference>({ kind: "none" });
  const [ownVoices, setOwnVoices] = useState<VoiceInfo[]>([]);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [labels, setLabels] = useState<Label[]>([{ type: "language", value: "en" }]);
  const [agree, setAgree] = useState(false);
  const [saveErrors, setSaveErrors] = useState<{ name?: string; description?: string; labels?: string | null; terms?: string; form?: string }>({});
  const playback = usePlayback();
  const ids = { prompt: useId(), text: useId(), seed: useId(), name: useId(), description: useId(), terms: useId() };
  const recommended = useRef(false);
  /** The Generate button and the previews: brought into view when previews arrive (a phone's dialog scrolls). */
  const previewsSection = useRef<HTMLElement>(null);
  /** Retries of a save stop when the dialog closes. */
  const closed = useRef(new AbortController());
  useEffect(() => {
    const c = new AbortController();
    closed.current = c;
    return () => c.abort();
  }, []);

  useEffect(() => {
    let live = true;
    getTextLimits().then((l) => live && setLimits({ min: l.minimum_characters, max: l.maximum_characters }), () => undefined);
    getSubscription().then((s) => live && setSubscription(s), () => undefined);
    myVoices().then((r) => live && setOwnVoices(r.voices), () => undefined);
    return () => {
      live = false;
    };
  }, []);

  // The recommendation toast about the newer model stays 10 s (voice-creation.md §9).
  useEffect(() => {
    if (form.model !== VOICE_DESIGN_V3 && v3Available && !recommended.current) {
      recommended.current = true;
      toast.show({ message: designMessages.recommendation, kind: "info", durationMs: RECOMMENDATION_TOAST_MS });
    }
  }, [form.model, v3Available, toast]);

  const slotsUsedUp = subscription !== null && subscription.voice_slots_used >= subscription.voice_limit;
  const creditsLeft = subscription ? Math.max(0, subscription.character_limit - subscription.character_count) : shell ? Math.max(0, shell.subscription.limit - shell.subscription.used) : null;
  const counter = counterState(form.previewText, limits);
  const isV3 = form.model === VOICE_DESIGN_V3;
  const set = <K extends keyof DesignForm>(k: K, v: DesignForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const link = useMemo(() => (typeof window === "undefined" ? "" : shareLink(window.location.origin, window.location.pathname, form)), [form]);

  const failure = (e: unknown) => {
    const message = e instanceof ApiCallError ? e.view.message : designMessages.somethingWentWrong;
    // blocked_generation carries the policy message that says no charge was made; others get the generic title.
    toast.show({ kind: "error", message: message === designMessages.blockedGeneration ? message : `${designMessages.somethingWentWrong} ${message}` });
  };

  const writeText = async () => {
    if (form.voiceDescription.trim().length < 1) return;
    try {
      const r = await generatePreviewText(form.voiceDescription, form.model);
      set("previewText", r.text);
    } catch (e) {
      failure(e);
    }
  };

  const generate = async () => {
    const e = checkForm(form, limits, autoText);
    setErrors(e);
    if (Object.keys(e).length) {
      document.getElementById(e.voiceDescription ? ids.prompt : e.previewText ? ids.text : ids.seed)?.focus();
      return;
    }
    setBusy(true);
    playback.stop();
    try {
      const seed = seedFor(form);
      set("seed", String(seed));
      const body: Record<string, unknown> = {
        voice_description: form.voiceDescription.trim(),
        model_id: form.model,
        text: autoText ? null : form.previewText.trim(),
        auto_generate_text: autoText,
        seed,
        loudness: form.loudness,
        guidance_scale: form.guidanceScale,
      };
      if (!isV3) body.quality = form.quality;
      if (isV3 && reference.kind !== "none") {
        body.prompt_strength = form.promptStrength;
        if (reference.kind === "file") body.reference_audio_base64 = await toBase64(reference.file);
        else body.reference_voice_id = reference.voiceId;
      }
      const r = await designVoice(body);
      const shown = r.previews.map((p, i) => ({ ...p, url: playback.own(audioUrl(p.audio_base_64, p.media_type)), played: i === 0 }));
      setPreviews(shown);
      // The previews land beside the button that made them, in view (issue 28 §10, 390 px).
      requestAnimationFrame(() => previewsSection.current?.scrollIntoView({ block: "nearest" }));
      if (autoText) set("previewText", r.text);
      // The first preview of a new generation is selected and played (voice-creation.md §4).
      setSelected(shown[0]?.generated_voice_id ?? null);
      if (shown[0]) void playback.toggle(shown[0].generated_voice_id, shown[0].url);
      getSubscription().then(setSubscription, () => undefined);
    } catch (err) {
      failure(err);
    } finally {
      setBusy(false);
    }
  };

  const select = (p: ShownPreview) => {
    setSelected(p.generated_voice_id);
    setPreviews((all) => all.map((x) => (x.generated_voice_id === p.generated_voice_id ? { ...x, played: true } : x)));
  };

  const toSave = () => {
    if (!selected) return;
    playback.stop();
    const chosen = previews.find((p) => p.generated_voice_id === selected);
    setLabels(labelsFromRecord(null, chosen?.language ?? "en"));
    setDescription(form.voiceDescription.trim().slice(0, VOICE_DESCRIPTION_MAX));
    setStep("save");
  };

  const save = async () => {
    const e: typeof saveErrors = {};
    if (!name.trim()) e.name = voiceMessages.nameRequired;
    if (description.length > VOICE_DESCRIPTION_MAX) e.description = voiceMessages.descriptionTooLong;
    e.labels = labelsProblem(labels);
    if (reference.kind === "file" && !agree) e.terms = designMessages.agreeToTerms;
    if (!e.labels) delete e.labels;
    setSaveErrors(e);
    if (Object.keys(e).length) return;
    // The voice becomes the signed-in user's: without a user (the session's shell not loaded) nothing is sent.
    if (!shell?.user.id) return setSaveErrors({ form: designMessages.cantDetermineUserId });
    setBusy(true);
    try {
      const played = previews.filter((p) => p.played && p.generated_voice_id !== selected).map((p) => p.generated_voice_id);
      const body = { voice_name: name.trim(), voice_description: description.trim(), generated_voice_id: selected, labels: labelsToRecord(labels), played_not_selected_voice_ids: played };
      // Retried as voice-creation.md §7 says (saveRetry.ts).
      const voice = await saveWithRetry(() => saveDesignedVoice(body), { signal: closed.current.signal });
      toast.show({ kind: "success", message: `Voice "${voice.name}" created` });
      onClose();
    } catch (err) {
      setSaveErrors({ form: err instanceof ApiCallError ? err.view.message : designMessages.couldNotCreate });
    } finally {
      setBusy(false);
    }
  };

  const pickReferenceFile = (files: File[]): string[] => {
    const f = files[0];
    if (!f) return [];
    if (f.size > REFERENCE_MAX_BYTES) return [designMessages.referenceTooLarge];
    void audioDuration(f).then((seconds) => {
      if (seconds !== null && seconds < REFERENCE_MIN_SECONDS) toast.show({ kind: "error", message: designMessages.referenceTooShort });
      else if (seconds !== null && seconds > REFERENCE_MAX_SECONDS) toast.show({ kind: "error", message: designMessages.referenceTooLong });
      else setReference({ kind: "file", file: f, seconds });
    });
    return [];
  };

  const steps = [
    { key: "generate" as const, name: "Generate", enabled: true, done: step === "save" },
    { key: "save" as const, name: "Save", enabled: selected !== null, done: false },
  ];

  return (
    <CreationDialog title="Voice Design" subtitle="Describe a voice and hear three takes on it" onClose={onClose} escapeCloses={false} testId="voice-design-dialog">
      <Stepper steps={steps} current={step} onSelect={(k) => (k === "save" ? toSave() : setStep("generate"))} />
      {step === "generate" ? (
        <div className="design-grid">
          <section className="design-form" aria-label="Describe the voice">
            {v3Available && (
              <div className="segmented" role="group" aria-label="Model">
                <button type="button" aria-pressed={isV3} onClick={() => set("model", VOICE_DESIGN_V3)}>
                  Voice Design v3
                </button>
                <button type="button" aria-pressed={!isV3} onClick={() => set("model", "eleven_multilingual_ttv_v2")}>
                  Multilingual v2
                </button>
              </div>
            )}
            <div className="field">
              <label htmlFor={ids.prompt}>Voice description</label>
              <textarea
                id={ids.prompt}
                rows={3}
                value={form.voiceDescription}
                onChange={(e) => set("voiceDescription", e.target.value)}
                placeholder="A deep, slow, elderly British man with a warm voice"
                aria-invalid={!!errors.voiceDescription || undefined}
                aria-describedby={errors.voiceDescription ? `${ids.prompt}-e` : undefined}
              />
              {errors.voiceDescription && (
                <p className="field-error" id={`${ids.prompt}-e`}>
                  {errors.voiceDescription}
                </p>
              )}
            </div>
            <div className="field">
              <div className="field-row">
                <label htmlFor={ids.text}>Preview text</label>
                <span className="char-counter" data-out-of-range={counter.outOfRange || undefined} data-testid="char-counter">
                  {counter.count} / {limits.min}–{limits.max}
                </span>
              </div>
              <textarea
                id={ids.text}
                rows={4}
                value={form.previewText}
                disabled={autoText}
                onChange={(e) => set("previewText", e.target.value)}
                aria-invalid={!!errors.previewText || undefined}
                aria-describedby={errors.previewText ? `${ids.text}-e` : undefined}
              />
              {errors.previewText && (
                <p className="field-error" id={`${ids.text}-e`}>
                  {errors.previewText}
                </p>
              )}
              {autoTextAvailable && (
                <div className="inline-form">
                  <label className="checkbox">
                    <input type="checkbox" checked={autoText} onChange={(e) => setAutoText(e.target.checked)} /> Write the text for me
                  </label>
                  <button type="button" className="button button-small" onClick={writeText} disabled={!form.voiceDescription.trim()}>
                    Suggest text
                  </button>
                </div>
              )}
            </div>
            <div className="field">
              <label htmlFor={ids.seed}>Seed</label>
              <input
                id={ids.seed}
                inputMode="numeric"
                value={form.seed}
                placeholder="Random"
                onChange={(e) => set("seed", e.target.value.replace(/[^\d]/g, "").slice(0, 10))}
                aria-invalid={!!errors.seed || undefined}
                aria-describedby={`${ids.seed}-h`}
              />
              <p className="field-hint" id={`${ids.seed}-h`}>
                {errors.seed ?? `0 to ${SEED_MAX}; empty picks one`}
              </p>
            </div>
            <Slider spec={DESIGN_SLIDERS.loudness} value={form.loudness} onChange={(v) => set("loudness", v)} />
            {!isV3 && <Slider spec={DESIGN_SLIDERS.quality} value={form.quality} onChange={(v) => set("quality", v)} />}
            <Slider spec={DESIGN_SLIDERS.guidanceScale} value={form.guidanceScale} onChange={(v) => set("guidanceScale", v)} />
            {isV3 && (
              <fieldset className="reference">
                <legend>Reference voice</legend>
                <div className="segmented" role="group" aria-label="Reference voice">
                  <button type="button" aria-pressed={reference.kind === "none"} onClick={() => setReference({ kind: "none" })}>
                    None
                  </button>
                  <button type="button" aria-pressed={reference.kind === "voice"} disabled={!ownVoices.length} onClick={() => ownVoices[0] && setReference({ kind: "voice", voiceId: ownVoices[0].voice_id })}>
                    My voice
                  </button>
                </div>
                {reference.kind === "voice" && (
                  <select aria-label="Your voice" value={reference.voiceId} onChange={(e) => setReference({ kind: "voice", voiceId: e.target.value })}>
                    {ownVoices.map((v) => (
                      <option key={v.voice_id} value={v.voice_id}>
                        {v.name}
                      </option>
                    ))}
                  </select>
                )}
                {reference.kind === "file" ? (
                  <p className="reference-file">
                    <Icon name="waveform" /> {reference.file.name}
                    {reference.seconds !== null && ` (${reference.seconds.toFixed(1)} s)`}
                    <button type="button" className="button button-small" onClick={() => setReference({ kind: "none" })}>
                      Remove
                    </button>
                  </p>
                ) : (
                  <div className="reference-inputs">
                    <Uploader onFiles={pickReferenceFile} multiple={false} hint={`${REFERENCE_MIN_SECONDS} to ${REFERENCE_MAX_SECONDS} s, up to ${REFERENCE_MAX_BYTES / 1048576} MB`} label="Upload a reference" />
                    <Recorder minSeconds={REFERENCE_MIN_SECONDS} maxSeconds={REFERENCE_MAX_SECONDS} label="Record a reference" onRecorded={(file, seconds) => setReference({ kind: "file", file, seconds })} />
                  </div>
                )}
                {reference.kind !== "none" && <Slider spec={DESIGN_SLIDERS.promptStrength} value={form.promptStrength} onChange={(v) => set("promptStrength", v)} />}
              </fieldset>
            )}
          </section>
          <section className="design-previews" aria-label="Previews" ref={previewsSection}>
            <p className="credits-left" data-testid="credits-left">
              <Icon name="credits" /> {creditsLeft === null ? "…" : `${formatNumber(creditsLeft)} credits remaining`}
            </p>
            {slotsUsedUp && <p className="inline-warning">{designMessages.slotsUsed}</p>}
            <div className="inline-form">
              <button type="button" className="button button-primary" onClick={generate} disabled={busy || slotsUsedUp}>
                {busy && <span className="spinner" aria-hidden="true" />}
                {previews.length ? "Regenerate" : "Generate"}
              </button>
              <CopyButton value={link} label="Share" className="button" />
            </div>
            {previews.length > 0 && (
              <ul className="preview-list" aria-label="Generated previews">
                {previews.map((p, i) => {
                  const isPlaying = playback.playing === p.generated_voice_id;
                  return (
                    <li key={p.generated_voice_id} className="preview-item" data-selected={selected === p.generated_voice_id || undefined} data-testid="design-preview">
                      <button type="button" className="icon-button" aria-label={`${isPlaying ? "Pause" : "Play"} preview ${i + 1}`} aria-pressed={isPlaying} onClick={() => { select(p); void playback.toggle(p.generated_voice_id, p.url); }}>
                        <Icon name={isPlaying ? "pause" : "play"} />
                      </button>
                      <label className="preview-pick">
                        <input type="radio" name="preview" checked={selected === p.generated_voice_id} onChange={() => select(p)} />
                        Preview {i + 1}
                        <span className="muted"> · {p.duration_secs.toFixed(1)} s{p.played ? " · played" : ""}</span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            )}
            <div className="dialog-actions">
              <button type="button" className="button button-primary" onClick={toSave} disabled={!selected || busy}>
                Next
              </button>
            </div>
          </section>
        </div>
      ) : (
        <form
          className="save-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <div className="field">
            <label htmlFor={ids.name}>Voice name</label>
            <input id={ids.name} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} aria-invalid={!!saveErrors.name || undefined} aria-describedby={saveErrors.name ? `${ids.name}-e` : undefined} />
            {saveErrors.name && (
              <p className="field-error" id={`${ids.name}-e`}>
                {saveErrors.name}
              </p>
            )}
          </div>
          <div className="field">
            <label htmlFor={ids.description}>Description</label>
            <textarea id={ids.description} rows={3} value={description} onChange={(e) => setDescription(e.target.value)} aria-invalid={!!saveErrors.description || undefined} />
            {saveErrors.description && <p className="field-error">{saveErrors.description}</p>}
          </div>
          <LabelsEditor labels={labels} onChange={setLabels} error={saveErrors.labels} />
          {reference.kind === "file" && (
            <label className="checkbox">
              <input id={ids.terms} type="checkbox" checked={agree} onChange={(e) => setAgree(e.target.checked)} /> I have the rights and consent to use the reference recording.
            </label>
          )}
          {saveErrors.terms && <p className="field-error">{saveErrors.terms}</p>}
          {saveErrors.form && <ErrorText message={saveErrors.form} />}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setStep("generate")}>
              Back
            </button>
            <button type="submit" className="button button-primary" disabled={busy}>
              Save voice
            </button>
          </div>
        </form>
      )}
    </CreationDialog>
  );
}

export { DEFAULT_FORM };
