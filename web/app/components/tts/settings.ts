import { DEFAULT_VOICE_SETTINGS, VOLUME_DB_MAX, VOLUME_DB_MIN } from "../../../../functions/platform/domain/voiceSettings.js";
import { dialogueStability } from "./dialogue.js";
import type { VoiceSettings } from "./wire.js";

/** Voice settings sliders (app-shell.md §5): ranges, steps, defaults and warnings. */
export type SliderId = "speed" | "stability" | "similarity_boost" | "style" | "volume";

export interface SliderSpec {
  id: SliderId;
  label: string;
  min: number;
  max: number;
  step: number;
  defaultValue: number;
  /** The warning for a value, if any. */
  warning?: (value: number) => string | null;
  format: (value: number) => string;
}

export const settingsMessages = {
  lowStability: "Under 30% may lead to instability",
  highStyle: "Over 50% may lead to instability",
  /** The switch's label (app-shell.md §3) and what it does here, said in its tooltip. */
  removeBackgroundNoise: "Remove background noise",
  removeBackgroundNoiseHint:
    "Runs the voice isolator over the generated speech: breath and hiss between words are removed. The audio starts once the whole text is generated.",
} as const;

const percent = (v: number) => `${Math.round(v * 100)}%`;

export const SLIDERS: Record<SliderId, SliderSpec> = {
  speed: { id: "speed", label: "Speed", min: 0.7, max: 1.2, step: 0.01, defaultValue: DEFAULT_VOICE_SETTINGS.speed, format: (v) => `${v.toFixed(2)}x` },
  stability: {
    id: "stability", label: "Stability", min: 0, max: 1, step: 0.01, defaultValue: DEFAULT_VOICE_SETTINGS.stability, format: percent,
    warning: (v) => (v < 0.3 ? settingsMessages.lowStability : null),
  },
  similarity_boost: { id: "similarity_boost", label: "Similarity", min: 0, max: 1, step: 0.01, defaultValue: DEFAULT_VOICE_SETTINGS.similarity_boost, format: percent },
  style: {
    id: "style", label: "Style Exaggeration", min: 0, max: 1, step: 0.01, defaultValue: DEFAULT_VOICE_SETTINGS.style, format: percent,
    warning: (v) => (v > 0.5 ? settingsMessages.highStyle : null),
  },
  volume: {
    id: "volume", label: "Volume", min: VOLUME_DB_MIN, max: VOLUME_DB_MAX, step: 1, defaultValue: 0,
    format: (v) => (v > 0 ? `+${v} dB` : `${v} dB`),
  },
};

/** A slider's current value (volume is absent when 0). */
export function sliderValue(settings: VoiceSettings, id: SliderId): number {
  return id === "volume" ? (settings.volume ?? 0) : settings[id];
}

/** What double-clicking a slider's thumb or label does: that slider back to its default, the rest kept. */
export function resetSlider(settings: VoiceSettings, id: SliderId): VoiceSettings {
  return setSlider(settings, id, SLIDERS[id].defaultValue);
}

export function setSlider(settings: VoiceSettings, id: SliderId, value: number): VoiceSettings {
  if (id !== "volume") return { ...settings, [id]: value };
  const { volume: _, ...rest } = settings;
  return value === 0 ? rest : { ...rest, volume: value };
}

/** 'Reset values': every slider and switch to its default. */
export function resetAll(settings: VoiceSettings): VoiceSettings {
  const { volume: _v, remove_background_noise: _n, ...rest } = settings;
  return {
    ...rest,
    speed: SLIDERS.speed.defaultValue,
    stability: SLIDERS.stability.defaultValue,
    similarity_boost: SLIDERS.similarity_boost.defaultValue,
    style: SLIDERS.style.defaultValue,
    use_speaker_boost: true,
  };
}

/**
 * The voice_settings of a Text to Speech request: what the model can use; volume only when it is
 * not 0 dB and remove_background_noise only when on (the server's defaults otherwise).
 */
export function ttsVoiceSettings(settings: VoiceSettings, model: { can_use_style: boolean; can_use_speaker_boost: boolean }): Record<string, number | boolean> {
  const out: Record<string, number | boolean> = { stability: settings.stability, similarity_boost: settings.similarity_boost, speed: settings.speed };
  if (model.can_use_style) out.style = settings.style;
  if (model.can_use_speaker_boost) out.use_speaker_boost = settings.use_speaker_boost;
  if (settings.volume) out.volume = settings.volume;
  if (settings.remove_background_noise) out.remove_background_noise = true;
  return out;
}

/** Dialogue stability: three stops (0, 0.5, 1), named as the v3 model's modes. */
export const DIALOGUE_STABILITY: SliderSpec = {
  id: "stability", label: "Stability", min: 0, max: 1, step: 0.5, defaultValue: DEFAULT_VOICE_SETTINGS.stability,
  format: (v) => ({ 0: "Creative", 0.5: "Natural", 1: "Robust" })[dialogueStability(v)] ?? percent(v),
};

export { DEFAULT_VOICE_SETTINGS };

/** A slider value kept inside its range and on its step (floating point tidied). */
export function clampToSlider(spec: Pick<SliderSpec, "min" | "max" | "step">, value: number): number {
  if (!Number.isFinite(value)) return spec.min;
  const stepped = Math.round((value - spec.min) / spec.step) * spec.step + spec.min;
  return Number(Math.min(spec.max, Math.max(spec.min, stepped)).toFixed(4));
}

/**
 * Picking another voice loads its settings; the page's volume and noise removal stay as they were
 * (a voice's stored volume, when it has one and the page has none, applies).
 */
export function keepPerRequest(current: VoiceSettings, voice: VoiceSettings): VoiceSettings {
  const { volume, remove_background_noise, ...rest } = voice;
  const v = current.volume ?? volume;
  return { ...rest, ...(v ? { volume: v } : {}), ...(current.remove_background_noise ? { remove_background_noise: true } : {}) };
}
