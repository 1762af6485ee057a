import type { EmbeddedStack } from "../../infra/local/stack.js";
import type { VoiceProfile } from "../../functions/media/engine/port.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { floatToInt16 } from "../../functions/media/audio/resample.js";
import { profileFromLabels } from "../../functions/media/engine/espeak/voices.js";
import { speakPcm } from "../../functions/capabilities/voice-clone/render.js";
import { PASSAGES } from "../../functions/media/voice-analysis/fixtures/texts.js";

/**
 * Speakers for cloning and verification tests. No human recordings exist offline, so a
 * "speaker" is an engine voice the tests never tuned anything on (profiles drawn from labels
 * with their own seeds), reading passages the fit never renders.
 */
export const SPEAKER_A: VoiceProfile = { ...profileFromLabels({ language: "en", gender: "female", age: "middle_aged" }, 90_001), breathiness: 0.1 };
export const SPEAKER_B: VoiceProfile = profileFromLabels({ language: "en", gender: "male", age: "old" }, 90_002);

/** A WAV recording of `speaker` reading `text`, optionally with white noise at `snrDb`. */
export async function recording(stack: EmbeddedStack, speaker: VoiceProfile, text: string, opts: { seed?: number; snrDb?: number; speed?: number } = {}): Promise<Buffer> {
  const { samples, sampleRate } = await speakPcm(stack.ctx, speaker, text, { seed: opts.seed ?? 5, settings: { speed: opts.speed ?? 1 } });
  if (opts.snrDb !== undefined) {
    let power = 0;
    for (const s of samples) power += s * s;
    const noise = Math.sqrt(power / samples.length / 10 ** (opts.snrDb / 10));
    let seed = 12345;
    for (let i = 0; i < samples.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      samples[i] += noise * ((seed / 2 ** 32) * 2 - 1) * Math.sqrt(3);
    }
  }
  return Buffer.from(encodeWav(floatToInt16(samples), sampleRate));
}

/** The speaker's sample files: the English tuning passages, one file each (about 8 s apiece). */
export async function sampleFiles(stack: EmbeddedStack, speaker: VoiceProfile, count = 3): Promise<Blob[]> {
  const texts = [...PASSAGES.en.tuning, ...PASSAGES.en.heldOut].slice(0, count);
  return Promise.all(texts.map(async (t, i) => new Blob([new Uint8Array(await recording(stack, speaker, t, { seed: 100 + i }))], { type: "audio/wav" })));
}
