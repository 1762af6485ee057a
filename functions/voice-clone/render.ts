/**
 * The engine speaking for voice creation: previews (encoded), calibration renders for a fit
 * (analysed), and reference sentences for verification (PCM). All synthesis, encoding and
 * analysis runs in the engine's and the analyser's workers; this only joins chunks.
 */
import type { AppContext } from "../context.js";
import type { EngineModel, VoiceProfile, VoiceSettings } from "../engine/port.js";
import { DEFAULT_VOICE_SETTINGS } from "../engine/port.js";
import type { OutputFormat } from "../audio/formats.js";
import type { VoiceAnalysis } from "../voice-analysis/port.js";
import { concatBytes, concatInt16 } from "../audio/bytes.js";
import { calibrationPassage } from "./passages.js";
import type { Renderer } from "./fit.js";

export const CREATION_MODEL: EngineModel = { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false };
/** The seed a fit renders with: fixed, so the same samples always fit the same profile. */
const FIT_SEED = 3;

export interface SpeakOptions {
  settings?: Partial<VoiceSettings>;
  seed?: number;
  signal?: AbortSignal;
}

/** Mono float PCM at the engine's rate. */
export async function speakPcm(ctx: AppContext, voice: VoiceProfile, text: string, o: SpeakOptions = {}): Promise<{ samples: Float32Array; sampleRate: number }> {
  const engine = await ctx.engine();
  const parts: Int16Array[] = [];
  let n = 0;
  for await (const c of engine.synthesize({ text, voice, settings: { ...DEFAULT_VOICE_SETTINGS, ...o.settings }, seed: o.seed ?? 1, model: CREATION_MODEL }, o.signal)) {
    parts.push(c.pcm);
    n += c.pcm.length;
  }
  const samples = new Float32Array(n);
  let at = 0;
  for (const p of parts) {
    for (let i = 0; i < p.length; i++) samples[at + i] = p[i] / 32768;
    at += p.length;
  }
  return { samples, sampleRate: engine.sampleRate };
}

/** Encoded audio in `format`, and its duration (read from the encoded bytes' headers in a worker). */
export async function speakEncoded(ctx: AppContext, voice: VoiceProfile, text: string, format: OutputFormat, o: SpeakOptions = {}): Promise<{ audio: Uint8Array; durationSecs: number }> {
  const engine = await ctx.engine();
  const parts: Uint8Array[] = [];
  for await (const c of engine.synthesizeEncoded({ text, voice, settings: { ...DEFAULT_VOICE_SETTINGS, ...o.settings }, seed: o.seed ?? 1, model: CREATION_MODEL }, format, o.signal)) {
    if (c.audio.byteLength) parts.push(c.audio);
  }
  const audio = concatBytes(parts);
  return { audio, durationSecs: await encodedDuration(ctx, audio, format) };
}

/** Seconds of audio in encoded bytes: arithmetic for headerless PCM, the container's headers otherwise. */
export async function encodedDuration(ctx: AppContext, audio: Uint8Array, format: OutputFormat): Promise<number> {
  const bytesPerSecond = format.codec === "pcm" ? 2 * format.sampleRate : format.codec === "ulaw" || format.codec === "alaw" ? format.sampleRate : 0;
  if (bytesPerSecond) return Math.round((audio.byteLength / bytesPerSecond) * 1000) / 1000;
  const probe = await ctx.analyzer().probe(audio).catch(() => null);
  return Math.round((probe?.durationSecs ?? 0) * 1000) / 1000;
}

/**
 * A fit's renderer: the engine reads the language's calibration passage, the analyser measures it.
 * The 16-bit PCM goes to the analyser as it is (converted there): no per-sample work on the
 * request loop.
 */
export function engineRenderer(ctx: AppContext, language: string, signal?: AbortSignal): Renderer {
  const passage = calibrationPassage(language);
  return {
    async render(profile: VoiceProfile): Promise<VoiceAnalysis> {
      const engine = await ctx.engine();
      const parts: Int16Array[] = [];
      for await (const c of engine.synthesize({ text: passage, voice: profile, settings: { ...DEFAULT_VOICE_SETTINGS, stability: 1 }, seed: FIT_SEED, model: CREATION_MODEL }, signal)) parts.push(c.pcm);
      return ctx.analyzer().analyzeSamples(concatInt16(parts), engine.sampleRate, { signal });
    },
  };
}
