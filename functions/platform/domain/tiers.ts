/**
 * Subscription tiers: every limit the specs use, in one table. Figures follow the public
 * plans of the hosted services (credits per month, voice slots, concurrency), rounded.
 */
export const TIER_IDS = ["free", "starter", "creator", "pro", "scale", "business"] as const;
export type TierId = (typeof TIER_IDS)[number];

export const MP3_FORMATS_BASE = ["mp3_22050_32", "mp3_24000_48", "mp3_44100_32", "mp3_44100_64", "mp3_44100_96", "mp3_44100_128"] as const;
export const PCM_FORMATS_BASE = ["pcm_8000", "pcm_16000", "pcm_22050", "pcm_24000", "pcm_32000"] as const;
export const TELEPHONY_FORMATS = ["ulaw_8000", "alaw_8000"] as const;
export const OPUS_FORMATS = ["opus_48000_32", "opus_48000_64", "opus_48000_96", "opus_48000_128", "opus_48000_192"] as const;
export const WAV_FORMATS_BASE = ["wav_8000", "wav_16000", "wav_22050", "wav_24000", "wav_32000"] as const;
export const HIGH_QUALITY_FORMATS = ["mp3_44100_192"] as const;
export const STUDIO_FORMATS = ["pcm_44100", "pcm_48000", "wav_44100", "wav_48000"] as const;

export interface Tier {
  id: TierId;
  name: string;
  /** Credits (characters) per monthly period. */
  characterLimit: number;
  voiceLimit: number;
  professionalVoiceLimit: number;
  canUseInstantVoiceCloning: boolean;
  canUseProfessionalVoiceCloning: boolean;
  /**
   * Cloned voices skip the voice captcha (verification by reading a sentence): only plans from
   * Business up. Below it, a clone must be verified before it speaks (speech-generation.md §8).
   */
  bypassesVoiceCaptcha: boolean;
  /** Simultaneous generations before requests queue, then get 429. */
  concurrency: number;
  maxSeats: number;
  outputFormats: readonly string[];
  /** Free tier users are blocked at the quota; paid tiers may extend (usage-based billing). */
  canExtendCharacterLimit: boolean;
  priceUsdMonthly: number;
}

const base = [...MP3_FORMATS_BASE, ...PCM_FORMATS_BASE, ...TELEPHONY_FORMATS, ...OPUS_FORMATS, ...WAV_FORMATS_BASE];

export const TIERS: Record<TierId, Tier> = {
  free: {
    id: "free", name: "Free", characterLimit: 10_000, voiceLimit: 3, professionalVoiceLimit: 0,
    canUseInstantVoiceCloning: false, canUseProfessionalVoiceCloning: false, bypassesVoiceCaptcha: false, concurrency: 2, maxSeats: 1,
    outputFormats: base, canExtendCharacterLimit: false, priceUsdMonthly: 0,
  },
  starter: {
    id: "starter", name: "Starter", characterLimit: 30_000, voiceLimit: 10, professionalVoiceLimit: 0,
    canUseInstantVoiceCloning: true, canUseProfessionalVoiceCloning: false, bypassesVoiceCaptcha: false, concurrency: 3, maxSeats: 1,
    outputFormats: base, canExtendCharacterLimit: false, priceUsdMonthly: 5,
  },
  creator: {
    id: "creator", name: "Creator", characterLimit: 100_000, voiceLimit: 30, professionalVoiceLimit: 1,
    canUseInstantVoiceCloning: true, canUseProfessionalVoiceCloning: true, bypassesVoiceCaptcha: false, concurrency: 5, maxSeats: 1,
    outputFormats: [...base, ...HIGH_QUALITY_FORMATS], canExtendCharacterLimit: true, priceUsdMonthly: 22,
  },
  pro: {
    id: "pro", name: "Pro", characterLimit: 500_000, voiceLimit: 160, professionalVoiceLimit: 1,
    canUseInstantVoiceCloning: true, canUseProfessionalVoiceCloning: true, bypassesVoiceCaptcha: false, concurrency: 10, maxSeats: 1,
    outputFormats: [...base, ...HIGH_QUALITY_FORMATS, ...STUDIO_FORMATS], canExtendCharacterLimit: true, priceUsdMonthly: 99,
  },
  scale: {
    id: "scale", name: "Scale", characterLimit: 2_000_000, voiceLimit: 660, professionalVoiceLimit: 1,
    canUseInstantVoiceCloning: true, canUseProfessionalVoiceCloning: true, bypassesVoiceCaptcha: false, concurrency: 15, maxSeats: 3,
    outputFormats: [...base, ...HIGH_QUALITY_FORMATS, ...STUDIO_FORMATS], canExtendCharacterLimit: true, priceUsdMonthly: 330,
  },
  business: {
    id: "business", name: "Business", characterLimit: 11_000_000, voiceLimit: 660, professionalVoiceLimit: 3,
    canUseInstantVoiceCloning: true, canUseProfessionalVoiceCloning: true, bypassesVoiceCaptcha: true, concurrency: 15, maxSeats: 5,
    outputFormats: [...base, ...HIGH_QUALITY_FORMATS, ...STUDIO_FORMATS], canExtendCharacterLimit: true, priceUsdMonthly: 1320,
  },
};

export function isTierId(v: string): v is TierId {
  return (TIER_IDS as readonly string[]).includes(v);
}

export function tier(id: string): Tier {
  if (!isTierId(id)) throw new Error(`unknown tier ${id}`);
  return TIERS[id];
}

/** The least tier that allows an output format, for the error message. */
export function minimumTierFor(format: string): Tier | undefined {
  return TIER_IDS.map((t) => TIERS[t]).find((t) => t.outputFormats.includes(format));
}
