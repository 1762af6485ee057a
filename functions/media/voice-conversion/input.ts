import { AudioDecodeError, AudioLimitError } from "../audio/decode/errors.js";
import { decodeAudio } from "../audio/decode/decode.js";
import { resample } from "../audio/resample.js";
import type { DecodedInfo, InputSpec } from "./protocol.js";

/** Raw input of file_format=pcm_s16le_16: 16-bit little-endian mono PCM at 16 kHz. */
export const RAW_PCM_RATE = 16_000;

/**
 * Decodes an upload to mono samples at `rate`, inside the bounds: bytes before anything is
 * read, seconds from the headers (or the raw size) before decoding, and again while decoding.
 */
export async function decodeInput(input: InputSpec, rate: number): Promise<{ samples: Float32Array; info: DecodedInfo }> {
  const { bytes, maxBytes, maxSeconds } = input;
  if (bytes.length > maxBytes) throw new AudioLimitError("bytes", maxBytes, bytes.length);
  if (input.fileFormat === "pcm_s16le_16") {
    if (bytes.length < 2 || bytes.length % 2) throw new AudioDecodeError("raw PCM needs an even, non-zero number of bytes");
    const frames = bytes.length / 2;
    if (frames / RAW_PCM_RATE > maxSeconds) throw new AudioLimitError("duration", maxSeconds, frames / RAW_PCM_RATE);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const pcm = new Float32Array(frames);
    for (let i = 0; i < frames; i++) pcm[i] = view.getInt16(2 * i, true) / 32768;
    const samples = rate === RAW_PCM_RATE ? pcm : resample(pcm, RAW_PCM_RATE, rate);
    return { samples, info: { durationSecs: frames / RAW_PCM_RATE, sampleRate: RAW_PCM_RATE, channels: 1, container: "pcm", codec: "pcm" } };
  }
  const d = await decodeAudio(bytes, { maxBytes, maxSeconds, sampleRate: rate });
  if (!d.samples.length) throw new AudioDecodeError("no audio samples");
  return { samples: d.samples, info: { durationSecs: d.durationSecs, sampleRate: d.sampleRate, channels: d.channels, container: d.container, codec: d.codec } };
}
