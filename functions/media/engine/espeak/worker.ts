/**
 * Engine worker: one eSpeak instance kept ready, plus encoders. The thread lives inside eSpeak's
 * main(): between lines it blocks on a shared counter and reads jobs synchronously from its
 * port, so no instance ever has to be created while a request waits.
 */
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { concatBytes } from "../../audio/bytes.js";
import { createEncoder, type AudioEncoder } from "../../audio/encoder.js";
import { parseOutputFormat } from "../../audio/formats.js";
import { encodeSegment } from "../../audio/segment.js";
import { applyGainDb } from "../../audio/gain.js";
import { alignChunk } from "./alignment.js";
import { processVoice } from "./dsp.js";
import { planChunk, type ChunkJob, type ChunkPlan } from "./plan.js";
import type { FromWorker, ToWorker, WorkerInit } from "./protocol.js";
import { runEspeak, type EspeakHost, type LineJob, type LineResult } from "./runtime.js";
import { ESPEAK_SAMPLE_RATE } from "./wasm.js";
import { lowerThisThreadPriority } from "../../workers/pool.js";

const init = workerData as WorkerInit;

// The engine's threads run at the request loop's own priority: the synthesis a user waits for
// must not lose the cores to the loop answering refusals or to the stores (at nice 10 it got a
// twelfth of their share: issue 24, docs/decisions/2026-11-28-overload-without-starvation.md).
// Background synthesis runs on a pool of its own whose threads lower their priority
// (platform/context.ts backgroundEngine), and after every user's chunk in this queue (engine.ts).
if (init.nice !== undefined) lowerThisThreadPriority(init.nice);
const wake = new Int32Array(init.wake);
let seen = 0;
const encoders = new Map<number, AudioEncoder>();
const langFiles = new Map<string, string>();

const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(m, transfer);

function nextMessage(): ToWorker {
  for (;;) {
    const m = receiveMessageOnPort(init.port);
    if (m) return m.message as ToWorker;
    // Sleeps until the main thread bumps the counter; the timeout only guards a lost wake-up.
    Atomics.wait(wake, 0, seen, 1000);
    seen = Atomics.load(wake, 0);
  }
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

// Compile the codec modules and run each hot path a little, so the first request does not pay
// for instantiation and runs on optimised code for its commonest path (MP3 segments at 44.1 kHz).
// Kept short: readiness waits for it on every start.
const warmSignal = Int16Array.from({ length: ESPEAK_SAMPLE_RATE }, (_, i) => Math.round(6000 * Math.sin(i / 7) * Math.sin(i / 900)));
for (let k = 0; k < 2; k++) encodeSegment(parseOutputFormat("mp3_44100_128"), warmSignal, ESPEAK_SAMPLE_RATE);
// Ogg Opus (its own libopus module) is left to its first use: few requests ask for it.
for (const f of ["mp3_22050_32", "pcm_16000", "ulaw_8000"] as const) {
  const e = createEncoder(f, ESPEAK_SAMPLE_RATE);
  e.write(warmSignal.subarray(0, ESPEAK_SAMPLE_RATE / 2));
  e.end();
}

const WARMUP: ChunkJob = {
  text: "Warming up the voice engine, one moment.",
  index: 0,
  voice: { language: "en", gender: "female", age: "young", pitch: 50, pitchRange: 50, rate: 170, timbre: 0.2, breathiness: 0.1, seed: 1 },
  settings: { stability: 0.3, similarity_boost: 0.75, style: 0.2, use_speaker_boost: true, speed: 1 },
  seed: 1,
  model: { id: "warmup", quality: "standard", supportsPhonemes: true },
  languageCode: null,
  phonemeSpans: [],
  continuation: false,
};
let warmups = 2;
interface Current {
  id: number;
  job: ChunkJob;
  plan: ChunkPlan;
  encode?: Extract<ToWorker, { kind: "synth" }>["encode"];
}
let current: Current | null = null;

function lineFor(plan: ChunkPlan, host: EspeakHost): LineJob {
  let contents = langFiles.get(plan.langFile);
  if (contents === undefined) {
    contents = host.readDataFile(`lang/${plan.langFile}`);
    langFiles.set(plan.langFile, contents);
  }
  return { line: plan.line.line, voiceFile: plan.voiceFile(contents) };
}

function encode(session: number, pcm: Int16Array, final: boolean): Uint8Array {
  const enc = encoders.get(session);
  if (!enc) throw new Error(`no encoder session ${session}`);
  let audio = enc.write(pcm);
  if (final) {
    audio = concatBytes([audio, enc.end()]);
    encoders.delete(session);
  }
  return audio;
}

function finish(c: Current, out: LineResult): void {
  const alignment = alignChunk(c.job.text, c.plan.line, out.events, out.pcm, ESPEAK_SAMPLE_RATE);
  const pcm = applyGainDb(processVoice(out.pcm, c.plan.dsp, ESPEAK_SAMPLE_RATE), c.job.settings.volume);
  if (c.id < 0) return;
  if (c.encode && "segment" in c.encode) {
    const onHead = c.encode.head ? (head: Uint8Array) => post({ kind: "synth-head", id: c.id, audio: head }, [head.buffer as ArrayBuffer]) : undefined;
    const { audio, samples, formatSamples } = encodeSegment(parseOutputFormat(c.encode.segment), pcm, ESPEAK_SAMPLE_RATE, onHead);
    post({ kind: "synth-done", id: c.id, pcm: new Int16Array(0), samples: pcm.length, alignment, audio, audioSamples: samples, formatSamples }, [audio.buffer as ArrayBuffer]);
    return;
  }
  const audio = c.encode ? encode(c.encode.session, pcm, c.encode.final) : undefined;
  post({ kind: "synth-done", id: c.id, pcm, samples: pcm.length, alignment, audio }, audio ? [pcm.buffer as ArrayBuffer, audio.buffer as ArrayBuffer] : [pcm.buffer as ArrayBuffer]);
}

function handle(msg: ToWorker, host: EspeakHost): LineJob | null | undefined {
  switch (msg.kind) {
    case "synth": {
      const plan = planChunk(msg.job);
      current = { id: msg.id, job: msg.job, plan, encode: msg.encode };
      return lineFor(plan, host);
    }
    case "enc-open":
      encoders.set(msg.session, createEncoder(msg.format, msg.inputRate));
      return undefined;
    case "enc-write": {
      const audio = encode(msg.session, msg.pcm, msg.final);
      post({ kind: "enc-done", id: msg.id, audio }, [audio.buffer as ArrayBuffer]);
      return undefined;
    }
    case "enc-close":
      encoders.get(msg.session)?.close();
      encoders.delete(msg.session);
      return undefined;
    case "exit":
      return null;
  }
}

/** Called by eSpeak each time it wants a line: finish the previous one, then wait for work. */
function nextLine(previous: LineResult | null, host: EspeakHost): LineJob | null {
  if (current && previous) {
    const c = current;
    current = null;
    try {
      finish(c, previous);
    } catch (e) {
      post({ kind: "error", id: c.id, message: errorText(e) });
    }
  }
  if (warmups > 0) {
    warmups--;
    const plan = planChunk({ ...WARMUP, index: warmups });
    current = { id: -1, job: WARMUP, plan };
    return lineFor(plan, host);
  }
  if (warmups === 0) {
    warmups = -1;
    post({ kind: "ready" });
  }
  for (;;) {
    const msg = nextMessage();
    try {
      const line = handle(msg, host);
      if (line !== undefined) return line;
    } catch (e) {
      current = null;
      if ("id" in msg) post({ kind: "error", id: msg.id, message: errorText(e) });
    }
  }
}

await runEspeak(init.build, nextLine, { fullReset: init.fullReset });
init.port.close();
