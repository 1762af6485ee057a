/** What the decoder tells about an audio file. */
import type { SniffedAudioType } from "../sniff.js";

export type AudioContainer = SniffedAudioType;
export type AudioCodec = "pcm" | "float" | "alaw" | "mulaw" | "mp3" | "mp2" | "mp1" | "opus" | "vorbis" | "flac" | "aac";

/** What the container's headers say, read without decoding. */
export interface AudioProbe {
  container: AudioContainer;
  codec: AudioCodec;
  /** Rate of the decoded output (AAC with SBR: the doubled rate is only known after decoding, so the core rate). */
  sampleRate: number;
  channels: number;
  /** From the headers; null when the container does not say (a live-recorded stream): decode to know. */
  durationSecs: number | null;
}

export interface DecodedAudioFile {
  /** Mono (channels averaged), in [-1, 1] for well-formed input. */
  samples: Float32Array;
  sampleRate: number;
  /** Channels of the source before the downmix. */
  channels: number;
  /** samples.length / sampleRate: what was decoded, not what the header claimed. */
  durationSecs: number;
  container: AudioContainer;
  codec: AudioCodec;
}

export interface DecodeLimits {
  /** Refuse larger inputs before reading them (default 50 MB). */
  maxBytes?: number;
  /** Refuse longer audio: before decoding when the header says so, and while decoding when it lied (default 20 minutes). */
  maxSeconds?: number;
}

export interface DecodeOptions extends DecodeLimits {
  /** Resample while decoding (the analysis uses 16000): the full-rate signal is never held in memory. */
  sampleRate?: number;
}

export const DEFAULT_DECODE_LIMITS: Required<DecodeLimits> = { maxBytes: 50 * 1024 * 1024, maxSeconds: 20 * 60 };
