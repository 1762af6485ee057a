/**
 * Clone samples from upload to analysis: checked by size and content type on the request loop,
 * decoded in the analyser's workers (durations come from the decoded audio, never from a file
 * name or a header), optionally denoised (RNNoise) and then analysed as one voice.
 */
import type { AppContext } from "../../platform/context.js";
import { sniffAudioType, type SniffedAudioType } from "../../media/audio/sniff.js";
import { AudioDecodeError, AudioLimitError, UNREADABLE_AUDIO_MESSAGE } from "../../media/audio/decode/errors.js";
import { ApiError } from "../../platform/http/errors.js";
import type { MultipartFile } from "../../platform/http/multipart.js";
import type { VoiceAnalysis } from "../../media/voice-analysis/port.js";
import type { PiecedAudio } from "../../media/audio/pieces.js";
import { MAX_SAMPLES, SAMPLE_MAX_BYTES, SAMPLE_MIN_SECONDS, SAMPLES_MAX_TOTAL_SECONDS, voiceMessages } from "../../platform/contract/voices.js";
import { cloneMessages, IVC_GOAL_SECONDS, IVC_MIN_TOTAL_SECONDS } from "../../platform/contract/voiceCreation.js";

/** Samples are decoded and analysed at the analysis rate. */
export const SAMPLE_RATE = 16_000;
/** The fit analyses up to this much audio (the spec's 180 s goal); all of it is stored. */
export const ANALYSIS_CAP_SECONDS = IVC_GOAL_SECONDS;
const GAP_SECONDS = 0.3;

export interface DecodedSample {
  file: MultipartFile;
  /** SHA-256 of the upload (hex), computed where it was decoded. */
  sha256: string;
  type: SniffedAudioType;
  durationSecs: number;
  /** Mono at SAMPLE_RATE; denoised when asked (then in pieces, joined in a worker). */
  audio: PiecedAudio;
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
        // The upload moves to the worker and back (hashed there): no copy of it on the request loop.
        const d = await analyzer.decodeUpload(file.data, { maxBytes: SAMPLE_MAX_BYTES, maxSeconds: SAMPLES_MAX_TOTAL_SECONDS, sampleRate: SAMPLE_RATE, signal: opts.signal });
        file.data = Buffer.from(d.bytes.buffer, d.bytes.byteOffset, d.bytes.byteLength);
        return { file, sha256: d.sha256, type: types[i], durationSecs: d.durationSecs, audio: d.samples as PiecedAudio, denoised: false };
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
        d.audio = await denoiseInPieces(ctx, d.audio as Float32Array, opts.signal);
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
export async function denoiseInPieces(ctx: AppContext, x: Float32Array, signal?: AbortSignal): Promise<PiecedAudio> {
  const piece = PIECE_SECONDS * SAMPLE_RATE;
  const overlap = Math.round(OVERLAP_SECONDS * SAMPLE_RATE);
  if (x.length <= piece + 2 * overlap) return ctx.analyzer().denoise(x, SAMPLE_RATE, { signal });
  const starts: number[] = [];
  for (let s = 0; s < x.length; s += piece) starts.push(s);
  // Each piece is copied for its worker in a turn of its own: the loop serves requests in between.
  const jobs: Promise<{ from: number; y: Float32Array }>[] = [];
  for (const s of starts) {
    if (jobs.length) await new Promise<void>((r) => setImmediate(r));
    const from = Math.max(0, s - overlap);
    const to = Math.min(x.length, s + piece + overlap);
    const job = ctx.analyzer().denoise(x.subarray(from, to), SAMPLE_RATE, { signal }).then((y) => ({ from, y }));
    job.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
    jobs.push(job);
  }
  const parts = await Promise.all(jobs);
  // Joined where they are used next, in a worker (ctx.analyzer().joinAudio).
  return { length: x.length, starts, overlap, parts };
}

/**
 * One analysis of the voice over its samples (joined with short pauses, up to
 * ANALYSIS_CAP_SECONDS), in a worker. The samples' arrays move there: do not read them after.
 */
export async function analyseVoice(ctx: AppContext, pieces: PiecedAudio[], signal?: AbortSignal): Promise<VoiceAnalysis> {
  const { analysis } = await ctx.analyzer().joinAudio(pieces, SAMPLE_RATE, { analyse: ANALYSIS_ANALYSE, signal });
  return analysis!;
}

/** How a voice's samples are joined for its one analysis. */
export const ANALYSIS_ANALYSE = { capSeconds: ANALYSIS_CAP_SECONDS, gapSeconds: GAP_SECONDS } as const;
