/**
 * Alignment as the rest of the product uses it, with the CPU work off the request loop: the
 * engine's readings come from its worker pool, decoding from the analysis workers, features and
 * DTW from the CPU workers (functions/platform/offload).
 *
 *   alignToText(ctx, samples, rate, text, language)        -> character and word times, loss
 *   textFit(ctx, samples, rate, text, language, decoys)    -> does the recording read `text`?
 *   forcedAlignment(ctx, bytes, text)                      -> POST /v1/forced-alignment
 *   openLiveReading / feedLiveReading                       -> the recorder's live highlight
 */
import type { AppContext } from "../../platform/context.js";
import { AudioDecodeError, AudioLimitError } from "../../media/audio/decode/errors.js";
import { ApiError, ValidationError } from "../../platform/http/errors.js";
import { runCpu } from "../../platform/offload/index.js";
import { FORCED_ALIGNMENT } from "../../platform/contract/pvc.js";
import { detectLanguages } from "../../media/language/detect.js";
import { synthesizeReferences as synthesize, type ForcedAlignment } from "../../media/alignment/align.js";
import type { SpeechEngine, VoiceProfile } from "../../media/engine/port.js";
import { premadeVoiceRecords } from "../../platform/domain/premadeVoices.js";
import { transcriptOf, type LiveSession } from "../../media/alignment/online.js";

/** The engine reading `text` in the premade voices of its language (media/alignment/align.ts). */
const synthesizeReferences = (engine: SpeechEngine, text: string, language: string, signal?: AbortSignal) =>
  synthesize(engine, premadeVoiceRecords().map((r) => r.profile as VoiceProfile), text, language, signal);

const codePoints = (s: string) => [...s].length;

export async function alignToText(ctx: AppContext, samples: Float32Array, sampleRate: number, text: string, language: string, signal?: AbortSignal): Promise<ForcedAlignment> {
  const refs = await synthesizeReferences(await ctx.engine(), text, language, signal);
  return runCpu("align", { samples, rate: sampleRate, refs });
}

export interface TextFit {
  /** Mean path distance to the text's reading (lower fits better). */
  loss: number;
  /** The same for each decoy text. */
  decoyLosses: number[];
  /** How much better the text fits than the best decoy: 1 - loss / best decoy loss. */
  margin: number;
  /** The recording reads the text: its loss is under 80% of every decoy's. */
  fits: boolean;
}

/** Fit margin a recording of the text has over texts it does not say (engine readings measure 0.3-0.6). */
export const TEXT_FIT_MARGIN = 0.2;

/**
 * How well `text` fits a recording, against decoy texts of the same language and about the same
 * length: the verification's sentence check ("did they read the captcha?").
 */
export async function textFit(ctx: AppContext, samples: Float32Array, sampleRate: number, text: string, language: string, decoys: string[], signal?: AbortSignal): Promise<TextFit> {
  const engine = await ctx.engine();
  const readings = await Promise.all([text, ...decoys].map((t) => synthesizeReferences(engine, t, language, signal)));
  const [loss, ...decoyLosses] = await runCpu("fit-loss", { samples, rate: sampleRate, texts: readings });
  const best = decoyLosses.length ? Math.min(...decoyLosses) : Infinity;
  const margin = Number.isFinite(best) && best > 0 ? Math.round((1 - loss / best) * 1000) / 1000 : 1;
  return { loss, decoyLosses, margin, fits: margin >= TEXT_FIT_MARGIN };
}

/** POST /v1/forced-alignment: audio and its text -> when each character and word is spoken. */
export async function forcedAlignment(ctx: AppContext, bytes: Uint8Array, rawText: string) {
  const text = rawText.trim();
  if (!text) throw new ValidationError([{ loc: ["body", "text"], msg: "Text must not be empty", type: "value_error" }]);
  if (codePoints(text) > FORCED_ALIGNMENT.maxTextChars) {
    throw new ApiError(400, "text_too_long", `The text may be at most ${FORCED_ALIGNMENT.maxTextChars.toLocaleString("en-US")} characters long.`);
  }
  let decoded;
  try {
    decoded = await ctx.analyzer().decode(bytes, { maxBytes: FORCED_ALIGNMENT.maxBytes, maxSeconds: FORCED_ALIGNMENT.maxAudioSeconds, sampleRate: 16_000 });
  } catch (e) {
    if (e instanceof AudioDecodeError) throw new ApiError(400, "invalid_audio", e.message);
    if (e instanceof AudioLimitError) {
      throw new ApiError(400, "audio_too_long", e.limit === "bytes" ? `The file must be smaller than ${FORCED_ALIGNMENT.maxBytes / 1024 / 1024} MB.` : `The audio may be at most ${FORCED_ALIGNMENT.maxAudioSeconds / 60} minutes long.`);
    }
    throw e;
  }
  const language = detectLanguages(text)[0]?.language ?? "en";
  const a = await alignToText(ctx, decoded.samples, decoded.sampleRate, text, language);
  return { characters: a.characters, words: a.words, loss: a.loss };
}

/** A live reading of `text`: the engine reads it first (both reference voices). */
export async function openLiveReading(ctx: AppContext, text: string, language: string, signal?: AbortSignal): Promise<LiveSession> {
  // The readings' features are computed on a worker, like each step.
  return runCpu("live-open", { readings: await synthesizeReferences(await ctx.engine(), text, language, signal) });
}

/** Feeds 16 kHz audio to a live reading (on a worker); the session comes back updated. */
export async function feedLiveReading(session: LiveSession, samples: Float32Array): Promise<{ session: LiveSession; words: number; transcript: string }> {
  const r = await runCpu("live-align", { session, samples });
  return { session: r.session, words: r.words, transcript: transcriptOf(r.session, r.words) };
}
