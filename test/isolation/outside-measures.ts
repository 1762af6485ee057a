import { decodeWav } from "../../functions/media/audio/wav.js";
import { babble, isolateAt, mix, noise, snrDb } from "../../functions/media/audio/denoise/measure.js";
import type { FrameDenoiser } from "../../functions/media/audio/denoise/rnnoise-fast.js";
import { OUTSIDE_VOICES, outsideSpeech, outsideVoiceAvailable, type OutsideVoice } from "../support/outside-speech.js";
import { SPEAKER_TEXTS } from "../voice-verification/outside-texts.js";

/**
 * The voice isolator measured on speech Timbre's engine did not make (issue 26): an outside voice
 * (test/support/outside-speech.ts, 16 kHz) reads its language's first enrolment passage; white or
 * pink noise (measure.ts, seeded) or babble is mixed in at 5 dB SNR; the isolator runs as the API
 * runs it (up to 48 kHz and back); the figure is the SNR against the clean speech, sample for sample,
 * minus the input's: every bit of speech the filter removes counts as noise.
 *
 * Babble: four other outside voices (never the same speaker: flite's and Festival's slt and kal are
 * one speaker each) reading the other enrolment passage of their language, summed at equal level
 * (measure.ts `babble`, each talker starting at another point so their pauses do not line up).
 */
export type OutsideNoise = "white" | "pink" | "babble";

const RATE = 16_000;
const SPEAKER: Record<string, string> = { "flite-slt": "slt", "fest-slt-hts": "slt", "flite-kal": "kal", "fest-kal": "kal" };
const speaker = (v: OutsideVoice) => SPEAKER[v.id] ?? v.id;

const pcm = (wav: Buffer) => decodeWav(new Uint8Array(wav)).pcm;

export async function cleanSpeech(v: OutsideVoice): Promise<Float32Array> {
  return pcm(await outsideSpeech(v, SPEAKER_TEXTS[v.language].enrol[0]));
}

/** The four babble talkers for `v`: the next available voices in the pool's order, other speakers. */
export function babbleTalkers(v: OutsideVoice): OutsideVoice[] {
  const pool = OUTSIDE_VOICES.filter(outsideVoiceAvailable);
  const at = pool.findIndex((x) => x.id === v.id);
  const out: OutsideVoice[] = [];
  for (let i = 1; i < pool.length && out.length < 4; i++) {
    const t = pool[(at + i) % pool.length];
    if (speaker(t) !== speaker(v)) out.push(t);
  }
  return out;
}

export async function babbleFor(v: OutsideVoice, n: number): Promise<Float32Array> {
  const talkers = await Promise.all(babbleTalkers(v).map(async (t) => pcm(await outsideSpeech(t, SPEAKER_TEXTS[t.language].enrol[1]))));
  return babble(talkers, n);
}

export interface OutsideIsolation {
  voice: string;
  split: OutsideVoice["split"];
  noise: OutsideNoise;
  inputSnr: number;
  /** Output SNR against the clean speech minus the input's, dB. */
  gain: number;
}

export async function measureOutside(v: OutsideVoice, kind: OutsideNoise, rnnoise: FrameDenoiser, seed = 7): Promise<OutsideIsolation> {
  const clean = await cleanSpeech(v);
  const n = kind === "babble" ? await babbleFor(v, clean.length) : noise(kind, clean.length, seed, RATE);
  const { noisy } = mix(clean, n, 5);
  const inputSnr = snrDb(clean, noisy);
  const y = isolateAt(noisy, RATE, rnnoise);
  return { voice: v.id, split: v.split, noise: kind, inputSnr, gain: snrDb(clean, y) - inputSnr };
}
