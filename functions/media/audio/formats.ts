/**
 * The `output_format` values of the wire contract, parsed into what an encoder needs.
 * Format ids are `codec_sampleRate[_bitrateKbps]`; only the listed combinations exist.
 */
export type Codec = "mp3" | "pcm" | "ulaw" | "alaw" | "opus" | "wav";

export interface OutputFormat {
  id: OutputFormatId;
  codec: Codec;
  sampleRate: number;
  /** Only for the lossy codecs (mp3, opus); null otherwise. */
  bitrateKbps: number | null;
  contentType: string;
}

export const STREAMING_OUTPUT_FORMATS = [
  "mp3_22050_32", "mp3_24000_48", "mp3_44100_32", "mp3_44100_64", "mp3_44100_96", "mp3_44100_128", "mp3_44100_192",
  "pcm_8000", "pcm_16000", "pcm_22050", "pcm_24000", "pcm_32000", "pcm_44100", "pcm_48000",
  "ulaw_8000", "alaw_8000",
  "opus_48000_32", "opus_48000_64", "opus_48000_96", "opus_48000_128", "opus_48000_192",
] as const;

/** Non-streaming endpoints also accept wav. */
export const OUTPUT_FORMATS = [
  ...STREAMING_OUTPUT_FORMATS,
  "wav_8000", "wav_16000", "wav_22050", "wav_24000", "wav_32000", "wav_44100", "wav_48000",
] as const;

export type OutputFormatId = (typeof OUTPUT_FORMATS)[number];

export const DEFAULT_OUTPUT_FORMAT: OutputFormatId = "mp3_44100_128";

const CONTENT_TYPES: Record<Codec, string> = {
  mp3: "audio/mpeg",
  pcm: "audio/pcm",
  ulaw: "audio/basic",
  alaw: "audio/x-alaw-basic",
  opus: "audio/ogg",
  wav: "audio/wav",
};

const KNOWN = new Set<string>(OUTPUT_FORMATS);

export function isOutputFormat(s: string): s is OutputFormatId {
  return KNOWN.has(s);
}

export class UnsupportedOutputFormatError extends Error {
  constructor(readonly value: string) {
    super(`Unsupported output_format: ${value}`);
    this.name = "UnsupportedOutputFormatError";
  }
}

export function parseOutputFormat(s: string): OutputFormat {
  if (!isOutputFormat(s)) throw new UnsupportedOutputFormatError(s);
  const [codec, rate, kbps] = s.split("_") as [Codec, string, string | undefined];
  return {
    id: s,
    codec,
    sampleRate: Number(rate),
    bitrateKbps: kbps === undefined ? null : Number(kbps),
    contentType: CONTENT_TYPES[codec],
  };
}
