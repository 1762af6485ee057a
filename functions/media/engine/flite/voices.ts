/**
 * Flite's built-in voices and how a VoiceProfile plus voice_settings become flite's arguments and
 * our DSP. Flite has knobs for the mean and spread of its F0 target (`int_f0_target_mean`,
 * `int_f0_target_stddev`) and for duration (`duration_stretch`); timbre, speaker boost, the
 * envelope and level are the eSpeak engine's DSP stage (../espeak/dsp.ts) run on flite's output.
 */
import type { VoiceProfile, VoiceSettings } from "../port.js";
import type { DspParams } from "../espeak/dsp.js";
import { qualityFor } from "../espeak/quality.js";
import { hashSeed, prng, signed } from "../prng.js";

export type FliteVoiceName = "slt" | "rms" | "awb" | "kal16";

export interface FliteVoice {
  name: FliteVoiceName;
  description: string;
  gender: "male" | "female";
  accent: "american" | "scottish";
  /** Median F0 of the voice's own output, Hz (measured on its reading of two sentences). */
  f0: number;
}

/** The CMU ARCTIC / CMU Kal voices built into the WASI module (kal, 8 kHz, is left out: kal16 is the same voice at 16 kHz). */
export const FLITE_VOICES: Record<FliteVoiceName, FliteVoice> = {
  slt: { name: "slt", description: "CMU ARCTIC slt, US English female (clustergen)", gender: "female", accent: "american", f0: 168 },
  rms: { name: "rms", description: "CMU ARCTIC rms, US English male (clustergen)", gender: "male", accent: "american", f0: 103 },
  awb: { name: "awb", description: "CMU ARCTIC awb, Scottish English male (clustergen)", gender: "male", accent: "scottish", f0: 125 },
  kal16: { name: "kal16", description: "CMU Kal, US English male (diphone, 16 kHz)", gender: "male", accent: "american", f0: 92 },
};

export function isFliteVoice(name: unknown): name is FliteVoiceName {
  return typeof name === "string" && Object.hasOwn(FLITE_VOICES, name);
}

/** The base a profile speaks with: its own `engineVoice` when flite has it, else by gender and accent. */
export function fliteVoiceFor(profile: VoiceProfile): FliteVoice {
  if (isFliteVoice(profile.engineVoice)) return FLITE_VOICES[profile.engineVoice];
  if (profile.engineVoice !== undefined) throw new Error(`flite has no voice "${String(profile.engineVoice)}" (it has ${Object.keys(FLITE_VOICES).join(", ")})`);
  if (profile.accent === "scottish") return FLITE_VOICES.awb;
  return profile.gender === "female" ? FLITE_VOICES.slt : FLITE_VOICES.rms;
}

/** flite's own speaking rate in words per minute at duration_stretch 1 (about the same for the four voices). */
export const FLITE_NATIVE_WPM = 175;
/** Semitones per profile pitch unit away from 50: the 0..100 scale spans ±8 semitones. */
const SEMITONES_PER_UNIT = 0.16;
/** F0 standard deviation as a fraction of the mean at pitchRange 50 and style 0. */
const F0_SPREAD = 0.12;
/**
 * Seeded per-chunk variation at stability 0 (scaled by 1 - stability, as the eSpeak engine's
 * per-sentence pitch centre is): F0 mean ±1.2 semitones, F0 spread ±20%, duration ±5%. At the
 * default stability (0.5) that is ±0.6 semitone and ±2.5% duration: small, but two seeds differ.
 */
const SEED_F0_SEMITONES = 1.2;
const SEED_SPREAD = 0.2;
const SEED_STRETCH = 0.05;

export interface FlitePlan {
  args: string[];
  dsp: DspParams;
  voice: FliteVoice;
  /** duration_stretch given to flite. */
  stretch: number;
  /** F0 target mean, Hz. */
  f0: number;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const fixed = (x: number) => x.toFixed(4);

/**
 * The arguments of one chunk's run (text last: `-t TEXT`), and the DSP after it. `seed` is the
 * request's and `index` the chunk's: same request, same arguments; another seed, other prosody.
 */
export function planFlite(text: string, profile: VoiceProfile, settings: VoiceSettings, seed = 0, index = 0): FlitePlan {
  const voice = fliteVoiceFor(profile);
  const rand = prng(hashSeed("flite-prosody", seed, index));
  const instability = 1 - clamp(settings.stability, 0, 1);
  const semitones = (clamp(profile.pitch, 0, 100) - 50) * SEMITONES_PER_UNIT + SEED_F0_SEMITONES * instability * signed(rand);
  const f0 = voice.f0 * 2 ** (semitones / 12);
  const spread = F0_SPREAD * (clamp(profile.pitchRange, 0, 100) / 50) * (1 + clamp(settings.style, 0, 1)) * (1 + SEED_SPREAD * instability * signed(rand));
  const rate = clamp(profile.rate, 80, 450) * clamp(settings.speed, 0.5, 2);
  const stretch = clamp((FLITE_NATIVE_WPM / rate) * (1 + SEED_STRETCH * instability * signed(rand)), 0.4, 2.5);
  const similarity = clamp(settings.similarity_boost, 0, 1);
  const dsp: DspParams = {
    // The same tilt as the eSpeak engine's DSP: ±4 dB above 2 kHz, scaled by similarity.
    tiltDb: 4 * clamp(profile.timbre, -1, 1) * (0.3 + 0.9 * similarity),
    speakerBoost: settings.use_speaker_boost,
    targetRmsDb: profile.levelDb ?? -18,
    envelopeDb: profile.envelope,
    quality: qualityFor(profile, seed, index),
  };
  const args = [
    "-voice", voice.name,
    "--setf", `int_f0_target_mean=${fixed(f0)}`,
    "--setf", `int_f0_target_stddev=${fixed(f0 * spread)}`,
    "--setf", `duration_stretch=${fixed(stretch)}`,
    "-psdur",
    "-o", "/out.wav",
    "-t", text,
  ];
  return { args, dsp, voice, stretch, f0 };
}
