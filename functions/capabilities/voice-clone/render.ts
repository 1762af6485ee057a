/**
 * The engine speaking for voice creation: previews (encoded) and reference sentences for
 * verification (PCM); a fit's calibration renders use it (functions/capabilities/cloning/render.ts). All synthesis, encoding and
 * analysis runs in the engine's and the analyser's workers; this only joins chunks.
 */
import type { AppContext } from "../../platform/context.js";
import type { EngineModel, VoiceProfile, VoiceSettings } from "../../media/engine/port.js";
import { DEFAULT_VOICE_SETTINGS } from "../../media/engine/port.js";
import type { OutputFormat } from "../../media/audio/formats.js";
import { int16ToFloat } from "../../media/audio/resample.js";
import { concatInt16 } from "../../media/audio/bytes.js";
import { wholeAudio } from "../../media/audio/encoder.js";

export const CREATION_MODEL: EngineModel = { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false };

export interface SpeakOptions {
  settings?: Partial<VoiceSettings>;
  seed?: number;
  signal?: AbortSignal;
}

/** Mono float PCM at the engine's rate. */
export async function speakPcm(ctx: AppContext, voice: VoiceProfile, text: string, o: SpeakOptions = {}): Promise<{ samples: Float32Array; sampleRate: number }> {
  const { pcm, sampleRate } = await speakPcm16(ctx, voice, text, o);
  return { samples: int16ToFloat(pcm), sampleRate };
}

/** 16-bit PCM at the engine's rate, as the engine made it (the analyser takes it without conversion). */
export async function speakPcm16(ctx: AppContext, voice: VoiceProfile, text: string, o: SpeakOptions = {}): Promise<{ pcm: Int16Array; sampleRate: number }> {
  const engine = await ctx.engine();
  const parts: Int16Array[] = [];
  for await (const c of engine.synthesize({ text, voice, settings: { ...DEFAULT_VOICE_SETTINGS, ...o.settings }, seed: o.seed ?? 1, model: CREATION_MODEL }, o.signal)) parts.push(c.pcm);
  return { pcm: concatInt16(parts), sampleRate: engine.sampleRate };
}

/** Encoded audio in `format`, and its duration (read from the encoded bytes' headers in a worker). */
export async function speakEncoded(ctx: AppContext, voice: VoiceProfile, text: string, format: OutputFormat, o: SpeakOptions = {}): Promise<{ audio: Uint8Array; durationSecs: number }> {
  const engine = await ctx.engine();
  const parts: Array<{ audio: Uint8Array; samples?: number }> = [];
  for await (const c of engine.synthesizeEncoded({ text, voice, settings: { ...DEFAULT_VOICE_SETTINGS, ...o.settings }, seed: o.seed ?? 1, model: CREATION_MODEL }, format, o.signal)) {
    parts.push(c);
  }
  // A whole file: an MP3 with its Info frame (speech/generate.ts wholeAudio).
  const audio = wholeAudio(format, parts);
  return { audio, durationSecs: await encodedDuration(ctx, audio, format) };
}

/** Seconds of audio in encoded bytes: arithmetic for headerless PCM, the container's headers otherwise. */
export async function encodedDuration(ctx: AppContext, audio: Uint8Array, format: OutputFormat): Promise<number> {
  const bytesPerSecond = format.codec === "pcm" ? 2 * format.sampleRate : format.codec === "ulaw" || format.codec === "alaw" ? format.sampleRate : 0;
  if (bytesPerSecond) return Math.round((audio.byteLength / bytesPerSecond) * 1000) / 1000;
  const probe = await ctx.analyzer().probe(audio).catch(() => null);
  return Math.round((probe?.durationSecs ?? 0) * 1000) / 1000;
}
