/**
 * Flite worker: one flite instance (wasi.ts) kept for every run, the DSP, alignment and encoders.
 * Jobs come as ordinary messages; each is answered before the next is read.
 */
import { parentPort, workerData } from "node:worker_threads";
import { concatBytes } from "../../audio/bytes.js";
import { createEncoder, type AudioEncoder } from "../../audio/encoder.js";
import { parseOutputFormat } from "../../audio/formats.js";
import { encodeSegment } from "../../audio/segment.js";
import { applyGainDb } from "../../audio/gain.js";
import { processVoice } from "../espeak/dsp.js";
import { synthesizeChunk } from "./synth.js";
import type { FromWorker, ToWorker, WorkerInit } from "./protocol.js";
import { FliteRuntime } from "./wasi.js";
import { FLITE_OUTPUT_RATE } from "./synth.js";
import { lowerThisThreadPriority } from "../../workers/pool.js";

const init = workerData as WorkerInit;
// A background pool's thread (platform/context.ts backgroundEngine): before its first synthesis.
if (init.nice !== undefined) lowerThisThreadPriority(init.nice);
const runtime = new FliteRuntime(init.module);
const encoders = new Map<number, AudioEncoder>();
const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(m, transfer);

// The first run of a voice pays for the JIT: speak a little with the two commonest bases.
for (const voice of ["slt", "rms"]) {
  synthesizeChunk(runtime, {
    text: "Warming up.",
    voice: { language: "en", gender: "female", age: "young", pitch: 50, pitchRange: 50, rate: 170, timbre: 0, seed: 1, engine: "flite", engineVoice: voice },
    settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 },
    seed: 1,
    index: 0,
  });
}

function handle(msg: ToWorker): void {
  switch (msg.kind) {
    case "synth": {
      const { pcm: raw, alignment, dsp } = synthesizeChunk(runtime, msg.job);
      const pcm = applyGainDb(processVoice(raw, dsp, FLITE_OUTPUT_RATE), msg.job.settings.volume);
      if (msg.segment) {
        const onHead = msg.head ? (head: Uint8Array) => post({ kind: "synth-head", id: msg.id, audio: head }, [head.buffer as ArrayBuffer]) : undefined;
        const { audio, samples, formatSamples } = encodeSegment(parseOutputFormat(msg.segment), pcm, FLITE_OUTPUT_RATE, onHead);
        post({ kind: "synth-done", id: msg.id, pcm: new Int16Array(0), samples: pcm.length, alignment, audio, audioSamples: samples, formatSamples }, [audio.buffer as ArrayBuffer]);
      } else post({ kind: "synth-done", id: msg.id, pcm, samples: pcm.length, alignment }, [pcm.buffer as ArrayBuffer]);
      return;
    }
    case "enc-open":
      encoders.set(msg.session, createEncoder(msg.format, msg.inputRate));
      return;
    case "enc-write": {
      const enc = encoders.get(msg.session);
      if (!enc) throw new Error(`no encoder session ${msg.session}`);
      let audio = enc.write(msg.pcm);
      if (msg.final) {
        audio = concatBytes([audio, enc.end()]);
        encoders.delete(msg.session);
      }
      post({ kind: "enc-done", id: msg.id, audio }, [audio.buffer as ArrayBuffer]);
      return;
    }
    case "enc-close":
      encoders.get(msg.session)?.close();
      encoders.delete(msg.session);
      return;
  }
}

parentPort!.on("message", (msg: ToWorker) => {
  try {
    handle(msg);
  } catch (e) {
    if ("id" in msg) post({ kind: "error", id: msg.id, message: e instanceof Error ? e.message : String(e) });
  }
});
post({ kind: "ready" });
