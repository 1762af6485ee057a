/**
 * From what a prompt asks (./prompt.ts) to the three preview voices: engine profiles that follow
 * the prompt as strictly as guidance_scale says, differ from each other by seeded variation, and
 * blend in a reference voice by prompt_strength. Deterministic: the same prompt, settings and
 * seed give the same three profiles.
 */
import type { VoiceProfile, VoiceSettings } from "../../media/engine/port.js";
import { DEFAULT_VOICE_SETTINGS } from "../../media/engine/port.js";
import { hashSeed, prng, signed } from "../../media/engine/prng.js";
import { resolveLanguage } from "../../media/engine/espeak/voices.js";
import { DESIGN_DEFAULTS, GUIDANCE_MAX, GUIDANCE_MIN, PREVIEWS_PER_DESIGN } from "../../platform/contract/voiceCreation.js";
import type { Age, Gender, PromptTraits } from "./prompt.js";

export interface DesignOptions {
  seed: number;
  /** 2..10 in the UI; the API accepts 0..100 and clamps. */
  guidanceScale: number;
  /** -1..1: higher is steadier speech and less variety between previews. */
  quality: number;
  /** -1..1: 0 is about -24 LUFS. */
  loudness: number;
  /** A reference voice (analysed upload or recording, or one of the caller's voices). */
  reference?: VoiceProfile | null;
  /** 0: almost only the reference; 1: almost only the prompt. */
  promptStrength: number;
}

export interface DesignedVoice {
  profile: VoiceProfile;
  /** The settings the voice is previewed with and saved with. */
  settings: VoiceSettings;
  labels: Record<string, string>;
}

const clamp = (x: number, lo: number, hi: number) => (Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : lo);
const RATE_BY_AGE: Record<Age, number> = { young: 178, middle_aged: 168, old: 150 };

/** How strongly the prompt's traits apply and how much the previews vary, from guidance and quality. */
export function strictness(guidanceScale: number, quality: number): { strength: number; variety: number } {
  const g = clamp((clamp(guidanceScale, 0, 100) - GUIDANCE_MIN) / (GUIDANCE_MAX - GUIDANCE_MIN), 0, 1);
  const q = (clamp(quality, -1, 1) + 1) / 2;
  return { strength: 0.6 + 0.4 * g, variety: (0.2 + 0.8 * (1 - g)) * (1 - 0.3 * q) };
}

/** LUFS the loudness slider asks for: -1 quietest (-36), 0 about -24, 1 loudest (-12). The engine's -18 dBFS RMS measures -18.3 LUFS. */
export function levelForLoudness(loudness: number): number {
  const lufs = -24 + 12 * clamp(loudness, -1, 1);
  return Math.round((lufs + 0.3) * 10) / 10;
}

/** Three distinct values in roughly -1..1: one low, one middle, one high, in a seeded order. */
function spread(rand: () => number): number[] {
  const order = [-1, 0, 1];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.map((o) => o + 0.25 * signed(rand));
}

function genderFor(traits: PromptTraits, k: number, seed: number): Gender {
  if (traits.gender) return traits.gender;
  // No gender named: a clearly low or high voice decides; otherwise the previews offer both.
  if (traits.pitch <= -0.45) return "male";
  if (traits.pitch >= 0.45) return "female";
  return (k + seed) % 2 === 0 ? "female" : "male";
}

export function designProfiles(traits: PromptTraits, opts: DesignOptions): DesignedVoice[] {
  const { strength, variety } = strictness(opts.guidanceScale, opts.quality);
  const rand = prng(hashSeed("voice-design", opts.seed, traits.language, traits.pitch, traits.pace, traits.timbre));
  const [pitchOff, rateOff, timbreOff, rangeOff] = [spread(rand), spread(rand), spread(rand), spread(rand)];
  const lang = resolveLanguage(traits.language, traits.accent ?? undefined);
  const q = clamp(opts.quality, -1, 1);
  const settings: VoiceSettings = { ...DEFAULT_VOICE_SETTINGS, stability: Math.round((0.5 + 0.25 * q) * 100) / 100 };
  const level = levelForLoudness(opts.loudness + 0.25 * traits.loud);
  const ref = opts.reference ?? null;
  const s = ref ? clamp(opts.promptStrength, 0, 1) : 1;
  // A prompt that names nothing leaves the voice to the reference (or to the defaults).
  const mix = (fromPrompt: number, fromRef: number | undefined) => (ref && fromRef !== undefined ? s * fromPrompt + (1 - s) * fromRef : fromPrompt);

  return Array.from({ length: PREVIEWS_PER_DESIGN }, (_, k) => {
    const own = prng(hashSeed("voice-design-preview", opts.seed, k));
    const promptGender = genderFor(traits, k, opts.seed);
    const gender: Gender = ref && (s < 0.5 || !traits.gender) ? ref.gender : promptGender;
    const promptAge: Age = traits.age ?? "middle_aged";
    const age: Age = ref && (s < 0.5 || !traits.age) ? ref.age : promptAge;
    const pitch = mix(50 + 28 * strength * traits.pitch, ref?.pitch) + 12 * variety * pitchOff[k];
    const rate = mix(RATE_BY_AGE[age] * (1 + 0.3 * strength * traits.pace), ref?.rate) * (1 + 0.06 * variety * rateOff[k]);
    const range = mix(50 + 35 * strength * traits.energy, ref?.pitchRange) + 10 * variety * rangeOff[k];
    const timbre = mix(0.8 * strength * traits.timbre, ref?.timbre) + 0.3 * variety * timbreOff[k];
    const breath = mix(0.6 * strength * traits.breath, ref?.breathiness ?? 0) + 0.05 * variety * own();
    const rough = mix(0.45 * strength * traits.rough, ref?.roughness ?? 0);
    const profile: VoiceProfile = {
      language: ref && !traits.matched ? ref.language : lang.language.id,
      accent: ref && !traits.matched ? ref.accent : lang.accent,
      gender,
      age,
      pitch: Math.round(clamp(pitch, 2, 97)),
      pitchRange: Math.round(clamp(range, 5, 100)),
      rate: Math.round(clamp(rate, 95, 320)),
      timbre: Math.round(clamp(timbre, -1, 1) * 100) / 100,
      breathiness: Math.round(clamp(breath, 0, 0.7) * 100) / 100,
      roughness: Math.round(clamp(rough, 0, 0.6) * 100) / 100,
      levelDb: level,
      ...qualityOf(traits, strength * s),
      seed: hashSeed("design-voice", opts.seed, k),
    };
    if (ref?.envelope?.length) profile.envelope = ref.envelope.map((g) => Math.round(g * (1 - s) * 10) / 10);
    const labels: Record<string, string> = { language: profile.language, accent: profile.accent ?? lang.accent, gender, age };
    if (traits.descriptives.length) labels.descriptive = traits.descriptives[0];
    return { profile, settings, labels };
  });
}

const QUALITY_KEYS = ["breath", "rough", "nasal", "soft"] as const;
const round2 = (v: number) => Math.round(clamp(v, 0, 1) * 100) / 100;

/**
 * The quality words' shaping after synthesis (engine VoiceProfile.quality: breath noise, rough
 * phonation, nasality, softness), at the prompt's strength; absent when the words name none.
 */
function qualityOf(traits: PromptTraits, strength: number): Pick<VoiceProfile, "quality"> {
  const q: NonNullable<VoiceProfile["quality"]> = {};
  for (const k of QUALITY_KEYS) if (traits[k] * strength >= 0.01) q[k] = round2(traits[k] * strength);
  return Object.keys(q).length ? { quality: q } : {};
}

/** A remix adds the description's quality words to the voice's own. */
function remixQuality(source: VoiceProfile["quality"], traits: PromptTraits, strength: number): Pick<VoiceProfile, "quality"> {
  const q: NonNullable<VoiceProfile["quality"]> = { ...source };
  for (const k of QUALITY_KEYS) {
    const v = (source?.[k] ?? 0) + traits[k] * strength;
    if (v >= 0.01) q[k] = round2(v);
  }
  return Object.keys(q).length ? { quality: q } : {};
}

export const DEFAULT_DESIGN_OPTIONS = {
  guidanceScale: DESIGN_DEFAULTS.guidanceScale,
  quality: DESIGN_DEFAULTS.quality,
  loudness: DESIGN_DEFAULTS.loudness,
  promptStrength: DESIGN_DEFAULTS.promptStrength,
};

/**
 * Remix: the description says what to change in an existing voice ("deeper and slower"), so its
 * traits move the voice's own profile instead of replacing it; the voice keeps its identity
 * (seed, envelope) unless the description names another gender, age or language.
 */
export function remixProfiles(source: VoiceProfile, traits: PromptTraits, opts: Omit<DesignOptions, "reference">): DesignedVoice[] {
  const { strength: g, variety } = strictness(opts.guidanceScale, opts.quality);
  const strength = g * clamp(opts.promptStrength, 0, 1);
  const rand = prng(hashSeed("voice-remix", opts.seed, source.seed));
  const [pitchOff, rateOff, timbreOff] = [spread(rand), spread(rand), spread(rand)];
  const named = traits.language !== traits.promptLanguage || traits.accent !== null;
  const lang = named ? resolveLanguage(traits.language, traits.accent ?? undefined) : resolveLanguage(source.language, source.accent);
  const settings: VoiceSettings = { ...DEFAULT_VOICE_SETTINGS };
  return Array.from({ length: PREVIEWS_PER_DESIGN }, (_, k) => {
    const profile: VoiceProfile = {
      ...source,
      language: lang.language.id,
      accent: lang.accent,
      gender: traits.gender ?? source.gender,
      age: traits.age ?? source.age,
      pitch: Math.round(clamp(source.pitch + 28 * strength * traits.pitch + 8 * variety * pitchOff[k], 2, 97)),
      pitchRange: Math.round(clamp(source.pitchRange + 35 * strength * traits.energy, 5, 100)),
      rate: Math.round(clamp(source.rate * (1 + 0.3 * strength * traits.pace) * (1 + 0.04 * variety * rateOff[k]), 95, 320)),
      timbre: Math.round(clamp(source.timbre + 0.8 * strength * traits.timbre + 0.2 * variety * timbreOff[k], -1, 1) * 100) / 100,
      breathiness: Math.round(clamp((source.breathiness ?? 0) + 0.6 * strength * traits.breath, 0, 0.7) * 100) / 100,
      roughness: Math.round(clamp((source.roughness ?? 0) + 0.45 * strength * traits.rough, 0, 0.6) * 100) / 100,
      levelDb: source.levelDb === undefined && opts.loudness === DESIGN_DEFAULTS.loudness ? source.levelDb : levelForLoudness(opts.loudness + 0.25 * traits.loud),
      ...remixQuality(source.quality, traits, strength),
    };
    const labels: Record<string, string> = { language: profile.language, accent: profile.accent ?? lang.accent, gender: profile.gender, age: profile.age };
    if (traits.descriptives.length) labels.descriptive = traits.descriptives[0];
    return { profile, settings, labels };
  });
}
