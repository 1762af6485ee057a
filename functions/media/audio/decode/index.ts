export { decodeAudio, measureAudio, probeAudio, type MeasuredAudio } from "./decode.js";
export { AudioDecodeError, AudioLimitError, UNREADABLE_AUDIO_MESSAGE, type AudioLimit } from "./errors.js";
export { DEFAULT_DECODE_LIMITS, type AudioCodec, type AudioContainer, type AudioProbe, type DecodedAudioFile, type DecodeLimits, type DecodeOptions } from "./types.js";
export { toAnalysisRate, ANALYSIS_SAMPLE_RATE } from "./rate.js";
