/**
 * Streaming encoders for every output_format. Each takes 16-bit mono PCM at the engine's rate,
 * resamples it (stateful, so chunk boundaries are seamless) and returns the bytes ready so far.
 * Pure and synchronous: usable on the request thread or inside an engine worker.
 */
import { parseOutputFormat, type OutputFormat } from "./formats.js";
import { encodeAlaw, encodeMulaw } from "./g711.js";
import { concatBytes } from "./bytes.js";
import { Mp3Stream, mp3WithInfoFrame } from "./mp3.js";
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
  /** Samples at the format's rate encoded so far (the flush's too once ended): the PCM's length. */
  readonly samples: number;
}

export function createEncoder(format: OutputFormat | string, inputSampleRate: number): AudioEncoder {
  const f = typeof format === "string" ? parseOutputFormat(format) : format;
  const resampler = new Resampler(inputSampleRate, f.sampleRate);
  let samples = 0;
  const counted = (x: Float32Array): Float32Array => ((samples += x.length), x);
  const toRate = (pcm: Int16Array): Float32Array => counted(resampler.process(int16ToFloat(pcm)));
  const flush = (): Float32Array => counted(resampler.flush());
  const count = () => samples;
  switch (f.codec) {
    case "mp3": {
      const mp3 = new Mp3Stream(f.sampleRate, f.bitrateKbps ?? 128);
      return encoder(f, count, {
        write: (pcm) => mp3.encode(toRate(pcm)),
        end: () => concatBytes([mp3.encode(flush()), mp3.finish()]),
        close: () => mp3.close(),
      });
    }
    case "opus": {
      const opus = new OggOpusStream(f.bitrateKbps ?? 64, { inputSampleRate });
      return encoder(f, count, {
        write: (pcm) => opus.encode(floatToInt16(toRate(pcm))),
        end: () => concatBytes([opus.encode(floatToInt16(flush())), opus.finish()]),
        close: () => opus.close(),
      });
    }
    case "pcm":
      return encoder(f, count, {
        write: (pcm) => int16ToBytesLE(floatToInt16(toRate(pcm))),
        end: () => int16ToBytesLE(floatToInt16(flush())),
      });
    case "ulaw":
    case "alaw": {
      const compand = f.codec === "ulaw" ? encodeMulaw : encodeAlaw;
      return encoder(f, count, {
        write: (pcm) => compand(floatToInt16(toRate(pcm))),
        end: () => compand(floatToInt16(flush())),
      });
    }
    case "wav": {
      // WAV is only served whole, so buffer and write exact sizes at the end.
      const parts: Uint8Array[] = [];
      return encoder(f, count, {
        write: (pcm) => {
          parts.push(int16ToBytesLE(floatToInt16(toRate(pcm))));
          return new Uint8Array(0);
        },
        end: () => {
          parts.push(int16ToBytesLE(floatToInt16(flush())));
          const data = concatBytes(parts);
          return concatBytes([wavHeader(f.sampleRate, data.length), data]);
        },
      });
    }
  }
}

function encoder(
  format: OutputFormat,
  samples: () => number,
  impl: { write(pcm: Int16Array): Uint8Array; end(): Uint8Array; close?(): void },
): AudioEncoder {
  let ended = false;
  return {
    format,
    contentType: format.contentType,
    get samples() {
      return samples();
    },
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

/**
 * An encoded stream made a file to hand out whole (a non-streaming answer, a stored file): MP3
 * gets its Info frame, so decoders drop the encoder's delay and padding and play exactly
 * `samples` samples (mp3WithInfoFrame); the other formats are files as they are. `samples`: at
 * the format's rate, of the PCM the stream encodes (AudioEncoder.samples, or the sum of the
 * engine's chunks' `samples`); unknown, the MP3 stays as it is.
 */
export function wholeFile(format: OutputFormat | string, audio: Uint8Array | readonly Uint8Array[], samples: number | undefined): Uint8Array {
  const f = typeof format === "string" ? parseOutputFormat(format) : format;
  const bytes = audio instanceof Uint8Array ? audio : concatBytes(audio);
  return f.codec === "mp3" && samples !== undefined ? mp3WithInfoFrame(bytes, samples) : bytes;
}

/**
 * Encoded chunks (an engine's, with the `samples` each encodes) as one file to hand out whole:
 * an MP3 gets its Info frame when every chunk said how many samples it encodes.
 */
export function wholeAudio(format: OutputFormat | string, chunks: ReadonlyArray<{ audio: Uint8Array; samples?: number }>): Uint8Array {
  const samples = chunks.every((c) => c.samples !== undefined) ? chunks.reduce((n, c) => n + c.samples!, 0) : undefined;
  return wholeFile(format, chunks.map((c) => c.audio), samples);
}

/** Encodes a whole buffer in one go (the bare stream: for a file, see wholeFile). */
export function encodeAll(format: OutputFormat | string, pcm: Int16Array, inputSampleRate: number): Uint8Array {
  const e = createEncoder(format, inputSampleRate);
  return concatBytes([e.write(pcm), e.end()]);
}
