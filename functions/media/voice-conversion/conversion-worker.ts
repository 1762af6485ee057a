/**
 * Voice-conversion worker: decodes uploads, converts or isolates them block by block and encodes
 * each block, posting encoded chunks as they are ready. Bundled for Lambda as
 * conversion-worker.js beside the function's bundle (infra/constructs/function.ts).
 */
import { parentPort } from "node:worker_threads";
import { AudioDecodeError, AudioLimitError } from "../audio/decode/errors.js";
import { createEncoder, type AudioEncoder } from "../audio/encoder.js";
import { floatToInt16, resample } from "../audio/resample.js";
import { isolateVoice } from "../audio/denoise/isolate.js";
import { loadFastRnnoise } from "../audio/denoise/rnnoise-fast.js";
import { RNNOISE_RATE } from "../audio/denoise/rnnoise.js";
import { convertSpeech } from "./convert.js";
import { decodeInput } from "./input.js";
import { measureVoice } from "./mapping.js";
import { WORK_RATE } from "./spectral.js";
import type { FromWorker, Job, ToWorker, WorkerError } from "./protocol.js";

const port = parentPort!;
const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
const cancelled = new Set<number>();

class Cancelled extends Error {}

/** Lets a cancel message in between blocks. */
const breathe = () => new Promise<void>((r) => setImmediate(r));

async function isolated(samples48: Float32Array, id: number): Promise<Float32Array> {
  const rn = await loadFastRnnoise();
  const out = new Float32Array(samples48.length);
  let o = 0;
  for (const block of isolateVoice(samples48, rn, { firstBlockSeconds: 5, blockSeconds: 5 })) {
    out.set(block, o);
    o += block.length;
    await breathe();
    if (cancelled.has(id)) throw new Cancelled();
  }
  return out;
}

async function stream(id: number, blocks: Iterable<Float32Array>, encoder: AudioEncoder, rate: number): Promise<void> {
  let seconds = 0;
  // Samples at the format's rate not yet reported with a chunk (an MP3 encoder may hold a block's bytes).
  let reported = 0;
  const samples = () => {
    const n = encoder.samples - reported;
    reported = encoder.samples;
    return n;
  };
  try {
    for (const block of blocks) {
      seconds += block.length / rate;
      const audio = encoder.write(floatToInt16(block));
      if (audio.length) post({ kind: "chunk", id, audio, seconds, samples: samples() }, [audio.buffer as ArrayBuffer]);
      await breathe();
      if (cancelled.has(id)) throw new Cancelled();
    }
    const tail = encoder.end();
    post({ kind: "chunk", id, audio: tail, seconds, samples: samples() }, [tail.buffer as ArrayBuffer]);
  } finally {
    encoder.close();
  }
}

async function run(id: number, job: Job): Promise<void> {
  switch (job.kind) {
    case "measure": {
      const x = job.sampleRate === WORK_RATE ? job.samples : resample(job.samples, job.sampleRate, WORK_RATE);
      post({ kind: "done", id, result: measureVoice(x, WORK_RATE) });
      return;
    }
    case "convert": {
      const rate = job.removeBackgroundNoise ? RNNOISE_RATE : WORK_RATE;
      const { samples, info } = await decodeInput(job.input, rate);
      post({ kind: "decoded", id, info });
      const x = job.removeBackgroundNoise ? resample(await isolated(samples, id), RNNOISE_RATE, WORK_RATE).subarray(0, Math.round((samples.length * WORK_RATE) / RNNOISE_RATE)) : samples;
      const blocks = convertSpeech(x, { target: job.target, settings: job.settings, seed: job.seed, firstBlockSeconds: job.firstBlockSeconds });
      await stream(id, blocks, createEncoder(job.format, WORK_RATE), WORK_RATE);
      post({ kind: "done", id });
      return;
    }
    case "isolate": {
      const { samples, info } = await decodeInput(job.input, RNNOISE_RATE);
      post({ kind: "decoded", id, info });
      const rn = await loadFastRnnoise();
      await stream(id, isolateVoice(samples, rn, { firstBlockSeconds: job.firstBlockSeconds }), createEncoder(job.format, RNNOISE_RATE), RNNOISE_RATE);
      post({ kind: "done", id });
      return;
    }
  }
}

function asWorkerError(e: unknown): WorkerError {
  if (e instanceof AudioDecodeError) return { name: "AudioDecodeError", reason: e.reason };
  if (e instanceof AudioLimitError) return { name: "AudioLimitError", limit: e.limit, max: e.max, actual: e.actual };
  return { name: "Error", message: e instanceof Error ? e.message : String(e) };
}

port.on("message", (m: ToWorker) => {
  if ("cancel" in m) {
    cancelled.add(m.id);
    return;
  }
  run(m.id, m.job).then(
    () => cancelled.delete(m.id),
    (e: unknown) => {
      const wasCancelled = cancelled.delete(m.id);
      post({ kind: "failed", id: m.id, error: wasCancelled ? { name: "Error", message: "cancelled" } : asWorkerError(e) });
    },
  );
});
post({ kind: "ready" });
