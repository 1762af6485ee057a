/**
 * Encoding one chunk of speech on its own, so the chunks of one request can be encoded in
 * parallel (each on the worker that synthesised it) and still concatenate into one valid stream:
 * - PCM, µ-law, A-law: headerless samples; a chunk's bytes are its resampled samples.
 * - WAV: the chunk's PCM data; the caller writes one header for the whole file.
 * - MP3: a complete constant-bitrate MPEG stream per chunk. Frames of equal rate and bitrate,
 *   each stream starting with an empty bit reservoir, are one valid stream when concatenated.
 *   Every stream adds LAME's priming and its flush padding (about a frame and a half), so the
 *   chunk's trailing silence is cut by about that much to keep the pauses between sentences as
 *   long as in the PCM; `samples` is what a decoder produces, so timings can follow the audio.
 *   Served whole, the stream gets an Info frame (mp3WithInfoFrame) that drops the first
 *   segment's priming and ends it at the PCM's length (the sum of the chunks' `formatSamples`);
 *   the later segments' priming stays, in place of the silence cut from the tails before them.
 * - Opus (Ogg): not segmentable (one logical stream with granule positions); encoded in order.
 * Pure and deterministic: the bytes depend only on the chunk's samples and the format.
 */
import { concatBytes } from "./bytes.js";
import type { OutputFormat } from "./formats.js";
import { encodeAlaw, encodeMulaw } from "./g711.js";
import { Mp3Stream, mp3FrameSamples, mp3StreamSamples } from "./mp3.js";
import { Resampler, floatToInt16, int16ToFloat, upsampleHalfbandInt16 } from "./resample.js";
import { int16ToBytesLE } from "./wav.js";

export interface EncodedSegment {
  audio: Uint8Array;
  /** Samples at the format's rate that `audio` decodes to. */
  samples: number;
  /**
   * Samples of the chunk's PCM at the format's rate: the chunk's share of the PCM output of the
   * same request, and of the length a whole MP3 file's Info frame gives (mp3WithInfoFrame).
   */
  formatSamples: number;
}

/** Samples quieter than this (about -60 dBFS) count as silence when trimming a chunk's tail. */
const SILENCE = 1 / 1024;

export function isSegmentable(format: OutputFormat): boolean {
  return format.codec !== "opus";
}

function toRate(pcm: Int16Array, inputRate: number, outputRate: number): Float32Array {
  // The commonest case (eSpeak's 22,050 Hz to 44,100 Hz): the one-call half-band path, the same
  // samples as the streaming resampler gives.
  if (outputRate === 2 * inputRate) return upsampleHalfbandInt16(pcm);
  const r = new Resampler(inputRate, outputRate);
  const a = r.process(int16ToFloat(pcm));
  const b = r.flush();
  if (b.length === 0) return a;
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function silentTail(x: Float32Array): number {
  let i = x.length;
  while (i > 0 && Math.abs(x[i - 1]) < SILENCE) i--;
  return x.length - i;
}

/**
 * Seconds of an MP3 segment encoded first when the caller wants its head early (`onHead`): the
 * first chunk of a stream, whose whole encoding is most of the time to the first byte.
 */
export const HEAD_SECONDS = 0.4;

/**
 * `onHead` (MP3 only): called with the stream's first bytes (about HEAD_SECONDS of audio) as
 * soon as they are encoded; `audio` then holds only the bytes after them. Head and rest are the
 * same bytes as one call would give: LAME's output does not depend on how its input is split.
 */
export function encodeSegment(format: OutputFormat, pcm: Int16Array, inputRate: number, onHead?: (head: Uint8Array) => void): EncodedSegment {
  const x = toRate(pcm, inputRate, format.sampleRate);
  switch (format.codec) {
    case "pcm":
    case "wav":
      return { audio: int16ToBytesLE(floatToInt16(x)), samples: x.length, formatSamples: x.length };
    case "ulaw":
      return { audio: encodeMulaw(floatToInt16(x)), samples: x.length, formatSamples: x.length };
    case "alaw":
      return { audio: encodeAlaw(floatToInt16(x)), samples: x.length, formatSamples: x.length };
    case "mp3": {
      // LAME makes ceil(n / frame) + extra frames of n samples (priming and flush: one frame of
      // 1152 samples, two of 576): aim for the frame count nearest to the chunk's own length,
      // taking the difference from its trailing silence (never from speech).
      const frame = mp3FrameSamples(format.sampleRate);
      const extra = frame === 1152 ? 1 : 2;
      const frames = Math.max(extra + 1, Math.round(x.length / frame));
      const keep = Math.min(x.length, Math.max((frames - extra) * frame, x.length - silentTail(x), 1));
      const mp3 = new Mp3Stream(format.sampleRate, format.bitrateKbps ?? 128);
      let audio: Uint8Array;
      let head: Uint8Array = new Uint8Array(0);
      try {
        const cut = onHead ? Math.min(keep, Math.round(HEAD_SECONDS * format.sampleRate)) : 0;
        if (cut > 0) {
          head = mp3.encode(x.subarray(0, cut));
          if (head.length) onHead!(head.slice());
        }
        audio = concatBytes([mp3.encode(x.subarray(cut, keep)), mp3.finish()]);
      } finally {
        mp3.close();
      }
      return { audio, samples: mp3StreamSamples(head.length ? concatBytes([head, audio]) : audio), formatSamples: x.length };
    }
    case "opus":
      throw new Error("Ogg Opus is encoded as one stream, not in segments");
  }
}
