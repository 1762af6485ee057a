/**
 * The CPU work the professional clone does on decoded audio, as pure functions that run on the
 * CPU workers (functions/platform/offload): waveform peaks for the sample list, cutting and joining
 * stretches of a sample into a WAV (previews, one speaker's audio, the training set), and speaker
 * separation itself. Inputs and outputs are typed arrays and plain data.
 */
import { toAnalysisRate } from "../../media/audio/decode/rate.js";
import { floatToInt16 } from "../../media/audio/resample.js";
import { encodeWav } from "../../media/audio/wav.js";
import { diarize, type DiarizedSpeaker } from "../../media/separation/diarize.js";
import { frameFeatures } from "../../media/separation/features.js";

/** The loudest absolute sample in each of `points` equal stretches, 0..1 (rounded to 3 decimals). */
export function waveformPeaks(samples: Float32Array, points: number): number[] {
  const n = Math.max(1, Math.min(points, samples.length));
  const out = new Array<number>(n).fill(0);
  for (let p = 0; p < n; p++) {
    const a = Math.floor((p * samples.length) / n);
    const b = Math.floor(((p + 1) * samples.length) / n);
    let m = 0;
    for (let i = a; i < b; i++) {
      const v = Math.abs(samples[i]);
      if (v > m) m = v;
    }
    out[p] = Math.round(Math.min(1, m) * 1000) / 1000;
  }
  return samples.length ? out : [];
}

export interface Range {
  start: number;
  end: number;
}

/** The given stretches (seconds) of a signal, joined in order; at most `maxSeconds` in all. */
export function joinRanges(samples: Float32Array, rate: number, ranges: readonly Range[], maxSeconds = Infinity): Float32Array {
  const cut: Array<[number, number]> = [];
  let total = 0;
  const limit = Math.floor(maxSeconds * rate);
  for (const r of ranges) {
    const a = Math.max(0, Math.min(samples.length, Math.floor(r.start * rate)));
    const b = Math.max(a, Math.min(samples.length, Math.ceil(r.end * rate)));
    const take = Math.min(b - a, limit - total);
    if (take <= 0) break;
    cut.push([a, a + take]);
    total += take;
  }
  const out = new Float32Array(total);
  let at = 0;
  for (const [a, b] of cut) {
    out.set(samples.subarray(a, b), at);
    at += b - a;
  }
  return out;
}

/** A 16-bit mono WAV of the given stretches. */
export function rangesToWav(samples: Float32Array, rate: number, ranges: readonly Range[], maxSeconds = Infinity): { wav: Uint8Array; seconds: number } {
  const joined = joinRanges(samples, rate, ranges, maxSeconds);
  return { wav: encodeWav(floatToInt16(joined), rate), seconds: joined.length / rate };
}

/** Who speaks when in a recording (functions/media/separation). */
export function separateSpeakers(samples: Float32Array, rate: number): DiarizedSpeaker[] {
  return diarize(frameFeatures(toAnalysisRate(samples, rate)));
}
