import type { CpuMessage } from "../../platform/offload/index.js";
import { runPasswordTask, type PasswordTask } from "../../platform/domain/passwords-work.js";
import { lexiconTask, type LexiconTask } from "../../capabilities/dictionaries/lexicon-task.js";
import { joinRanges, rangesToWav, separateSpeakers, waveformPeaks, type Range } from "../../capabilities/pvc/audioTasks.js";
import { alignRecording, fitLoss, type ReferenceReading } from "../../media/alignment/align.js";
import { liveSession, liveStep, type LiveSession } from "../../media/alignment/online.js";
import { resizePhoto, type PhotoTask } from "../../capabilities/account/photo-work.js";
import { captchaPng, type CaptchaTask } from "../../capabilities/voice-verification/captcha.js";
import { flacFromWav } from "../../media/audio/flac.js";

/**
 * The CPU-heavy pure functions the request path needs (hashing, parsing). Each takes and
 * returns structured-cloneable data, so it can run in a worker thread or inline unchanged.
 */
export const CPU_TASKS = {
  password: (t: PasswordTask) => runPasswordTask(t),
  lexicon: (t: LexiconTask) => lexiconTask(t),
  // The professional clone's audio work (functions/capabilities/pvc, functions/media/alignment, functions/capabilities/fine-tuning).
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
  /** FLAC for /openai/v1 (functions/capabilities/openai): a whole answer's WAV, losslessly. */
  flac: (t: { wav: Uint8Array }) => flacFromWav(t.wav),
};

type Tasks = typeof CPU_TASKS;
declare module "../../platform/offload/index.js" {
  // The table's types, so runCpu's callers are checked against each task's input and output.
  // eslint-disable-next-line @typescript-eslint/no-empty-interface
  interface CpuTaskTable extends Tasks {}
}

export function runTask(m: CpuMessage): Promise<unknown> {
  const fn = CPU_TASKS[m.kind as keyof Tasks] as ((input: unknown) => unknown) | undefined;
  if (!fn) return Promise.reject(new Error(`no CPU task ${m.kind}`));
  return Promise.resolve(fn(m.input));
}
