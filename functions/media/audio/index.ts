export * from "./formats.js";
export { createEncoder, encodeAll, wholeAudio, wholeFile, type AudioEncoder } from "./encoder.js";
export { Resampler, resample, int16ToFloat, floatToInt16, type ResamplerOptions } from "./resample.js";
export { encodeMulaw, encodeAlaw, decodeMulaw, decodeAlaw } from "./g711.js";
export { decodeWav, encodeWav, wavHeader, WavFormatError, type DecodedAudio } from "./wav.js";
export { sniffAudioType, type SniffedAudioType } from "./sniff.js";
export { Mp3Stream } from "./mp3.js";
export { OggOpusStream } from "./opus.js";
export { concatBytes } from "./bytes.js";
export {
  decodeAudio,
  probeAudio,
  toAnalysisRate,
  ANALYSIS_SAMPLE_RATE,
  AudioDecodeError,
  AudioLimitError,
  UNREADABLE_AUDIO_MESSAGE,
  DEFAULT_DECODE_LIMITS,
  type AudioCodec,
  type AudioContainer,
  type AudioProbe,
  type DecodedAudioFile,
  type DecodeLimits,
  type DecodeOptions,
} from "./decode/index.js";
