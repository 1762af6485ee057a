/**
 * The Piper engine: local Piper voices (an `.onnx` model and its `.onnx.json`, in the folder the
 * PIPER_VOICES_DIR setting names) behind the SpeechEngine port. Inference runs on onnxruntime in
 * worker threads (piper-worker.ts, each with an eSpeak NG phonemizer thread), one per core; text
 * is split into sentence chunks, the first yielded as soon as it is ready while the next run on
 * the other workers, as the flite engine does. A profile names its voice as `engineVoice`:
 * "KEY" (the file name without .onnx) or "KEY#SID" for a speaker of a multi-speaker model.
 *
 * The workers are started by the caller's `start` (infra/local: only the embedded server has a
 * voices folder).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, join } from "node:path";
import type { Worker } from "node:worker_threads";
import { parseOutputFormat, type OutputFormat, type OutputFormatId } from "../../audio/formats.js";
import { concatBytes } from "../../audio/bytes.js";
import { isSegmentable } from "../../audio/segment.js";
import { wavHeader } from "../../audio/wav.js";
import { Resampler } from "../../audio/resample.js";
import { WorkerPool, type PoolWorker } from "../../workers/pool.js";
import type { Alignment, EncodedChunk, EncodedSequenceChunk, SequenceChunk, SpeechEngine, SynthesisChunk, SynthesisRequest } from "../port.js";
import { EngineVoiceUnavailableError, SynthesisAbortedError } from "../port.js";
import { splitForSynthesis } from "../sentences.js";
import type { ChunkAlignment } from "../flite/alignment.js";
import { compileEspeak } from "../espeak/wasm.js";
import { hasPiperModels, VOICE_KEY } from "./catalog.js";
import type { FromWorker, PiperJob, PiperWorkerInit, ToWorker } from "./protocol.js";
import { PIPER_OUTPUT_RATE } from "./synth.js";
import { parsePiperConfig, type PiperConfig } from "./voice-config.js";

/** Text bytes per chunk: a sentence, or a clause of a long one. */
const MAX_CHUNK_COST = 400;
/** The first chunk is cut at a clause or word boundary so the first audio is early. */
const FIRST_CHUNK_COST = { standard: 60, fast: 36 } as const;
/** Same as the eSpeak engine's: a background chunk goes after every user's chunk. */
const BACKGROUND_PRIORITY = 2 ** 50;

export interface PiperEngineOptions {
  /** The voices folder. */
  dir: string;
  /** Starts one worker (infra/local/piper.ts). */
  start(init: PiperWorkerInit): Worker;
  /** Number of workers; defaults to the available cores. */
  size?: number;
}

/** A profile's engineVoice: "KEY" or "KEY#SID". */
export function parsePiperVoice(engineVoice: string | undefined): { key: string; sid: number | null } {
  const m = /^([^#]+)(?:#(\d{1,4}))?$/.exec(engineVoice ?? "");
  if (!m || !VOICE_KEY.test(m[1])) throw new Error(`not a Piper voice: ${JSON.stringify(engineVoice ?? null)}`);
  return { key: m[1], sid: m[2] === undefined ? null : Number(m[2]) };
}

export function piperEngineVoice(key: string, sid: number | null): string {
  return sid === null ? key : `${key}#${sid}`;
}

/**
 * The inference scales for a request: the voice's own (its json), speed dividing length_scale,
 * and stability scaling both noises (0.5, the default, keeps the voice's; 0 gives 1.5 times, 1
 * half of them).
 */
export function piperScales(config: Pick<PiperConfig, "noiseScale" | "lengthScale" | "noiseW">, settings: { speed: number; stability: number }): [number, number, number] {
  const speed = Math.min(4, Math.max(0.25, settings.speed || 1));
  const variation = 0.5 + (1 - Math.min(1, Math.max(0, settings.stability)));
  return [config.noiseScale * variation, config.lengthScale / speed, config.noiseW * variation];
}

type Reply = Extract<FromWorker, { kind: "synth-done" | "enc-done" }>;

interface Job {
  id: number;
  job: ToWorker;
  transfer: readonly [];
  priority: number;
  resolve(r: Reply): void;
  reject(e: Error): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class PiperEngine implements SpeechEngine {
  readonly id = "piper";
  readonly sampleRate = PIPER_OUTPUT_RATE;
  readonly size: number;
  private pool: WorkerPool<Job> | null = null;
  private started: Promise<void> | null = null;
  private closed = false;
  private nextId = 1;
  private nextSession = 1;

  private readonly configs = new Map<string, { mtimeMs: number; config: PiperConfig }>();

  constructor(private readonly opts: PiperEngineOptions) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
  }

  /** The voice's json, read again when its file changes. */
  private config(modelPath: string): PiperConfig {
    const jsonPath = `${modelPath}.json`;
    if (!existsSync(modelPath) || !existsSync(jsonPath)) {
      throw new EngineVoiceUnavailableError(`The Piper voice ${basename(modelPath, ".onnx")} is not installed on this server any more (its file was removed); the voice list is refreshed at the next start.`);
    }
    const mtimeMs = statSync(jsonPath).mtimeMs;
    const have = this.configs.get(modelPath);
    if (have && have.mtimeMs === mtimeMs) return have.config;
    const config = parsePiperConfig(readFileSync(jsonPath, "utf8"));
    this.configs.set(modelPath, { mtimeMs, config });
    return config;
  }

  /** Splits a request into chunk jobs (exported for tests); a phoneme span stays in one chunk. */
  planJobs(req: SynthesisRequest): Array<{ offset: number; job: PiperJob }> {
    const { key, sid } = parsePiperVoice(req.voice.engineVoice);
    const modelPath = join(this.opts.dir, `${key}.onnx`);
    const config = this.config(modelPath);
    if (sid !== null && sid >= config.numSpeakers) throw new EngineVoiceUnavailableError(`The Piper voice ${key} has no speaker ${sid}.`);
    const scales = piperScales(config, req.settings);
    const text = req.text;
    const spans = (req.phonemeSpans ?? []).filter((s) => s.start >= 0 && s.end <= text.length && s.end > s.start);
    const chunks = splitForSynthesis(text, { maxCost: MAX_CHUNK_COST, firstMaxCost: FIRST_CHUNK_COST[req.model.quality], keepTogether: spans });
    return chunks.map((c) => ({
      offset: c.start,
      job: {
        text: text.slice(c.start, c.end),
        modelPath,
        sid: config.numSpeakers > 1 ? (sid ?? 0) : null,
        scales,
        gainDb: req.settings.volume ?? 0,
        phonemeSpans: spans.filter((s) => s.start >= c.start && s.end <= c.end).map((s) => ({ ...s, start: s.start - c.start, end: s.end - c.start })),
      },
    }));
  }

  /**
   * Starts the workers, only when the folder holds a model (an install without Piper voices pays
   * nothing). Never fails: workers that cannot start (onnxruntime's binding missing) must not mark
   * the other engines unready; a Piper request then fails with the reason, and tries again.
   */
  warm(): Promise<void> {
    if (!this.started && !hasPiperModels(this.opts.dir)) return Promise.resolve();
    return this.start().catch(() => undefined);
  }

  private start(): Promise<void> {
    if (this.closed) return Promise.reject(new Error("piper engine closed"));
    this.started ??= (async () => {
      const espeak = await compileEspeak();
      if (this.closed) throw new Error("piper engine closed");
      this.pool = this.newPool(espeak);
      await this.pool.warm();
    })().catch(async (e: unknown) => {
      const pool = this.pool;
      this.pool = null;
      this.started = null;
      await pool?.close();
      throw e;
    });
    return this.started;
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
  }

  languages(): Array<{ language_id: string; name: string }> {
    return [];
  }

  async *synthesize(req: SynthesisRequest, signal?: AbortSignal): AsyncIterable<SynthesisChunk> {
    for await (const { chunk } of this.chunks([req], signal)) {
      const { requestIndex: _, ...rest } = chunk;
      yield rest;
    }
  }

  async *synthesizeEncoded(req: SynthesisRequest, format: OutputFormat | OutputFormatId, signal?: AbortSignal): AsyncIterable<EncodedChunk> {
    for await (const c of this.synthesizeSequenceEncoded([req], format, signal)) {
      const { requestIndex: _, ...rest } = c;
      yield rest;
    }
  }

  async *synthesizeSequence(reqs: readonly SynthesisRequest[], signal?: AbortSignal): AsyncIterable<SequenceChunk> {
    for await (const { chunk } of this.chunks(reqs, signal)) yield chunk;
  }

  async *synthesizeSequenceEncoded(reqs: readonly SynthesisRequest[], format: OutputFormat | OutputFormatId, signal?: AbortSignal): AsyncIterable<EncodedSequenceChunk> {
    const f = typeof format === "string" ? parseOutputFormat(format) : format;
    if (!reqs.some((r) => r.text)) return;
    if (isSegmentable(f)) {
      // Each chunk encoded on its own by the worker that made it (audio/segment.ts); WAV is held
      // and sent with one header at the end.
      const held: Uint8Array[] = [];
      for await (const { chunk, last, audio, samples } of this.chunks(reqs, signal, f)) {
        let bytes = audio!;
        if (f.codec === "wav") {
          held.push(bytes);
          if (last) {
            const data = concatBytes(held);
            bytes = concatBytes([wavHeader(f.sampleRate, data.length), data]);
          } else bytes = new Uint8Array(0);
        }
        yield { audio: bytes, requestIndex: chunk.requestIndex, textOffset: chunk.textOffset, alignment: chunk.alignment, samples };
      }
      return;
    }
    // Ogg Opus is one stream: an encoder session on one worker, fed in order.
    await this.start();
    const pool = this.pool!;
    const slot = pool.leastLoaded();
    const session = this.nextSession++;
    pool.post(slot, { kind: "enc-open", session, format: f.id, inputRate: this.sampleRate } satisfies ToWorker);
    let finished = false;
    try {
      let pcm = 0;
      let samples = 0;
      const background = reqs.some((r) => r.background);
      for await (const { chunk, index, last } of this.chunks(reqs, signal)) {
        pcm += chunk.pcm.length;
        const r = await this.submit({ kind: "enc-write", id: this.nextId++, session, pcm: chunk.pcm, final: last }, (background ? BACKGROUND_PRIORITY : 0) + index, signal, slot);
        if (r.kind !== "enc-done") throw new Error("unexpected piper worker reply");
        finished = last;
        const total = Resampler.outputLength(pcm, this.sampleRate, f.sampleRate);
        yield { audio: r.audio, requestIndex: chunk.requestIndex, textOffset: chunk.textOffset, alignment: chunk.alignment, samples: total - samples };
        samples = total;
      }
    } finally {
      if (!finished) pool.post(slot, { kind: "enc-close", session } satisfies ToWorker);
    }
  }

  private async *chunks(
    reqs: readonly SynthesisRequest[],
    signal?: AbortSignal,
    segment?: OutputFormat,
  ): AsyncGenerator<{ chunk: SequenceChunk; index: number; last: boolean; audio?: Uint8Array; samples?: number }> {
    const jobs = reqs.flatMap((req, requestIndex) => this.planJobs(req).map((j) => ({ ...j, requestIndex })));
    if (jobs.length === 0) return;
    await this.start();
    const background = reqs.some((r) => r.background);
    const lookahead = background ? 1 : this.size + 1;
    const base = background ? BACKGROUND_PRIORITY : 0;
    const stop = new AbortController();
    const jobSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    const pending = new Map<number, Promise<Reply>>();
    const launch = (i: number) => {
      if (i < jobs.length && !pending.has(i)) {
        const message: ToWorker = { kind: "synth", id: this.nextId++, job: jobs[i].job, ...(segment ? { segment: segment.id } : {}) };
        const p = this.submit(message, base + i, jobSignal);
        p.catch(() => {}); // awaited below in order
        pending.set(i, p);
      }
    };
    try {
      const rate = segment ? segment.sampleRate : this.sampleRate;
      let samples = 0;
      for (let i = 0; i < jobs.length; i++) {
        for (let k = i; k < i + lookahead; k++) launch(k);
        if (signal?.aborted) throw new SynthesisAbortedError();
        const r = await pending.get(i)!;
        pending.delete(i);
        if (r.kind !== "synth-done") throw new Error("unexpected piper worker reply");
        const offset = samples / rate;
        samples += segment ? r.audioSamples! : r.samples;
        yield {
          index: i,
          last: i === jobs.length - 1,
          audio: r.audio,
          samples: r.formatSamples,
          chunk: { pcm: r.pcm, sampleRate: this.sampleRate, requestIndex: jobs[i].requestIndex, textOffset: jobs[i].offset, alignment: toAlignment(r.alignment, offset) },
        };
      }
    } finally {
      stop.abort();
    }
  }

  private submit(message: ToWorker & { id: number }, priority: number, signal?: AbortSignal, slot?: PoolWorker): Promise<Reply> {
    if (signal?.aborted) return Promise.reject(new SynthesisAbortedError());
    const pool = this.pool;
    if (this.closed || !pool) return Promise.reject(new Error("piper engine closed"));
    return new Promise<Reply>((resolve, reject) => {
      const job: Job = { id: message.id, job: message, transfer: [], priority, resolve, reject, signal };
      if (signal) {
        job.onAbort = () => {
          pool.dequeue(job);
          reject(new SynthesisAbortedError());
        };
        signal.addEventListener("abort", job.onAbort, { once: true });
      }
      pool.submit(job, slot);
    });
  }

  private newPool(espeak: PiperWorkerInit["espeak"]): WorkerPool<Job> {
    const done = (job: Job) => {
      if (job.signal && job.onAbort) job.signal.removeEventListener("abort", job.onAbort);
    };
    return new WorkerPool<Job>({
      size: this.size,
      name: "piper engine",
      closedMessage: "piper engine closed",
      maxFailedStarts: 2,
      start: () => this.opts.start({ espeak }),
      message: (job) => job.job,
      onMessage: (job, m) => {
        const msg = m as FromWorker;
        if (msg.kind === "ready") return false;
        done(job);
        if (msg.kind === "error") job.reject(new Error(`piper worker: ${msg.message}`));
        else job.resolve(msg);
        return true;
      },
      fail: (job, e) => {
        done(job);
        job.reject(e);
      },
    });
  }
}

function toAlignment(a: ChunkAlignment, offset: number): Alignment {
  const ms = (s: number) => Math.round((offset + s) * 1000) / 1000;
  return { characters: a.characters, character_start_times_seconds: a.starts.map(ms), character_end_times_seconds: a.ends.map(ms) };
}

