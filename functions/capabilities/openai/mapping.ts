/**
 * How OpenAI's speech request maps onto Timbre's (issue 25 §4): models, voice names, response
 * formats, speed, instructions and Kokoro-style blends. Pure functions; the README beside this
 * file tables every mapping.
 */
import type { StoredVoiceProfile, StoredVoiceSettings, VoiceRecord } from "../../platform/stores/voices.js";
import { findModel, MODELS, type ModelInfo } from "../../platform/domain/models.js";
import { premadeVoiceId } from "../../platform/domain/premadeVoices.js";
import type { OutputFormatId } from "../../media/audio/formats.js";
import {
  OPENAI_MAX_BLEND_VOICES,
  OPENAI_MAX_BLEND_WEIGHT,
  type OpenAIResponseFormat,
} from "../../platform/contract/openai.js";

/** OpenAI's model names and the Timbre model each speaks with. Timbre's own ids are accepted too. */
export const OPENAI_MODELS: Record<string, string> = {
  "tts-1": "eleven_flash_v2_5",
  "tts-1-hd": "eleven_multilingual_v2",
  "gpt-4o-mini-tts": "eleven_multilingual_v2",
  "gpt-4o-mini-tts-2025-03-20": "eleven_multilingual_v2",
  "gpt-4o-mini-tts-2025-12-15": "eleven_multilingual_v2",
};

/** The model a request names, or undefined (OpenAI names first, then Timbre's text-to-speech ids). */
export function timbreModel(name: string): ModelInfo | undefined {
  const m = findModel(OPENAI_MODELS[name] ?? name);
  return m?.can_do_text_to_speech ? m : undefined;
}

/** Every model name /openai/v1 accepts: OpenAI's, then Timbre's text-to-speech models. */
export function acceptedModelNames(): string[] {
  return [...Object.keys(OPENAI_MODELS), ...MODELS.filter((m) => m.can_do_text_to_speech).map((m) => m.model_id)];
}

/** OpenAI's built-in voices and the premade voice each one speaks with (by name). */
export const OPENAI_VOICES: Record<string, string> = {
  alloy: "Riley",
  ash: "Marcus",
  ballad: "Desmond",
  coral: "Fiona",
  echo: "Oliver",
  fable: "Harriet",
  onyx: "Marcus",
  nova: "Avery",
  sage: "Harriet",
  shimmer: "Avery",
  verse: "Oliver",
  marin: "Avery",
  cedar: "Marcus",
};

/** The premade voice id an OpenAI voice name stands for, or undefined. */
export function openaiVoiceId(name: string): string | undefined {
  const premade = OPENAI_VOICES[name.toLowerCase()];
  return premade ? premadeVoiceId(premade) : undefined;
}

/**
 * OpenAI's response formats as Timbre output formats. `null`: Timbre has no encoder for it
 * (answered 400 with the supported list). `whole`: the file needs its length in its header, so
 * it is sent once complete rather than streamed.
 */
export const RESPONSE_FORMATS: Record<OpenAIResponseFormat, { id: OutputFormatId; whole: boolean; flac?: true } | null> = {
  mp3: { id: "mp3_44100_128", whole: false },
  opus: { id: "opus_48000_64", whole: false },
  aac: null,
  // Made whole as 24 kHz WAV, then encoded losslessly (functions/media/audio/flac.ts) off the loop.
  flac: { id: "wav_24000", whole: true, flac: true },
  wav: { id: "wav_24000", whole: true },
  // OpenAI's pcm: raw 24 kHz 16-bit little-endian mono, no header.
  pcm: { id: "pcm_24000", whole: false },
};

export const SUPPORTED_RESPONSE_FORMATS = (Object.keys(RESPONSE_FORMATS) as OpenAIResponseFormat[]).filter((f) => RESPONSE_FORMATS[f] !== null);

/** Timbre's voice speed range (the /v1 voice_settings.speed bounds); OpenAI's 0.25-4 is clamped onto it. */
export const TIMBRE_SPEED_MIN = 0.7;
export const TIMBRE_SPEED_MAX = 1.2;

export const clampSpeed = (s: number) => Math.min(TIMBRE_SPEED_MAX, Math.max(TIMBRE_SPEED_MIN, s));

/** What `instructions` changed, for the README's table and the tests. */
export interface Direction {
  /** Multiplies the requested speed before clamping. */
  speedFactor: number;
  settings: Partial<Pick<StoredVoiceSettings, "stability" | "style">>;
  profile: Partial<Pick<StoredVoiceProfile, "breathiness" | "levelDb">>;
  /** The words that took effect, in the order found. */
  applied: string[];
}

/** Word groups of `instructions` and what each does; within a group the last word mentioned wins. */
const DIRECTION_GROUPS: Array<{ group: string; words: Array<{ re: RegExp; apply: (d: Direction) => void }> }> = [
  {
    group: "pace",
    words: [
      { re: /\b(slow(ly|er)?|unhurried|leisurely)\b/gi, apply: (d) => void (d.speedFactor = 0.85) },
      { re: /\b(fast(er)?|quick(ly|er)?|rapid(ly)?|hurried(ly)?|brisk(ly)?)\b/gi, apply: (d) => void (d.speedFactor = 1.15) },
    ],
  },
  {
    group: "mood",
    words: [
      {
        re: /\b(cheerful(ly)?|happ(y|ily)|excited(ly)?|enthusiastic(ally)?|energetic(ally)?|upbeat|lively|expressive(ly)?|dramatic(ally)?|animated)\b/gi,
        apply: (d) => void (d.settings = { stability: 0.3, style: 0.6 }),
      },
      {
        re: /\b(calm(ly)?|sooth(ing|ingly)|gentle|gently|relaxed|monoton(e|ous)|flat|serious(ly)?|steady|steadily|neutral)\b/gi,
        apply: (d) => void (d.settings = { stability: 0.85, style: 0 }),
      },
    ],
  },
  {
    group: "voice",
    words: [{ re: /\b(whisper(s|ed|ing)?|hushed|breathy)\b/gi, apply: (d) => void (d.profile = { breathiness: 1, levelDb: -26 }) }],
  },
];

/**
 * Reads `instructions` for the directions the engine can follow (pace, mood, whispering) and
 * ignores the rest. Negations are not understood ("don't whisper" whispers).
 */
export function readInstructions(text: string | null | undefined): Direction {
  const d: Direction = { speedFactor: 1, settings: {}, profile: {}, applied: [] };
  if (!text) return d;
  for (const g of DIRECTION_GROUPS) {
    let last: { at: number; word: string; apply: (d: Direction) => void } | undefined;
    for (const w of g.words) {
      for (const m of text.matchAll(w.re)) if (!last || m.index! > last.at) last = { at: m.index!, word: m[0].toLowerCase(), apply: w.apply };
    }
    if (last) {
      last.apply(d);
      d.applied.push(last.word);
    }
  }
  return d;
}

/** One voice of a blend: its name or id as written, and its weight. */
export interface BlendTerm {
  ref: string;
  weight: number;
}

/**
 * A Kokoro-style blend, `a(2)+b(1)` or `a+b` (weight 1 when left out), or null when `voice` is not
 * written as one (no '+'). Throws "syntax" for a '+' expression that is malformed.
 */
export function parseBlend(voice: string): BlendTerm[] | null {
  if (!voice.includes("+")) return null;
  const parts = voice.split("+").map((p) => p.trim());
  if (parts.length > OPENAI_MAX_BLEND_VOICES) throw new Error("syntax");
  return parts.map((p) => {
    const m = /^([^()]+?)\s*(?:\(\s*(\d+(?:\.\d+)?)\s*\))?$/.exec(p);
    if (!m || !m[1].trim()) throw new Error("syntax");
    const weight = m[2] === undefined ? 1 : Number(m[2]);
    if (!(weight > 0) || weight > OPENAI_MAX_BLEND_WEIGHT) throw new Error("syntax");
    return { ref: m[1].trim(), weight };
  });
}

/**
 * Profile fields taken from the heaviest voice rather than shared: what describes a voice, and
 * the engine's base voice (Flite's slt, rms...), which cannot be averaged; the engine itself must
 * be the same for every voice of a blend.
 */
const DESCRIPTIVE = new Set(["accent", "gender", "age", "engineVoice"]);

/** A string field two voices must share to blend (their language, and any engine marker), or null. */
export function blendConflict(profiles: StoredVoiceProfile[]): { field: string; values: string[] } | null {
  const keys = new Set(profiles.flatMap((p) => Object.keys(p)));
  for (const k of keys) {
    if (DESCRIPTIVE.has(k)) continue;
    const values = profiles.map((p) => (p as unknown as Record<string, unknown>)[k]);
    if (!values.some((v) => typeof v === "string")) continue;
    const distinct = [...new Set(values.map((v) => String(v ?? "")))];
    if (distinct.length > 1) return { field: k, values: distinct };
  }
  return null;
}

/**
 * The weighted average of the voices' numeric profile fields (pitch, range, rate, timbre,
 * breathiness, roughness, level, the spectral envelope band by band when every voice has one of
 * the same length; the identity seed rounded). Everything else comes from the heaviest voice.
 * Callers check `blendConflict` first.
 */
export function blendProfiles(terms: Array<{ profile: StoredVoiceProfile; weight: number }>): StoredVoiceProfile {
  const total = terms.reduce((n, t) => n + t.weight, 0);
  const heaviest = terms.reduce((a, b) => (b.weight > a.weight ? b : a));
  const out: Record<string, unknown> = { ...heaviest.profile };
  const records = terms.map((t) => t.profile as unknown as Record<string, unknown>);
  const keys = new Set(records.flatMap((r) => Object.keys(r)));
  for (const k of keys) {
    const values = records.map((r) => r[k]);
    if (values.every((v) => typeof v === "number")) {
      const avg = terms.reduce((n, t, i) => n + (values[i] as number) * t.weight, 0) / total;
      out[k] = k === "seed" ? Math.round(avg) : Math.round(avg * 1e6) / 1e6;
    } else if (values.some((v) => typeof v === "number") && values.every((v) => v === undefined || typeof v === "number")) {
      // An optional field some voices leave out (breathiness, roughness, level): the absent count as 0,
      // except the level, whose absence means the engine's default.
      if (k === "levelDb") continue;
      const avg = terms.reduce((n, t, i) => n + ((values[i] as number | undefined) ?? 0) * t.weight, 0) / total;
      out[k] = Math.round(avg * 1e6) / 1e6;
    } else if (values.every((v) => Array.isArray(v) && v.length === (values[0] as unknown[]).length && v.every((x) => typeof x === "number"))) {
      const len = (values[0] as number[]).length;
      out[k] = Array.from({ length: len }, (_, b) => Math.round((terms.reduce((n, t, i) => n + (values[i] as number[])[b] * t.weight, 0) / total) * 1e6) / 1e6);
    } else if (values.some((v) => Array.isArray(v))) {
      delete out[k];
    }
  }
  return out as unknown as StoredVoiceProfile;
}

/** The name a blend goes by in the history: each voice's name and weight. */
export function blendName(terms: Array<{ voice: VoiceRecord; weight: number }>): string {
  return terms.map((t) => `${t.voice.name}(${t.weight})`).join("+");
}
