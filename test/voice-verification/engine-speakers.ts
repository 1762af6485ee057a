import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where scripts/voice-verification-engine-speakers.ts writes the engine speakers' embeddings. */
export const ENGINE_SPEAKERS_DIR = join(tmpdir(), "timbre-engine-speakers");

/** One designed engine speaker of the calibration sets, as embeddings (the analysis of each recording). */
export interface EngineSpeaker {
  name: string;
  language: string;
  gender: string;
  /** The samples (three tuning passages, denoised). */
  samples: number[];
  /** The fitted clone's reading of the speaker's challenge sentence. */
  reading: number[];
  /** The speaker's own readings: [0] of the sentence (the calibration script's), then others (tune set only). */
  genuine: number[][];
  /** The speaker's readings recorded through the browser's path: [0] of the sentence, then others (tune set only). */
  browser: number[][];
  /** Every other speaker of the set reading the same sentence. */
  impostors: Array<{ index: number; embedding: number[] }>;
}

export function loadEngineSpeakers(split: "tune" | "heldout", n = 24): EngineSpeaker[] | undefined {
  const p = join(ENGINE_SPEAKERS_DIR, `${split}-${n}.json`);
  return existsSync(p) ? (JSON.parse(readFileSync(p, "utf8")) as EngineSpeaker[]) : undefined;
}
