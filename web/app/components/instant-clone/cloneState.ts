/**
 * The Instant Voice Clone dialog outside React: its steps and their names per mode, the samples
 * the user has (kept remote ones and new files), the checks of voice-creation.md §5 on them, and
 * the progress bar that is full at 180 s.
 */
import { MAX_SAMPLES, SAMPLE_MAX_BYTES, SAMPLE_MIN_SECONDS, SAMPLES_MAX_TOTAL_SECONDS, voiceMessages } from "../../../../functions/platform/contract/voices.js";
import { cloneMessages, IVC_GOAL_SECONDS, IVC_MIN_TOTAL_SECONDS } from "../../../../functions/platform/contract/voiceCreation.js";

export type CloneMode = "create" | "edit" | "verify";
export type CloneStep = "upload" | "info" | "verify" | "finish";

/** Upload Audio (Edit Audio when editing), Voice Information, Verification (Finish up once verified). */
export function stepNames(mode: CloneMode, verified: boolean): Record<Exclude<CloneStep, "finish">, string> {
  return { upload: mode === "edit" ? "Edit Audio" : "Upload Audio", info: "Voice Information", verify: verified ? "Finish up" : "Verification" };
}

export interface SampleItem {
  /** Remote samples have the voice's sample id; new ones a local id. */
  id: string;
  name: string;
  seconds: number | null;
  remote: boolean;
  file?: File;
  /** A recording made in the dialog (named recording.{ext}). */
  recorded?: boolean;
}

export function totalSeconds(samples: SampleItem[]): number {
  return samples.reduce((n, s) => n + (s.seconds ?? 0), 0);
}

/** The progress bar: full at 180 s, "Perfect!" once there. */
export function progress(samples: SampleItem[]): { fraction: number; label: string } {
  const total = totalSeconds(samples);
  const fraction = Math.min(1, total / IVC_GOAL_SECONDS);
  if (total >= IVC_GOAL_SECONDS) return { fraction: 1, label: cloneMessages.perfect };
  const m = Math.floor(total / 60);
  const s = Math.floor(total % 60);
  return { fraction, label: `${m}:${String(s).padStart(2, "0")} of ${IVC_GOAL_SECONDS / 60}:00 recommended` };
}

/** Why the samples cannot make a clone yet, or null. Editing with only remote samples is always complete. */
export function samplesProblem(samples: SampleItem[]): string | null {
  const fresh = samples.filter((s) => !s.remote);
  if (samples.length && !fresh.length) return null;
  if (samples.length > MAX_SAMPLES) return voiceMessages.tooManySamples;
  const short = fresh.find((s) => s.seconds !== null && s.seconds < SAMPLE_MIN_SECONDS);
  if (short) return voiceMessages.sampleTooShort(short.name);
  const total = totalSeconds(samples);
  if (total < IVC_MIN_TOTAL_SECONDS) return cloneMessages.tooLittleAudio;
  if (total >= SAMPLES_MAX_TOTAL_SECONDS) return voiceMessages.samplesTooLong;
  return null;
}

/**
 * What is wrong with the samples already, before Next: a file too short, too many files, too
 * much audio. (Too little audio in all is said at Next: the user may still be adding files.)
 */
export function samplesProblemNow(samples: SampleItem[]): string | null {
  const problem = samplesProblem(samples);
  return problem === cloneMessages.tooLittleAudio ? null : problem;
}

/** The uploader's checks of dropped files (app-shell.md §5): type, size; only the first three rejections are told. */
export function checkFiles(files: File[], existing: number, maxMb = SAMPLE_MAX_BYTES / 1024 / 1024): { accepted: File[]; errors: string[] } {
  const accepted: File[] = [];
  const errors: string[] = [];
  for (const f of files) {
    if (f.type && !/^(audio|video)\//.test(f.type)) errors.push(cloneMessages.fileNotSupported(f.name));
    else if (f.size > maxMb * 1048576) errors.push(cloneMessages.fileTooLargeMb(f.name, maxMb));
    else if (existing + accepted.length >= MAX_SAMPLES) errors.push(voiceMessages.tooManySamples);
    else accepted.push(f);
  }
  return { accepted, errors: errors.slice(0, 3) };
}

/** Whether the new files differ from those the last preview was made from. */
export function samplesKey(samples: SampleItem[]): string {
  return samples.map((s) => `${s.id}:${s.name}:${s.file?.size ?? ""}`).join("|");
}
