/**
 * The voice-analysis port: what features need to know about a voice from its audio. Cloning fits
 * the engine to samples (pitch, range, rate, timbre), verification compares a recording with a
 * voice's samples (embedding), speaker separation clusters speech segments (segments and their
 * embeddings), speech to speech measures pitch and timbre, and the voice library ranks similar
 * voices (embedding + `EmbeddingIndex`). The embedded implementation is classical signal
 * processing in TypeScript on a pool of worker threads (./analyzer.ts); a neural speaker encoder
 * could implement the same shape (its embeddings would have their own `EMBEDDING_VERSION`).
 *
 * Why each method exists:
 * - `analyze(bytes)`: an upload arrives as bytes in any container; decoding and analysis both
 *   cost CPU, so both happen in a worker, and the caller's byte and duration bounds are checked
 *   before any decoding (errors: AudioLimitError, AudioDecodeError with the spec's message).
 * - `probe(bytes)`: the upload checks want the duration (at least 30 s, total minutes) without
 *   paying for a decode; walking headers is linear for MP3 and live WebM, so it is a worker job too.
 * - `decode(bytes)`: features that keep or transform the audio itself (trimming, waveform peaks,
 *   noise removal, speech to speech) need the samples, bounded the same way.
 * - `analyzeSamples(samples)`: audio the server already holds as PCM (engine output, a decoded
 *   sample) is analysed without re-encoding.
 * - `detectSpeech(samples)`: speaker separation and trimming need where speech is, not a summary.
 * - `embedSegments(samples, segments)`: one embedding per segment, to cluster speakers or verify
 *   a recording part by part.
 * - `toWav(bytes)`: downloads in WAV (the SDK's `history.download` with `output_format: "wav"`) of
 *   audio stored compressed: a full decode, so a worker job too.
 * - `denoise(samples)`: "remove background noise" on clone samples and the voice isolator need the
 *   audio itself cleaned (RNNoise, functions/media/audio/denoise), which is CPU work like the rest.
 * - `sentenceCosts(recording, candidates)`: voice verification checks that a recording says the
 *   sentence it was asked to read by aligning it with the engine's readings of that sentence
 *   and of decoys (dynamic time warping over cepstra: CPU work, so a worker job).
 * - `joinAudio(sources)`: a clone's samples come back from several workers (decoded, denoised in
 *   pieces); joining them, analysing them as one voice and encoding their WAVs happen in one
 *   worker job, so the request loop neither copies nor allocates the audio again.
 * - `close()`: tests and shutdown end the workers; a closed analyzer refuses new work.
 */
import type { AudioCodec, AudioContainer, AudioProbe, DecodedAudioFile, DecodeLimits, MeasuredAudio } from "../audio/decode/index.js";
import type { SpeechSegment } from "./vad.js";
import type { PiecedAudio } from "../audio/pieces.js";

export type { SpeechSegment } from "./vad.js";

export interface VoiceAnalysis {
  /** Identifies the embedding definition: embeddings of different versions must not be compared. */
  embeddingVersion: number;
  /** Fixed length (EMBEDDING_DIM), L2-normalised; all zeros when no speech was found. */
  embedding: number[];
  durationSecs: number;
  /** Total length of the detected speech segments. */
  speechSecs: number;
  segments: SpeechSegment[];
  /** Median F0 over voiced frames (YIN), Hz; null without voiced speech. */
  f0MedianHz: number | null;
  /** p90 - p10 of F0 over voiced frames, Hz. */
  f0RangeHz: number | null;
  /** The 10th and 90th percentiles themselves, Hz. */
  f0P10Hz: number | null;
  f0P90Hz: number | null;
  /** Voiced frames / active (speech) frames. */
  voicedRatio: number;
  /** Syllable nuclei (voiced energy peaks) per second of speech, pauses excluded. */
  speakingRate: number;
  /** Integrated loudness, ITU-R BS.1770-4 (gated); null for silence. */
  loudnessLufs: number | null;
  /** RMS level of the speech frames, dBFS (a full-scale sine is -3 dBFS). */
  rmsDbfs: number;
  /** Peak sample level, dBFS. */
  peakDbfs: number;
  /** Speech power over the noise floor (the quietest 10% of frames), dB, within [-10, 60]. */
  snrDb: number;
  /** Share of samples at or beyond 99% of full scale. */
  clippingRatio: number;
  /** Long-term average spectrum of the speech: dB per band (LTAS_BANDS_HZ) relative to the mean of all bands. */
  ltasDb: number[];
  /** The same bands' levels averaged in dB over the speech frames (the mean log spectrum), relative to their mean. */
  logSpectrumDb: number[];
  /** Power-weighted mean frequency of the speech, Hz. */
  spectralCentroidHz: number;
  /** Slope of the LTAS, dB per octave (darker voices fall faster). */
  spectralTiltDbPerOctave: number;
  /** Medians of F1, F2, F3 over voiced frames (LPC envelope peaks), Hz; null when not found. */
  formantsHz: [number | null, number | null, number | null];
}

export interface AnalyzeOptions extends DecodeLimits {
  signal?: AbortSignal;
}

/** `analyze(bytes)` also says what the file was. */
export interface FileAnalysis extends VoiceAnalysis {
  container: AudioContainer;
  codec: AudioCodec;
  sampleRate: number;
  channels: number;
}

export interface JoinedAudio {
  analysis: VoiceAnalysis | null;
  /** Per source: its 16-bit WAV when asked for, else null. */
  wavs: (Uint8Array | null)[];
}

/** An upload decoded by `decodeUpload`: its bytes back, with their SHA-256 (hex). */
export interface DecodedUpload extends DecodedAudioFile {
  bytes: Uint8Array;
  sha256: string;
}

/** What a bounded analysis reads of a long recording: `windows` stretches of `windowSecs`, evenly spread. */
export interface AnalysisBudget {
  windows: number;
  windowSecs: number;
}

export interface VoiceAnalyzer {
  analyze(bytes: Uint8Array, opts?: AnalyzeOptions): Promise<FileAnalysis>;
  probe(bytes: Uint8Array, opts?: { maxBytes?: number; signal?: AbortSignal }): Promise<AudioProbe>;
  decode(bytes: Uint8Array, opts?: AnalyzeOptions & { sampleRate?: number }): Promise<DecodedAudioFile>;
  /**
   * As decode, for bytes the caller hands over: they move to a worker (no copy on the request
   * loop when they fill a buffer of their own), are hashed there and come back in the result.
   * The caller must not read them until it settles; if it fails they are gone.
   */
  decodeUpload(bytes: Uint8Array, opts?: AnalyzeOptions & { sampleRate?: number }): Promise<DecodedUpload>;
  /**
   * The decoded duration and waveform peaks of a file, decoded in pieces that are dropped as they
   * are measured (memory stays bounded for files of hours), within the same limits as decode.
   */
  measure(bytes: Uint8Array, opts: AnalyzeOptions & { sampleRate?: number; points: number }): Promise<MeasuredAudio>;
  /**
   * Samples in -1..1, or 16-bit PCM (converted in the worker as v / 32768: the same floats). With
   * a `budget`, a recording longer than it has its voice measured on evenly spread stretches and
   * its levels on every second (analyze.ts `analyzeVoiceBounded`).
   */
  analyzeSamples(samples: Float32Array | Int16Array, sampleRate: number, opts?: { signal?: AbortSignal; budget?: AnalysisBudget }): Promise<VoiceAnalysis>;
  detectSpeech(samples: Float32Array, sampleRate: number, opts?: { signal?: AbortSignal }): Promise<SpeechSegment[]>;
  embedSegments(samples: Float32Array, sampleRate: number, segments: readonly SpeechSegment[], opts?: { signal?: AbortSignal }): Promise<number[][]>;
  denoise(samples: Float32Array, sampleRate: number, opts?: { keepOriginal?: number; signal?: AbortSignal }): Promise<Float32Array>;
  /** Alignment cost of the recording against each candidate reading (lower fits better). */
  /** Candidates as floats in -1..1 or 16-bit PCM (converted in the worker as v / 32768). */
  sentenceCosts(recording: Float32Array | Int16Array, recordingRate: number, candidates: readonly (Float32Array | Int16Array)[], candidateRate: number, opts?: { signal?: AbortSignal }): Promise<number[]>;
  toWav(bytes: Uint8Array, opts?: AnalyzeOptions): Promise<Uint8Array>;
  /**
   * Audio assembled in a worker, not on the request loop: each source (pieces crossfaded), then
   * optionally one analysis of them all (joined with `gapSeconds` of silence, up to `capSeconds`)
   * and a 16-bit WAV of each source whose `wav` flag is set. The sources' arrays MOVE to the
   * worker (no copy): the caller must not read them afterwards.
   */
  joinAudio(sources: readonly PiecedAudio[], sampleRate: number, opts: { wav?: readonly boolean[]; analyse?: { capSeconds: number; gapSeconds: number }; signal?: AbortSignal }): Promise<JoinedAudio>;
  close(): Promise<void>;
}

export class AnalysisAbortedError extends Error {
  constructor() {
    super("voice analysis aborted");
    this.name = "AbortError";
  }
}
