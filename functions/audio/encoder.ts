/**
 * Streaming encoders for every output_format. Each takes 16-bit mono PCM at the engine's rate,
 * resamples it (stateful, so chunk boundaries are seamless) and returns the bytes ready so far.
 * Pure and synchronous: usable on the request thread or inside an engine worker.
 */
import { parseOutputFormat, type OutputFormat } from "./formats.js";
import { encodeAlaw, encodeMulaw } from "./g711.js";
import { concatBytes } from "./bytes.js";
import { Mp3Stream } from "./mp3.js";
import { OggOpusStream } from "./opus.js";
import { Resampler, floatToInt16, int16ToFloat } from "./resample.js";
import { int16ToBytesLE, wavHeader } from "./wav.js";

export interface AudioEncoder {
  readonly format: OutputFormat;
  readonly contentType: string;
  /** Encodes more audio; may return an empty array while a codec fills a frame. */
  write(pcm: Int16Array): Uint8Array;
  /** Flushes and finishes the stream; call once. */
  end(): Uint8Array;
  /** Frees codec memory without finishing (abandoned requests). */
  close(): void;
}

export function createEncoder(format: OutputFormat | string, inputSampleRate: number): AudioEncoder {
  const f = typeof format === "string" ? parseOutputFormat(format) : format;
  const resampler = new Resampler(inputSampleRate, f.sampleRate);
  const toRate = (pcm: Int16Array): Float32Array => resampler.process(int16ToFloat(pcm));
  switch (f.codec) {
    case "mp3": {
      const mp3 = new Mp3Stream(f.sampleRate, f.bitrateKbps ?? 128);
      return encoder(f, {
        write: (pcm) => mp3.encode(toRate(pcm)),
        end: () => concatBytes([mp3.encode(resampler.flush()), mp3.finish()]),
        close: () => mp3.close(),
      });
    }
    case "opus": {
      const opus = new OggOpusStream(f.bitrateKbps ?? 64, { inputSampleRate });
      return encoder(f, {
        write: (pcm) => opus.encode(floatToInt16(toRate(pcm))),
        end: () => concatBytes([opus.encode(floatToInt16(resampler.flush())), opus.finish()]),
        close: () => opus.close(),
      });
    }
    case "pcm":
      return encoder(f, {
        write: (pcm) => int16ToBytesLE(floatToInt16(toRate(pcm))),
        end: () => int16ToBytesLE(floatToInt16(resampler.flush())),
      });
    case "ulaw":
    case "alaw": {
      const compand = f.codec === "ulaw" ? encodeMulaw : encodeAlaw;
      return encoder(f, {
        write: (pcm) => compand(floatToInt16(toRate(pcm))),
        end: () => compand(floatToInt16(resampler.flush())),
      });
    }
    case "wav": {
      // WAV is only served whole, so buffer and write exact sizes at the end.
      const parts: Uint8Array[] = [];
      return encoder(f, {
        write: (pcm) => {
          parts.push(int16ToBytesLE(floatToInt16(toRate(pcm))));
          return new Uint8Array(0);
        },
        end: () => {
          parts.push(int16ToBytesLE(floatToInt16(resampler.flush())));
          const data = concatBytes(parts);
          return concatBytes([wavHeader(f.sampleRate, data.length), data]);
        },
      });
    }
  }
}

function encoder(
  format: OutputFormat,
  impl: { write(pcm: Int16Array): Uint8Array; end(): Uint8Array; close?(): void },
): AudioEncoder {
  let ended = false;
  return {
    format,
    contentType: format.contentType,
    write(pcm) {
      if (ended) throw new Error("encoder already ended");
      return impl.write(pcm);
    },
    end() {
      if (ended) throw new Error("encoder already ended");
      ended = true;
      return impl.end();
    },
    close() {
      if (!ended) impl.close?.();
      ended = true;
    },
  };
}

/** Encodes a whole buffer in one go. */
export function encodeAll(format: OutputFormat | string, pcm: Int16Array, inputSampleRate: number): Uint8Array {
  const e = createEncoder(format, inputSampleRate);
  return concatBytes([e.write(pcm), e.end()]);
}
