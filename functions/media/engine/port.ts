/**
 * The speech engine port: what the domain needs from any text-to-speech engine. The embedded
 * eSpeak NG engine implements it (./espeak); a neural engine adapter implements the same shape.
 *
 * Refinements over the first sketch (ARCHITECTURE.md §7):
 * - `SynthesisChunk.textOffset`: where the chunk's characters start in the request text, so a
 *   caller can stitch alignments without counting.
 * - `SpeechEngine.synthesizeEncoded`: encoded output chunks, so an engine can encode where it
 *   synthesises (the embedded engine encodes in its worker threads, off the request loop).
 *   Engines without workers can implement it with `encodeChunks` and `sequence` from
 *   ./encode-stream.ts.
 * - `SpeechEngine.sampleRate`: the native rate of the PCM chunks.
 * - `synthesizeSequence` / `synthesizeSequenceEncoded`: several requests (dialogue lines, each
 *   with its own voice) as one stream on one timeline and, encoded, one continuous file. Chunks
 *   say which request they belong to; `textOffset` is within that request's text.
 * - Models are described by the domain's catalogue; the engine only sees `EngineModel`.
 */
import type { OutputFormat, OutputFormatId } from "../audio/formats.js";
import type { RemoteTarget } from "./remote/config.js";

export type Gender = "male" | "female" | "neutral";
export type Age = "young" | "middle_aged" | "old";

/** Engine-agnostic voice description, stored on every voice record. */
export interface VoiceProfile {
  /** BCP-47-ish primary language, e.g. "en", "de", "pt-br". */
  language: string;
  /** e.g. "american", "british". */
  accent?: string;
  gender: Gender;
  age: Age;
  /** 0..100, eSpeak -p scale; 50 is the natural centre for the gender and age. */
  pitch: number;
  /** 0..100, eSpeak -P scale. */
  pitchRange: number;
  /** Words per minute at speed 1.0 (typically 150..190). */
  rate: number;
  /** -1..1; negative is darker/larger (lower formants), positive brighter/smaller. */
  timbre: number;
  /** 0..1, optional. */
  breathiness?: number;
  /** 0..1, optional: creak and roughness of the voice source (irregular, rough phonation). */
  roughness?: number;
  /**
   * Optional voice quality shaped after synthesis (voice design's quality words), each 0..1:
   * breath noise in the voiced band, rough phonation (jitter and shimmer), nasality (a nasal
   * formant and anti-formant) and softness (a steeper spectral tilt). Engines without it may ignore it.
   */
  quality?: { breath?: number; rough?: number; nasal?: number; soft?: number };
  /**
   * Optional spectral envelope correction: dB per band of the voice-analysis LTAS bands
   * (16 log-spaced bands, 80 Hz to 7.6 kHz), applied to the output. A clone's fit sets it so
   * the engine's long-term spectrum matches the samples'; engines without it may ignore it.
   */
  envelope?: number[];
  /** Optional speech level, dBFS RMS of the active (non-pause) part; the engine's default is -18. */
  levelDb?: number;
  /** Voice identity seed: small deterministic variations that make two similar profiles differ. */
  seed: number;
  /**
   * Which embedded engine speaks the profile (absent: "espeak"). The other fields keep their
   * meaning on every engine; each engine maps them as its README tables.
   */
  engine?: EngineId;
  /**
   * The engine's own base voice (flite: "slt", "rms", "awb", "kal16"; piper: the model's file name
   * without .onnx, "#SID" after it for a speaker of a multi-speaker model); absent: chosen from
   * gender and accent.
   */
  engineVoice?: string;
}

export type EngineId = "espeak" | "flite" | "piper" | "remote";

export interface VoiceSettings {
  stability: number;
  similarity_boost: number;
  style: number;
  use_speaker_boost: boolean;
  speed: number;
  /** Output gain in dB, -30..+5 (audio/gain.ts); absent is 0. Timbre's own field: ElevenLabs has none. */
  volume?: number;
  /**
   * Runs the voice isolator over the generated audio (capabilities/speech/generate.ts); absent is
   * off. Timbre's own field, per request only: engines ignore it.
   */
  remove_background_noise?: boolean;
}

export const DEFAULT_VOICE_SETTINGS: VoiceSettings = {
  stability: 0.5,
  similarity_boost: 0.75,
  style: 0,
  use_speaker_boost: true,
  speed: 1,
};

export interface EngineModel {
  id: string;
  quality: "standard" | "fast";
  supportsPhonemes: boolean;
}

export interface PhonemeSpan {
  /** UTF-16 offsets into `SynthesisRequest.text`, end exclusive. */
  start: number;
  end: number;
  phonemes: string;
  alphabet: "ipa" | "cmu-arpabet";
}

export interface SynthesisRequest {
  /** Already normalised text to speak. */
  text: string;
  voice: VoiceProfile;
  settings: VoiceSettings;
  seed: number;
  model: EngineModel;
  /** Overrides voice.language when set. */
  languageCode?: string | null;
  previousText?: string | null;
  nextText?: string | null;
  /** Segments to speak from phonemes (the pronunciation dictionary hook). */
  phonemeSpans?: PhonemeSpan[];
  /**
   * Work nobody waits for (first-start previews): its chunks take a worker only when no other
   * job waits, and one at a time, so a user's request never queues behind more than one of them.
   */
  background?: boolean;
  /**
   * The caller sends the audio only once all of it is ready (a whole answer, not a stream): its
   * chunks may go behind an earlier whole answer's instead of taking turns with them, so the
   * first finishes as if alone and the next no later than with turns.
   */
  whole?: boolean;
  /**
   * A workspace's own remote engine (engine "remote"), resolved by the product for this request;
   * absent: the operator's engines (REMOTE_ENGINES) named by `voice.engineVoice`.
   */
  remote?: RemoteTarget;
}

export interface Alignment {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

export interface SynthesisChunk {
  pcm: Int16Array;
  sampleRate: number;
  /** Index in `text` (UTF-16) of the chunk's first character. */
  textOffset: number;
  /** Covers exactly the characters this chunk speaks; times from the start of the whole synthesis. */
  alignment: Alignment;
}

export interface EncodedChunk {
  /**
   * Encoded bytes ready to send (may be empty while a codec fills a frame). An engine may hand out
   * a chunk's first bytes early as a chunk of their own with an empty alignment (the embedded
   * engine does for the first chunk of an MP3 stream); the chunk's timings come with the rest.
   */
  audio: Uint8Array;
  textOffset: number;
  alignment: Alignment;
  /**
   * Samples at the format's rate of the PCM that `audio` encodes (0 for an early head); summed
   * over a request, the length of its PCM output. A whole MP3 file needs it for its Info frame
   * (audio/encoder.ts `wholeFile`); an engine that leaves it out gets MP3 files without one.
   */
  samples?: number;
}

export interface SequenceChunk extends SynthesisChunk {
  /** Index into the requests passed to `synthesizeSequence*`. */
  requestIndex: number;
}

export interface EncodedSequenceChunk extends EncodedChunk {
  requestIndex: number;
}

export interface SpeechEngine {
  readonly id: string;
  readonly sampleRate: number;
  /** Chunks in order, the first as early as possible (sentence by sentence). */
  synthesize(req: SynthesisRequest, signal?: AbortSignal): AsyncIterable<SynthesisChunk>;
  /** Same chunks encoded to an output format; the last chunk carries the encoder's flush. */
  synthesizeEncoded(req: SynthesisRequest, format: OutputFormat | OutputFormatId, signal?: AbortSignal): AsyncIterable<EncodedChunk>;
  /** Several requests back to back: one timeline (times from the start of the first request). */
  synthesizeSequence(reqs: readonly SynthesisRequest[], signal?: AbortSignal): AsyncIterable<SequenceChunk>;
  /** The sequence as one encoded stream (a single MP3/Ogg/WAV file when concatenated). */
  synthesizeSequenceEncoded(reqs: readonly SynthesisRequest[], format: OutputFormat | OutputFormatId, signal?: AbortSignal): AsyncIterable<EncodedSequenceChunk>;
  /** Makes instances ready so the first request pays no instantiation. */
  warm(): Promise<void>;
  close(): Promise<void>;
  languages(): Array<{ language_id: string; name: string }>;
}

/** The voice's engine cannot speak it on this server (a local voice file removed, a speaker the model lacks): the caller's 4xx. */
export class EngineVoiceUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EngineVoiceUnavailableError";
  }
}

export class SynthesisAbortedError extends Error {
  constructor() {
    super("synthesis aborted");
    this.name = "AbortError";
  }
}
