/**
 * The two ways an upload is refused. Callers on the request loop map them to 4xx answers:
 * `AudioDecodeError` carries the spec's message word for word; `AudioLimitError` says which
 * caller-given bound was crossed so the caller can answer with its feature's own wording.
 */

/** The voice-cloning spec's message for audio whose duration cannot be determined. */
export const UNREADABLE_AUDIO_MESSAGE = "Could not determine audio duration, try another file";

/** Unknown type, corrupt or truncated data, a codec we do not decode: one error, one message. */
export class AudioDecodeError extends Error {
  /** What went wrong, for logs only (never shown to users). */
  readonly reason: string;

  constructor(reason: string) {
    super(UNREADABLE_AUDIO_MESSAGE);
    this.name = "AudioDecodeError";
    this.reason = reason;
  }
}

export type AudioLimit = "bytes" | "duration";

/** The input is larger (bytes) or longer (seconds) than the caller allows; nothing was decoded past the bound. */
export class AudioLimitError extends Error {
  constructor(
    readonly limit: AudioLimit,
    /** The caller's bound: bytes or seconds. */
    readonly max: number,
    /** What the input has (or, for a file that lies about its length, at least has). */
    readonly actual: number,
  ) {
    super(limit === "bytes" ? `Audio file is larger than ${max} bytes` : `Audio is longer than ${max} seconds`);
    this.name = "AudioLimitError";
  }
}
