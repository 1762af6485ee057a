/**
 * Piper worker: onnxruntime sessions for the voices it has spoken (a few kept, least recently
 * used dropped), an eSpeak NG phonemizer thread of its own (ipa-worker.ts), the level, resampling,
 * alignment and encoders. Jobs come as ordinary messages, one at a time (the pool gives a worker
 * its next job when it answers).
 */
import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { MessageChannel, parentPort, workerData, type Worker } from "node:worker_threads";
import type * as Ort from "onnxruntime-node";
import { concatBytes } from "../../audio/bytes.js";
import { createEncoder, type AudioEncoder } from "../../audio/encoder.js";
import { parseOutputFormat } from "../../audio/formats.js";
import { encodeSegment } from "../../audio/segment.js";
import { applyGainDb } from "../../audio/gain.js";
import { spawnWorker } from "../../workers/pool.js";
import type { IpaReply, IpaRequest, IpaWorkerInit } from "./ipa-worker.js";
import { clausePhonemes, phonemesToIds, splitClauses } from "./phonemes.js";
import type { FromWorker, PiperJob, PiperWorkerInit, ToWorker } from "./protocol.js";
import { alignPiper, espeakInput, PIPER_OUTPUT_RATE, toEnginePcm } from "./synth.js";
import { parsePiperConfig, type PiperConfig } from "./voice-config.js";

const init = workerData as PiperWorkerInit;
const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(m, transfer);
const encoders = new Map<number, AudioEncoder>();
/** Sessions kept per worker: a real voice's weights take 60 to 120 MB of memory each. */
const MAX_SESSIONS = 3;

const ort: typeof Ort = (await import("onnxruntime-node")).default ?? (await import("onnxruntime-node"));

// ---- the phonemizer thread -------------------------------------------------------------------
const channel = new MessageChannel();
const wake = new SharedArrayBuffer(4);
const wakeView = new Int32Array(wake);
const ipaWaiting = new Map<number, { resolve(ipa: string[]): void; reject(e: Error): void }>();
let nextIpa = 1;
let ipaFailure: Error | null = null;
const ipaReady = new Promise<void>((resolve, reject) => {
  const worker: Worker = spawnWorker({ ts: new URL("./ipa-worker.ts", import.meta.url), js: new URL("./ipa-worker.js", import.meta.url) }, import.meta.url, {
    workerData: { build: init.espeak, port: channel.port2, wake } satisfies IpaWorkerInit,
    transferList: [channel.port2],
  });
  worker.on("message", (m: IpaReply) => {
    if (m.kind === "ready") return resolve();
    const w = ipaWaiting.get(m.id);
    ipaWaiting.delete(m.id);
    if (m.kind === "ipa") w?.resolve(m.ipa);
    else w?.reject(new Error(`eSpeak phonemizer: ${m.message}`));
  });
  const fail = (e: Error) => {
    // Without phonemes no job can run: the worker exits and the pool starts another.
    ipaFailure = e;
    reject(e);
    for (const w of ipaWaiting.values()) w.reject(e);
    process.exit(1);
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`eSpeak phonemizer exited (${code})`)));
});

function phonemize(voice: string, clauses: string[]): Promise<string[]> {
  if (ipaFailure) return Promise.reject(ipaFailure);
  const id = nextIpa++;
  return new Promise((resolve, reject) => {
    ipaWaiting.set(id, { resolve, reject });
    channel.port1.postMessage({ id, voice, clauses } satisfies IpaRequest);
    Atomics.add(wakeView, 0, 1);
    Atomics.notify(wakeView, 0);
  });
}

// ---- models ----------------------------------------------------------------------------------
interface Loaded {
  session: Ort.InferenceSession;
  config: PiperConfig;
  mtimeMs: number;
}
const sessions = new Map<string, Promise<Loaded>>();

async function load(modelPath: string): Promise<Loaded> {
  const mtimeMs = statSync(modelPath).mtimeMs;
  const have = sessions.get(modelPath);
  if (have) {
    const l = await have.catch(() => null);
    if (l && l.mtimeMs === mtimeMs) {
      sessions.delete(modelPath);
      sessions.set(modelPath, have); // most recently used last
      return l;
    }
    sessions.delete(modelPath);
    await l?.session.release();
  }
  const p = (async (): Promise<Loaded> => {
    const config = parsePiperConfig(await readFile(`${modelPath}.json`, "utf8"));
    // One thread per session: the pool already runs one worker per core.
    const session = await ort.InferenceSession.create(modelPath, { intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 3 });
    return { session, config, mtimeMs };
  })();
  sessions.set(modelPath, p);
  p.catch(() => sessions.delete(modelPath));
  while (sessions.size > MAX_SESSIONS) {
    const [oldest, op] = sessions.entries().next().value!;
    sessions.delete(oldest);
    void op.then((l) => l.session.release(), () => undefined);
  }
  return p;
}

async function synthesize(job: PiperJob) {
  const { session, config } = await load(job.modelPath);
  const clauses = splitClauses(job.text);
  const inputs = clauses.map((c) => espeakInput(job.text, c, job.phonemeSpans ?? []));
  const ipa = await phonemize(config.espeakVoice, inputs);
  const phonemes = clausePhonemes(clauses, ipa).join("");
  const { ids, phonemeAt, missing } = phonemesToIds(phonemes, config.phonemeIdMap);
  let audio: Float32Array<ArrayBufferLike> = new Float32Array(0);
  let durations: number[] | undefined;
  if (clauses.length > 0) {
    const feeds: Record<string, Ort.Tensor> = {
      input: new ort.Tensor("int64", BigInt64Array.from(ids, BigInt), [1, ids.length]),
      input_lengths: new ort.Tensor("int64", BigInt64Array.from([BigInt(ids.length)]), [1]),
      scales: new ort.Tensor("float32", Float32Array.from(job.scales), [3]),
    };
    if (session.inputNames.includes("sid")) feeds.sid = new ort.Tensor("int64", BigInt64Array.from([BigInt(job.sid ?? 0)]), [1]);
    const out = await session.run(feeds);
    const tensor = out[session.outputNames[0]];
    if (tensor.type !== "float32") throw new Error(`the model gave ${tensor.type} audio, not float32`);
    audio = tensor.data as Float32Array;
    // A voice patched for alignments gives each id's length (in frames) as a second output.
    const second = session.outputNames[1] ? out[session.outputNames[1]] : undefined;
    if (second && second.data.length === ids.length) durations = Array.from(second.data as ArrayLike<number | bigint>, Number);
  }
  const pcm = audio.length ? toEnginePcm(audio, config.sampleRate) : new Int16Array(0);
  const alignment = alignPiper(job.text, phonemes, phonemeAt, pcm.length / PIPER_OUTPUT_RATE, durations);
  return { pcm, alignment, missing: [...new Set(missing)] };
}

async function handle(msg: ToWorker): Promise<void> {
  switch (msg.kind) {
    case "synth": {
      const { pcm: raw, alignment, missing } = await synthesize(msg.job);
      const pcm = applyGainDb(raw, msg.job.gainDb);
      if (msg.segment) {
        const { audio, samples, formatSamples } = encodeSegment(parseOutputFormat(msg.segment), pcm, PIPER_OUTPUT_RATE);
        post({ kind: "synth-done", id: msg.id, pcm: new Int16Array(0), samples: pcm.length, alignment, audio, audioSamples: samples, formatSamples, missing }, [audio.buffer as ArrayBuffer]);
      } else post({ kind: "synth-done", id: msg.id, pcm, samples: pcm.length, alignment, missing }, [pcm.buffer as ArrayBuffer]);
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

// Messages are handled one after another (an encoder session's writes must stay in order).
let queue = Promise.resolve();
parentPort!.on("message", (msg: ToWorker) => {
  queue = queue.then(() =>
    handle(msg).catch((e: unknown) => {
      if ("id" in msg) post({ kind: "error", id: msg.id, message: e instanceof Error ? e.message : String(e) });
    }),
  );
});
await ipaReady;
post({ kind: "ready" });
