/**
 * Voice-analysis worker: decodes and analyses off the request loop. Bundled for Lambda as
 * analysis-worker.js beside the function's bundle (infra/constructs/function.ts).
 */
import { int16ToFloat } from "../audio/resample.js";
import { createHash } from "node:crypto";
import { parentPort } from "node:worker_threads";
import { lowerThisThreadPriority } from "../workers/pool.js";
import { AudioDecodeError, AudioLimitError, decodeAudio, measureAudio, probeAudio } from "../audio/decode/index.js";
import { analyzeVoice, analyzeVoiceBounded, detectSpeech, embedSegment } from "./analyze.js";
import { denoise } from "../audio/denoise/index.js";
import { sentenceCosts } from "./align.js";
import { floatToInt16 } from "../audio/resample.js";
import { encodeWav } from "../audio/wav.js";
import { joinWithGaps, materialise } from "../audio/pieces.js";
import type { FromWorker, Job, ToWorker, WorkerError } from "./protocol.js";

/** 16-bit PCM from the engine arrives as it is: the same floats as v / 32768, made here, off the request loop. */
const asFloat = (x: Float32Array | Int16Array): Float32Array => (x instanceof Int16Array ? int16ToFloat(x) : x);

// Analysis is batch work: a lower scheduling priority for this thread keeps the request loop
// (and the in-process stores) responsive on a busy machine. Linux only; elsewhere it runs as is.
lowerThisThreadPriority(10);

const port = parentPort!;
const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

async function run(job: Job): Promise<{ result: unknown; transfer: ArrayBuffer[] }> {
  switch (job.kind) {
    case "probe":
      return { result: probeAudio(job.bytes), transfer: [] };
    case "decode":
    case "decode-upload": {
      const d = await decodeAudio(job.bytes, { ...job.limits, sampleRate: job.sampleRate });
      // The samples may be a view on a larger buffer (trimmed Opus): send exactly them.
      const whole = d.samples.byteOffset === 0 && d.samples.byteLength === d.samples.buffer.byteLength && d.samples.buffer !== job.bytes.buffer;
      const samples = whole ? d.samples : d.samples.slice();
      if (job.kind === "decode") return { result: { ...d, samples }, transfer: [samples.buffer as ArrayBuffer] };
      // The upload goes back to its owner, with its hash.
      const sha256 = createHash("sha256").update(job.bytes).digest("hex");
      return { result: { ...d, samples, bytes: job.bytes, sha256 }, transfer: [samples.buffer as ArrayBuffer, job.bytes.buffer as ArrayBuffer] };
    }
    case "measure":
      return { result: await measureAudio(job.bytes, { ...job.limits, sampleRate: job.sampleRate, points: job.points }), transfer: [] };
    case "analyze": {
      const d = await decodeAudio(job.bytes, job.limits);
      const a = analyzeVoice(d.samples, d.sampleRate);
      return { result: { ...a, container: d.container, codec: d.codec, sampleRate: d.sampleRate, channels: d.channels }, transfer: [] };
    }
    case "analyze-samples":
      return { result: job.budget ? analyzeVoiceBounded(asFloat(job.samples), job.sampleRate, job.budget) : analyzeVoice(asFloat(job.samples), job.sampleRate), transfer: [] };
    case "detect":
      return { result: detectSpeech(job.samples, job.sampleRate), transfer: [] };
    case "embed":
      return { result: job.segments.map((s) => embedSegment(job.samples, job.sampleRate, s)), transfer: [] };
    case "sentence-costs":
      return { result: sentenceCosts(asFloat(job.recording), job.recordingRate, job.candidates.map(asFloat), job.candidateRate), transfer: [] };
    case "wav": {
      const d = await decodeAudio(job.bytes, job.limits);
      const wav = encodeWav(floatToInt16(d.samples), d.sampleRate);
      return { result: wav, transfer: [wav.buffer as ArrayBuffer] };
    }
    case "join": {
      const signals = job.sources.map(materialise);
      const analysis = job.analyse ? analyzeVoice(joinWithGaps(signals, job.analyse.capSeconds * job.sampleRate, Math.round(job.analyse.gapSeconds * job.sampleRate)), job.sampleRate) : null;
      const wavs = signals.map((x, i) => (job.wav[i] ? encodeWav(floatToInt16(x), job.sampleRate) : null));
      return { result: { analysis, wavs }, transfer: wavs.filter((w) => w !== null).map((w) => w.buffer as ArrayBuffer) };
    }
    case "denoise": {
      const out = await denoise(job.samples, job.sampleRate, { keepOriginal: job.keepOriginal });
      return { result: out, transfer: [out.buffer as ArrayBuffer] };
    }
  }
}

function asWorkerError(e: unknown): WorkerError {
  if (e instanceof AudioDecodeError) return { name: "AudioDecodeError", reason: e.reason };
  if (e instanceof AudioLimitError) return { name: "AudioLimitError", limit: e.limit, max: e.max, actual: e.actual };
  return { name: "Error", message: e instanceof Error ? e.message : String(e) };
}

port.on("message", (m: ToWorker) => {
  run(m.job).then(
    ({ result, transfer }) => post({ kind: "done", id: m.id, result }, transfer),
    (e: unknown) => post({ kind: "failed", id: m.id, error: asWorkerError(e) }),
  );
});
post({ kind: "ready" });
