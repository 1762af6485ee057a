import { useId } from "react";
import { clampToSlider, DIALOGUE_STABILITY, resetAll, resetSlider, setSlider, settingsMessages, SLIDERS, sliderValue, type SliderId, type SliderSpec } from "./settings.js";
import type { VoiceSettings } from "./wire.js";

function Slider({ spec, value, onChange, onReset }: { spec: SliderSpec; value: number; onChange: (v: number) => void; onReset?: () => void }) {
  const id = useId();
  const warning = spec.warning?.(value) ?? null;
  const reset = onReset ?? (() => onChange(spec.defaultValue));
  return (
    <div className="slider">
      <div className="slider-head">
        {/* Double-clicking the label or the thumb resets the slider (app-shell.md §5). */}
        <label htmlFor={id} onDoubleClick={reset} title="Double-click to reset">
          {spec.label}
        </label>
        <output htmlFor={id} className="slider-value">
          {spec.format(value)}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={spec.min}
        max={spec.max}
        step={spec.step}
        value={value}
        aria-valuetext={spec.format(value)}
        aria-describedby={warning ? `${id}-warning` : undefined}
        onChange={(e) => onChange(clampToSlider(spec, Number(e.target.value)))}
        onDoubleClick={reset}
      />
      {warning && (
        <p className="slider-warning" id={`${id}-warning`} role="status">
          {warning}
        </p>
      )}
    </div>
  );
}

/**
 * Voice settings (app-shell.md §3, §5): speed, stability, similarity, style exaggeration and
 * speaker boost, the last two only when the model can use them; on Text to Speech also volume
 * (-30..+5 dB) and 'Remove background noise'. Dialogue shows stability in steps of 0.5,
 * similarity and volume, the settings the dialogue endpoint takes.
 */
export function VoiceSettingsPanel({ settings, onChange, dialogue, canUseStyle, canUseSpeakerBoost, showSpeed = true, showVolume = false, showNoiseRemoval = false }: {
  settings: VoiceSettings;
  onChange: (next: VoiceSettings) => void;
  dialogue: boolean;
  canUseStyle: boolean;
  canUseSpeakerBoost: boolean;
  /** The voice changer keeps the input's timing: no speed there. */
  showSpeed?: boolean;
  /** Text to Speech: volume (voice_settings.volume, per request there). */
  showVolume?: boolean;
  /** Text to Speech: the isolator over the generated audio. */
  showNoiseRemoval?: boolean;
}) {
  const boostId = useId();
  const noiseId = useId();
  const set = (key: keyof VoiceSettings) => (v: number | boolean) => onChange({ ...settings, [key]: v });
  const slider = (id: SliderId) => (
    <Slider spec={SLIDERS[id]} value={sliderValue(settings, id)} onChange={(v) => onChange(setSlider(settings, id, v))} onReset={() => onChange(resetSlider(settings, id))} />
  );
  if (dialogue) {
    return (
      <fieldset className="voice-settings">
        <legend>Voice settings</legend>
        <Slider spec={DIALOGUE_STABILITY} value={clampToSlider(DIALOGUE_STABILITY, settings.stability)} onChange={set("stability")} />
        <Slider spec={SLIDERS.similarity_boost} value={settings.similarity_boost} onChange={set("similarity_boost")} />
        {showVolume && slider("volume")}
      </fieldset>
    );
  }
  return (
    <fieldset className="voice-settings">
      <legend>Voice settings</legend>
      {showSpeed && <Slider spec={SLIDERS.speed} value={settings.speed} onChange={set("speed")} />}
      <Slider spec={SLIDERS.stability} value={settings.stability} onChange={set("stability")} />
      <Slider spec={SLIDERS.similarity_boost} value={settings.similarity_boost} onChange={set("similarity_boost")} />
      {canUseStyle && <Slider spec={SLIDERS.style} value={settings.style} onChange={set("style")} />}
      {showVolume && slider("volume")}
      {canUseSpeakerBoost && (
        <div className="toggle-row">
          <label htmlFor={boostId}>Speaker boost</label>
          <input id={boostId} type="checkbox" role="switch" className="switch" checked={settings.use_speaker_boost} onChange={(e) => set("use_speaker_boost")(e.target.checked)} />
        </div>
      )}
      {showNoiseRemoval && (
        <div className="toggle-row" title={settingsMessages.removeBackgroundNoiseHint}>
          <label htmlFor={noiseId}>{settingsMessages.removeBackgroundNoise}</label>
          <input
            id={noiseId}
            type="checkbox"
            role="switch"
            className="switch"
            checked={settings.remove_background_noise === true}
            aria-describedby={`${noiseId}-hint`}
            onChange={(e) => {
              const { remove_background_noise: _, ...rest } = settings;
              onChange(e.target.checked ? { ...rest, remove_background_noise: true } : rest);
            }}
          />
          <span id={`${noiseId}-hint`} hidden>
            {settingsMessages.removeBackgroundNoiseHint}
          </span>
        </div>
      )}
      <button type="button" className="button button-small" onClick={() => onChange(resetAll(settings))}>
        Reset values
      </button>
    </fieldset>
  );
}
