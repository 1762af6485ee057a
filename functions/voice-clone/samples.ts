/**
 * Clone samples from upload to analysis: checked by size and content type on the request loop,
 * decoded in the analyser's workers (durations come from the decoded audio, never from a file
 * name or a header), optionally denoised (RNNoise) and then analysed as one voice.
 */
import type { AppContext } from "../context.js";
import { sniffAudioType, type SniffedAudioType } from "../audio/sniff.js";
import { AudioDecodeError, AudioLimitError, UNREADABLE_AUDIO_MESSAGE } from "../audio/decode/errors.js";
import { ApiError } from "../http/errors.js";
import type { MultipartFile } from "../http/multipart.js";
import type { VoiceAnalysis } from "../voice-analysis/port.js";
import { MAX_SAMPLES, SAMPLE_MAX_BYTES, SAMPLE_MIN_SECONDS, SAMPLES_MAX_TOTAL_SECONDS, voiceMessages } from "../contract/voices.js";
import { cloneMessages, IVC_GOAL_SECONDS, IVC_MIN_TOTAL_SECONDS } from "../contract/voiceCreation.js";

/** Samples are decoded and analysed at the analysis rate. */
export const SAMPLE_RATE = 16_000;
/** The fit analyses up to this much audio (the spec's 180 s goal); all of it is stored. */
export const ANALYSIS_CAP_SECONDS = IVC_GOAL_SECONDS;
const GAP_SECONDS = 0.3;

export interface DecodedSample {
  file: MultipartFile;
  type: SniffedAudioType;
  durationSecs: number;
  /** Mono at SAMPLE_RATE; denoised when asked. */
  samples: Float32Array;
  denoised: boolean;
}

/** Count, size and content type, before anything is decoded. */
export function checkUploads(files: MultipartFile[], keptCount: number): SniffedAudioType[] {
  if (keptCount + files.length > MAX_SAMPLES) throw new ApiError(400, "too_many_samples", voiceMessages.tooManySamples);
  return files.map((file) => {
    if (file.truncated || file.data.byteLength > SAMPLE_MAX_BYTES) throw new ApiError(413, "sample_too_large", voiceMessages.sampleTooLarge(SAMPLE_MAX_BYTES / 1024 / 1024));
    const type = sniffAudioType(file.data.subarray(0, 64));
    if (!type) throw new ApiError(400, "unsupported_audio", voiceMessages.sampleUnsupported(file.filename));
    return type;
  });
}

/**
 * Decodes every upload in the workers and checks the durations the spec sets: 5 s per file, at
 * least 10 s in all (with the samples kept from the voice), under 45 minutes. The total bound is
 * passed into each decode, so a long file stops decoding there.
 */
export async function decodeUploads(ctx: AppContext, files: MultipartFile[], keptSeconds: number, opts: { denoise: boolean; signal?: AbortSignal }): Promise<DecodedSample[]> {
  const types = checkUploads(files, 0);
  const analyzer = ctx.analyzer();
  const decoded = await Promise.all(
    files.map(async (file, i) => {
      try {
        const d = await analyzer.decode(file.data, { maxBytes: SAMPLE_MAX_BYTES, maxSeconds: SAMPLES_MAX_TOTAL_SECONDS, sampleRate: SAMPLE_RATE, signal: opts.signal });
        return { file, type: types[i], durationSecs: d.durationSecs, samples: d.samples, denoised: false };
      } catch (e) {
        if (e instanceof AudioLimitError) {
          if (e.limit === "bytes") throw new ApiError(413, "sample_too_large", voiceMessages.sampleTooLarge(SAMPLE_MAX_BYTES / 1024 / 1024));
          throw new ApiError(400, "samples_too_long", voiceMessages.samplesTooLong);
        }
        if (e instanceof AudioDecodeError) throw new ApiError(400, "sample_unreadable", `${UNREADABLE_AUDIO_MESSAGE} (${file.filename.slice(0, 100)})`);
        throw e;
      }
    }),
  );
  let total = keptSeconds;
  for (const d of decoded) {
    if (d.durationSecs < SAMPLE_MIN_SECONDS) throw new ApiError(400, "sample_too_short", voiceMessages.sampleTooShort(d.file.filename));
    total += d.durationSecs;
  }
  if (total >= SAMPLES_MAX_TOTAL_SECONDS) throw new ApiError(400, "samples_too_long", voiceMessages.samplesTooLong);
  if (total < IVC_MIN_TOTAL_SECONDS) throw new ApiError(400, "too_little_audio", cloneMessages.tooLittleAudio);
  if (opts.denoise) {
    await Promise.all(
      decoded.map(async (d) => {
        d.samples = await denoiseInPieces(ctx, d.samples, opts.signal);
        d.denoised = true;
      }),
    );
  }
  return decoded;
}

const PIECE_SECONDS = 8;
const OVERLAP_SECONDS = 0.25;

/**
 * RNNoise is sequential within a signal, so one long sample would keep one worker busy while the
 * others idle: the sample is cut into overlapping pieces denoised side by side, then joined with
 * a linear crossfade over each overlap (the network settles within a few frames of a cut).
 */
export async function denoiseInPieces(ctx: AppContext, x: Float32Array, signal?: AbortSignal): Promise<Float32Array> {
  const piece = PIECE_SECONDS * SAMPLE_RATE;
  const overlap = Math.round(OVERLAP_SECONDS * SAMPLE_RATE);
  if (x.length <= piece + 2 * overlap) return ctx.analyzer().denoise(x, SAMPLE_RATE, { signal });
  const starts: number[] = [];
  for (let s = 0; s < x.length; s += piece) starts.push(s);
  const parts = await Promise.all(
    starts.map((s) => {
      const from = Math.max(0, s - overlap);
      const to = Math.min(x.length, s + piece + overlap);
      return ctx.analyzer().denoise(x.subarray(from, to), SAMPLE_RATE, { signal }).then((y) => ({ from, y }));
    }),
  );
  return joinPieces(x.length, starts, overlap, parts);
}

/**
 * The denoised pieces back into one signal of `length` samples: piece k starts `overlap` before
 * starts[k] (or at 0) and ends `overlap` after starts[k + 1] (or at the end), weighted 1 inside
 * and ramping over `overlap` samples at either end, except at the signal's own ends.
 */
export function joinPieces(length: number, starts: number[], overlap: number, parts: { from: number; y: Float32Array }[]): Float32Array {
  // Where two pieces meet (overlap either side of a piece's start) they are crossfaded sample by
  // sample; elsewhere one piece covers each sample at full weight and is copied.
  const out = new Float32Array(length);
  const weight = new Float32Array(length);
  parts.forEach(({ from, y }, k) => {
    const to = from + y.length;
    const headEnd = k > 0 ? Math.min(to, starts[k] + overlap) : from;
    const tailStart = k + 1 < starts.length ? Math.max(headEnd, starts[k + 1] - overlap) : to;
    const blend = (a: number, b: number) => {
      for (let j = a; j < b; j++) {
        const i = j - from;
        const edge = Math.min(i, y.length - 1 - i);
        const w = from === 0 && i < overlap ? 1 : to === length && y.length - 1 - i < overlap ? 1 : Math.min(1, (edge + 1) / (overlap + 1));
        out[j] += w * y[i];
        weight[j] += w;
      }
    };
    blend(from, headEnd);
    out.set(y.subarray(headEnd - from, tailStart - from), headEnd);
    weight.fill(1, headEnd, tailStart);
    blend(tailStart, to);
  });
  for (let k = 1; k < starts.length; k++) {
    for (let i = Math.max(0, starts[k] - overlap); i < Math.min(length, starts[k] + overlap); i++) if (weight[i] > 0) out[i] /= weight[i];
  }
  return out;
}

/** One analysis of the voice over its samples (joined with short pauses, up to ANALYSIS_CAP_SECONDS). */
export async function analyseVoice(ctx: AppContext, pieces: Float32Array[], signal?: AbortSignal): Promise<VoiceAnalysis> {
  const cap = ANALYSIS_CAP_SECONDS * SAMPLE_RATE;
  const gap = Math.round(GAP_SECONDS * SAMPLE_RATE);
  let n = 0;
  const take: Float32Array[] = [];
  for (const p of pieces) {
    if (n >= cap) break;
    const part = p.subarray(0, Math.min(p.length, cap - n));
    take.push(part);
    n += part.length + gap;
  }
  const joined = new Float32Array(Math.max(0, n));
  let at = 0;
  for (const p of take) {
    joined.set(p, at);
    at += p.length + gap;
  }
  return ctx.analyzer().analyzeSamples(joined, SAMPLE_RATE, { signal });
}
