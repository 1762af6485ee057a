import { DEFAULT_VOICE_SETTINGS } from "../../../../functions/platform/domain/voiceSettings.js";
import { dialogueStability } from "./dialogue.js";

/** Voice settings sliders (app-shell.md §5): ranges, steps, defaults and warnings. */
export type SliderId = "speed" | "stability" | "similarity_boost" | "style";

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
};

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
