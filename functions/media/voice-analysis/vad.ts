/**
 * Voice activity from frame energies: a frame is active when it rises clearly above the
 * recording's own noise floor (its quietest frames), within 40 dB of its loud frames and above
 * an absolute floor (SPEECH_FLOOR_DB); short
 * gaps are bridged, blips dropped and segments padded, so a segment is a stretch of speech
 * between pauses. Segments are what speaker separation clusters and what the durations count.
 */
import { quantile } from "./dsp.js";

export interface SpeechSegment {
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
}

export interface VadOptions {
  /** Gaps shorter than this join their neighbours (seconds). */
  bridge?: number;
  /** Stretches shorter than this are dropped (seconds). */
  minSpeech?: number;
  /** Added before and after each segment (seconds). */
  pad?: number;
}

export const VAD_DEFAULTS: Required<VadOptions> = { bridge: 0.3, minSpeech: 0.1, pad: 0.05 };

/**
 * Nothing quieter than this is speech (frame mean square, dB of full scale): a recording of a
 * room with the microphone's gain down (around -70 dB) has no speech however its own levels
 * spread. Speech at a normal distance and gain is 30 dB or more above it; on the analysis
 * fixtures (engine speech, denoised or not) the relative threshold is -54 dB at the lowest, so
 * the floor changes nothing for them.
 */
export const SPEECH_FLOOR_DB = -60;

/** Energy threshold (dB) between the noise floor and the speech level of these frames. */
export function activityThreshold(energyDb: Float64Array): number {
  const floor = quantile(energyDb, 0.1);
  const loud = quantile(energyDb, 0.98);
  // A steady signal (one level throughout) is all activity if it is loud enough to be speech.
  if (loud - floor < 10) return Math.max(floor - 10, SPEECH_FLOOR_DB);
  // Halfway up the floor-to-speech span on noisy audio; on clean audio, 40 dB under the loud frames.
  return Math.max(floor + Math.max(6, 0.35 * (loud - floor)), loud - 40, SPEECH_FLOOR_DB);
}

/** Per-frame activity and the segments it makes; `hop` is the frame step in seconds. */
export function segmentsFrom(energyDb: Float64Array, hop: number, frameLength: number, totalSecs: number, opts: VadOptions = {}): { active: Uint8Array; segments: SpeechSegment[]; threshold: number } {
  const o = { ...VAD_DEFAULTS, ...opts };
  const active = new Uint8Array(energyDb.length);
  if (energyDb.length === 0) return { active, segments: [], threshold: 0 };
  const threshold = activityThreshold(energyDb);
  for (let i = 0; i < energyDb.length; i++) active[i] = energyDb[i] > threshold ? 1 : 0;
  const runs: Array<[number, number]> = [];
  for (let i = 0; i < active.length; ) {
    if (!active[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < active.length && active[j]) j++;
    runs.push([i, j]);
    i = j;
  }
  const merged: Array<[number, number]> = [];
  for (const r of runs) {
    const last = merged[merged.length - 1];
    if (last && (r[0] - last[1]) * hop < o.bridge) last[1] = r[1];
    else merged.push([r[0], r[1]]);
  }
  const segments: SpeechSegment[] = [];
  for (const [a, b] of merged) {
    const start = a * hop;
    const end = (b - 1) * hop + frameLength;
    if (end - start < o.minSpeech) continue;
    const s = { start: Math.max(0, start - o.pad), end: Math.min(totalSecs, end + o.pad) };
    const prev = segments[segments.length - 1];
    if (prev && s.start <= prev.end) prev.end = s.end;
    else segments.push(s);
  }
  return { active, segments: segments.map((s) => ({ start: round3(s.start), end: round3(s.end) })), threshold };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
