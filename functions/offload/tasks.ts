import { runPasswordTask, type PasswordTask } from "../domain/passwords-work.js";
import { lexiconTask, type LexiconTask } from "../dictionaries/lexicon-task.js";
import { joinRanges, rangesToWav, separateSpeakers, waveformPeaks, type Range } from "../pvc/audioTasks.js";
import { alignRecording, fitLoss, type ReferenceReading } from "../alignment/align.js";
import { liveSession, liveStep, type LiveSession } from "../alignment/online.js";
import { resizePhoto, type PhotoTask } from "../account/photo-work.js";
import { captchaPng, type CaptchaTask } from "../voice-verification/captcha.js";

/**
 * The CPU-heavy pure functions the request path needs (hashing, parsing). Each takes and
 * returns structured-cloneable data, so it can run in a worker thread or inline unchanged.
 */
export const CPU_TASKS = {
  password: (t: PasswordTask) => runPasswordTask(t),
  lexicon: (t: LexiconTask) => lexiconTask(t),
  // The professional clone's audio work (functions/pvc, functions/alignment, functions/fine-tuning).
  peaks: (t: { samples: Float32Array; points: number }) => waveformPeaks(t.samples, t.points),
  wav: (t: { samples: Float32Array; rate: number; ranges: Range[]; maxSeconds?: number }) => rangesToWav(t.samples, t.rate, t.ranges, t.maxSeconds),
  /** One WAV per list of ranges, from one copy of the audio (a separated sample's speakers). */
  wavs: (t: { samples: Float32Array; rate: number; speakers: Range[][] }) => ({ wavs: t.speakers.map((ranges) => rangesToWav(t.samples, t.rate, ranges).wav) }),
  join: (t: { samples: Float32Array; rate: number; ranges: Range[] }) => joinRanges(t.samples, t.rate, t.ranges),
  separate: (t: { samples: Float32Array; rate: number }) => separateSpeakers(t.samples, t.rate),
  align: (t: { samples: Float32Array; rate: number; refs: ReferenceReading[] }) => alignRecording(t.samples, t.rate, t.refs),
  "fit-loss": (t: { samples: Float32Array; rate: number; texts: ReferenceReading[][] }) => fitLoss(t.samples, t.rate, t.texts),
  "live-open": (t: { readings: ReferenceReading[] }) => liveSession(t.readings),
  "live-align": (t: { session: LiveSession; samples: Float32Array }) => ({ words: liveStep(t.session, t.samples), session: t.session }),
  photo: (t: PhotoTask) => resizePhoto(t),
  captcha: (t: CaptchaTask) => captchaPng(t),
};

export type CpuTaskKind = keyof typeof CPU_TASKS;
export type CpuInput<K extends CpuTaskKind> = Parameters<(typeof CPU_TASKS)[K]>[0];
export type CpuOutput<K extends CpuTaskKind> = Awaited<ReturnType<(typeof CPU_TASKS)[K]>>;
export interface CpuMessage {
  kind: CpuTaskKind;
  input: unknown;
}

export function runTask(m: CpuMessage): Promise<unknown> {
  const fn = CPU_TASKS[m.kind] as (input: unknown) => unknown;
  return Promise.resolve(fn(m.input));
}
