/**
 * The Voice Design form outside React: its defaults, the share link that carries prompt,
 * previewText, seed, loudness, quality and guidanceScale (voice-creation.md §2.2) and restores
 * them, the sliders' ranges and how they are shown (§5), and the request the form becomes.
 */
import {
  AUTO_SEED_BELOW,
  DESIGN_DEFAULTS,
  GUIDANCE_MAX,
  GUIDANCE_MIN,
  PROMPT_MAX,
  PROMPT_MIN,
  SEED_MAX,
  designMessages,
  type VoiceDesignModel,
} from "../../../../functions/platform/contract/voiceCreation.js";

export interface DesignForm {
  voiceDescription: string;
  previewText: string;
  /** Empty: a random seed below 1,000,000 at generation. */
  seed: string;
  loudness: number;
  quality: number;
  guidanceScale: number;
  promptStrength: number;
  model: VoiceDesignModel;
}

export const DEFAULT_FORM: DesignForm = {
  voiceDescription: "",
  previewText: "",
  seed: "",
  loudness: DESIGN_DEFAULTS.loudness,
  quality: DESIGN_DEFAULTS.quality,
  guidanceScale: DESIGN_DEFAULTS.guidanceScale,
  promptStrength: DESIGN_DEFAULTS.promptStrength,
  model: "eleven_ttv_v3",
};

const num = (v: string | null, lo: number, hi: number): number | undefined => {
  if (v === null || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : undefined;
};

/** The form a shared link (or the voice-design link of speech-generation.md §2) starts from. */
export function formFromParams(params: URLSearchParams, base: DesignForm = DEFAULT_FORM): DesignForm {
  const seed = params.get("seed");
  return {
    ...base,
    voiceDescription: params.get("prompt")?.slice(0, PROMPT_MAX * 2) ?? base.voiceDescription,
    previewText: params.get("previewText")?.slice(0, 4000) ?? base.previewText,
    seed: seed !== null && /^\d{1,10}$/.test(seed) && Number(seed) <= SEED_MAX ? seed : base.seed,
    loudness: num(params.get("loudness"), -1, 1) ?? base.loudness,
    quality: num(params.get("quality"), -1, 1) ?? base.quality,
    guidanceScale: num(params.get("guidanceScale"), GUIDANCE_MIN, GUIDANCE_MAX) ?? base.guidanceScale,
  };
}

/** The link the share action copies: this page with the dialog open and the current settings. */
export function shareLink(origin: string, pathname: string, form: DesignForm): string {
  const p = new URLSearchParams({ creationType: "voiceDesign", mode: "create" });
  if (form.voiceDescription) p.set("prompt", form.voiceDescription);
  if (form.previewText) p.set("previewText", form.previewText);
  if (form.seed) p.set("seed", form.seed);
  p.set("loudness", String(form.loudness));
  p.set("quality", String(form.quality));
  p.set("guidanceScale", String(form.guidanceScale));
  return `${origin}${pathname}?${p}`;
}

export interface SliderSpec {
  key: "loudness" | "quality" | "guidanceScale" | "promptStrength";
  label: string;
  min: number;
  max: number;
  step: number;
  /** The input's position for a value (prompt strength is shown inverted). */
  toInput(v: number): number;
  fromInput(x: number): number;
  display(v: number): string;
  hint: string;
}

const pct = (x: number) => `${Math.round(x)}%`;
const same = (v: number) => v;

export const DESIGN_SLIDERS: Record<SliderSpec["key"], SliderSpec> = {
  // -1..1 shown as 0..100%.
  loudness: { key: "loudness", label: "Loudness", min: -1, max: 1, step: 0.01, toInput: same, fromInput: same, display: (v) => pct(((v + 1) / 2) * 100), hint: "How loud the voice is" },
  // -1..1 in steps of 0.01.
  quality: { key: "quality", label: "Quality", min: -1, max: 1, step: 0.01, toInput: same, fromInput: same, display: (v) => v.toFixed(2), hint: "Higher quality, less variety" },
  // 2..10 shown as 0..100%.
  guidanceScale: {
    key: "guidanceScale",
    label: "Guidance scale",
    min: GUIDANCE_MIN,
    max: GUIDANCE_MAX,
    step: 0.1,
    toInput: same,
    fromInput: same,
    display: (v) => pct(((v - GUIDANCE_MIN) / (GUIDANCE_MAX - GUIDANCE_MIN)) * 100),
    hint: "How closely the voice follows the prompt",
  },
  // 0..1 in steps of 0.01, shown inverted: the slider moves towards the reference voice.
  promptStrength: {
    key: "promptStrength",
    label: "Prompt strength",
    min: 0,
    max: 1,
    step: 0.01,
    toInput: (v) => Math.round((1 - v) * 100) / 100,
    fromInput: (x) => Math.round((1 - x) * 100) / 100,
    display: (v) => `${pct((1 - v) * 100)} reference`,
    hint: "Left follows the prompt, right the reference voice",
  },
};

export interface DesignErrors {
  voiceDescription?: string;
  previewText?: string;
  seed?: string;
}

/** The spec's checks on the form, with its messages. */
export function checkForm(form: DesignForm, limits: { min: number; max: number }, autoText: boolean): DesignErrors {
  const e: DesignErrors = {};
  const prompt = form.voiceDescription.trim();
  if (!prompt) e.voiceDescription = designMessages.promptRequired;
  else if (prompt.length < PROMPT_MIN) e.voiceDescription = designMessages.promptTooShort;
  else if (prompt.length >= PROMPT_MAX) e.voiceDescription = designMessages.promptTooLong;
  const text = form.previewText.trim();
  if (!autoText) {
    if (!text) e.previewText = designMessages.previewTextRequired;
    else if ([...text].length < limits.min || [...text].length > limits.max) e.previewText = designMessages.previewTextRange(limits.min, limits.max);
  }
  if (form.seed && !(/^\d{1,10}$/.test(form.seed) && Number(form.seed) <= SEED_MAX)) e.seed = `Seed must be a whole number from 0 to ${SEED_MAX}`;
  return e;
}

/** The counter is red outside the allowed range (voice-creation.md §2.2). */
export function counterState(text: string, limits: { min: number; max: number }): { count: number; outOfRange: boolean } {
  const count = [...text.trim()].length;
  return { count, outOfRange: count < limits.min || count > limits.max };
}

/** An empty seed becomes a random one below 1,000,000 (voice-creation.md §9). */
export function seedFor(form: DesignForm, random: () => number = Math.random): number {
  return form.seed ? Number(form.seed) : Math.floor(random() * AUTO_SEED_BELOW);
}
