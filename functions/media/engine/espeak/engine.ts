/**
 * The embedded speech engine: eSpeak NG in WebAssembly plus DSP, behind the SpeechEngine port.
 * Text is split into sentence chunks; chunk 0 is synthesised first and yielded as soon as it is
 * ready while the following chunks run on the other workers (a bounded lookahead keeps one long
 * request from starving others).
 */
import { parseOutputFormat, type OutputFormat, type OutputFormatId } from "../../audio/formats.js";
import type { Alignment, EncodedChunk, EncodedSequenceChunk, SequenceChunk, SpeechEngine, SynthesisChunk, SynthesisRequest } from "../port.js";
import { SynthesisAbortedError } from "../port.js";
import { splitForSynthesis, utf8Length, utf8UnitLength } from "../sentences.js";
import type { ChunkAlignment } from "./alignment.js";
import type { ChunkJob } from "./plan.js";
import { EspeakPool, EncoderSession as EspeakEncoderSession, type PoolOptions, type SynthResult } from "./pool.js";
import { concatBytes } from "../../audio/bytes.js";
import { isSegmentable } from "../../audio/segment.js";
import { wavHeader } from "../../audio/wav.js";
import { Resampler } from "../../audio/resample.js";
import { supportedLanguages } from "./voices.js";
import { ESPEAK_SAMPLE_RATE } from "./wasm.js";

/** Text bytes per chunk: leaves room in eSpeak's 999-byte line for markup and escapes. */
const MAX_CHUNK_COST = 420;
/**
 * The first chunk is cut at a clause or word boundary (~3 s of speech at most) so its audio,
 * encoded, is out in tens of milliseconds however long the first sentence is; the fast models
 * cut shorter still.
 */
const FIRST_CHUNK_COST = { standard: 60, fast: 36 } as const;

export interface EspeakEngineOptions extends PoolOptions {
  /**
   * Encode each chunk on the worker that synthesised it (default), or all of a request's chunks in
   * order on one worker, as before issue 14 (kept as the bench's same-run baseline).
   */
  parallelEncoding?: boolean;
}

export class EspeakEngine implements SpeechEngine {
  readonly id = "espeak-ng";
  readonly sampleRate = ESPEAK_SAMPLE_RATE;
  private readonly pool: EspeakPool;
  private readonly parallelEncoding: boolean;

  constructor(opts: EspeakEngineOptions = {}) {
    this.pool = new EspeakPool(opts);
    this.parallelEncoding = opts.parallelEncoding ?? true;
  }

  /** Number of worker threads (one per core unless configured). */
  get workers(): number {
    return this.pool.size;
  }

  warm(): Promise<void> {
    return this.pool.start();
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  languages(): Array<{ language_id: string; name: string }> {
    return supportedLanguages();
  }

  async *synthesize(req: SynthesisRequest, signal?: AbortSignal): AsyncIterable<SynthesisChunk> {
    for await (const { chunk } of this.chunks([req], signal)) yield withoutIndex(chunk);
  }

  async *synthesizeEncoded(req: SynthesisRequest, format: OutputFormat | OutputFormatId, signal?: AbortSignal): AsyncIterable<EncodedChunk> {
    for await (const c of this.synthesizeSequenceEncoded([req], format, signal)) yield withoutIndex(c);
  }

  async *synthesizeSequence(reqs: readonly SynthesisRequest[], signal?: AbortSignal): AsyncIterable<SequenceChunk> {
    for await (const { chunk } of this.chunks(reqs, signal)) yield chunk;
  }

  async *synthesizeSequenceEncoded(
    reqs: readonly SynthesisRequest[],
    format: OutputFormat | OutputFormatId,
    signal?: AbortSignal,
  ): AsyncIterable<EncodedSequenceChunk> {
    const f = typeof format === "string" ? parseOutputFormat(format) : format;
    if (!reqs.some((r) => r.text)) return;
    if (this.parallelEncoding && isSegmentable(f)) {
      yield* this.segments(reqs, f, signal);
      return;
    }
    const session = await this.pool.openEncoder(f.id, this.sampleRate);
    let finished = false;
    try {
      // Chunk 0 is encoded by the worker that synthesises it; later chunks, synthesised on any
      // worker, go to the session's worker in order. One encoder spans the whole sequence.
      // The encoder's samples at the format's rate: what its resampler makes of the PCM so far.
      let pcm = 0;
      let samples = 0;
      for await (const { chunk, index, last, audio } of this.chunks(reqs, signal, session)) {
        pcm += chunk.pcm.length; // before the write, which may hand the samples to the worker
        const bytes = audio ?? (await session.write(chunk.pcm, last, reqs.some((r) => r.background) ? BACKGROUND_PRIORITY + index : index, signal));
        finished = last;
        const total = Resampler.outputLength(pcm, this.sampleRate, f.sampleRate);
        yield { audio: bytes, requestIndex: chunk.requestIndex, textOffset: chunk.textOffset, alignment: chunk.alignment, samples: total - samples };
        samples = total;
      }
    } finally {
      if (!finished) session.close();
    }
  }

  /**
   * Every chunk encoded on its own by the worker that synthesised it, so a long request keeps
   * every core busy (audio/segment.ts says why the segments make one stream). Times follow the
   * encoded audio. WAV is one file with one header: its segments are held and sent at the end.
   */
  private async *segments(reqs: readonly SynthesisRequest[], f: OutputFormat, signal?: AbortSignal): AsyncIterable<EncodedSequenceChunk> {
    const held: Uint8Array[] = [];
    for await (const { chunk, last, audio, samples } of this.chunks(reqs, signal, { segment: f })) {
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
  }

  private async *chunks(
    reqs: readonly SynthesisRequest[],
    signal?: AbortSignal,
    encode?: EspeakEncoderSession | { segment: OutputFormat },
  ): AsyncGenerator<{ chunk: SequenceChunk; index: number; last: boolean; audio?: Uint8Array; samples?: number }> {
    const session = encode instanceof EspeakEncoderSession ? encode : undefined;
    const segment = encode && !(encode instanceof EspeakEncoderSession) ? encode.segment : undefined;
    const jobs = reqs.flatMap((req, requestIndex) => planJobs(req).map((j) => ({ ...j, requestIndex })));
    if (jobs.length === 0) return;
    await this.pool.start();
    const background = reqs.some((r) => r.background);
    // Streams take turns chunk by chunk (chunk 0 of any stream before chunk 5 of another); whole
    // answers go one after the other, behind the streams' chunks: `wholeOrder` numbers them.
    const whole = !background && reqs.every((r) => r.whole);
    // A whole answer queues more of its chunks ahead: with only the pool's size + 1, a worker that
    // finished one of its chunks while the answer waited for an earlier one found none of its
    // chunks queued (the next is queued once the earlier one is consumed) and took the next whole
    // answer's, so "one after the other" did not hold and the earlier answer ended later
    // (docs/decisions/2026-12-07-overload-storm-costs.md, last section). Bounded: results wait
    // here until consumed in order.
    const lookahead = background ? 1 : whole ? WHOLE_LOOKAHEAD_PER_WORKER * this.pool.size + 1 : this.pool.size + 1;
    const base = background ? BACKGROUND_PRIORITY : whole ? WHOLE_PRIORITY + wholeOrder++ * WHOLE_STRIDE : 0;
    const priority = (i: number) => base + i;
    // Our own abort too, so chunks queued for a consumer that stopped early are dropped.
    const stop = new AbortController();
    const jobSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    const pending = new Map<number, Promise<SynthResult>>();
    // An MP3 stream's first chunk hands out its first bytes (~0.4 s of audio) as soon as they are
    // encoded, before the rest of the chunk is: the time to the first byte (audio/segment.ts).
    const early = segment?.codec === "mp3" ? { head: null as Uint8Array | null, wake: () => {} } : null;
    const launch = (i: number) => {
      if (i < jobs.length && !pending.has(i)) {
        const inline = segment ? { segment: segment.id } : session && i === 0 ? { session, final: jobs.length === 1 } : undefined;
        const onHead = i === 0 && early ? (head: Uint8Array) => ((early.head = head), early.wake()) : undefined;
        const p = this.pool.synth(jobs[i].job, priority(i), jobSignal, inline, onHead);
        p.catch(() => {}); // awaited below in order; this avoids an unhandled rejection on abort
        pending.set(i, p);
      }
    };
    try {
      // The timeline: the engine's samples, or for segments the format's samples they decode to.
      const rate = segment ? segment.sampleRate : this.sampleRate;
      let samples = 0;
      for (let i = 0; i < jobs.length; i++) {
        for (let k = i; k < i + lookahead; k++) launch(k);
        if (signal?.aborted) throw new SynthesisAbortedError();
        if (i === 0 && early) {
          const headArrived = new Promise<void>((resolve) => (early.wake = resolve));
          await Promise.race([headArrived, pending.get(0)!.then(noop, noop)]);
          // The head message comes before the result's, so a finished chunk has handed its head already.
          if (early.head) {
            const none: ChunkAlignment = { characters: [], starts: [], ends: [] };
            yield { index: 0, last: false, audio: early.head, samples: 0, chunk: { pcm: new Int16Array(0), sampleRate: this.sampleRate, requestIndex: jobs[0].requestIndex, textOffset: jobs[0].offset, alignment: toAlignment(none, 0) } };
          }
        }
        const result = await pending.get(i)!;
        pending.delete(i);
        const offset = samples / rate;
        samples += segment ? result.audioSamples! : result.samples;
        yield {
          index: i,
          last: i === jobs.length - 1,
          audio: result.audio,
          samples: result.formatSamples,
          chunk: {
            pcm: result.pcm,
            sampleRate: this.sampleRate,
            requestIndex: jobs[i].requestIndex,
            textOffset: jobs[i].offset,
            alignment: toAlignment(result.alignment, offset),
          },
        };
      }
    } finally {
      stop.abort();
    }
  }
}

const noop = () => undefined;

/** Pool priorities are lower-first: a background chunk goes after every user's chunk, whatever its index. */
export const BACKGROUND_PRIORITY = 2 ** 50;
/** Whole answers: after every stream's chunk, each after the ones before it (2^50 / stride: billions of answers before they meet the background's). */
const WHOLE_PRIORITY = 1_000_000;
const WHOLE_STRIDE = 100_000;
/** A whole answer's chunks queued ahead of the one it waits for, per worker (see `chunks`). */
const WHOLE_LOOKAHEAD_PER_WORKER = 4;
let wholeOrder = 0;

function withoutIndex<T extends { requestIndex: number }>(c: T): Omit<T, "requestIndex"> {
  const { requestIndex: _, ...rest } = c;
  return rest;
}

function toAlignment(a: ChunkAlignment, offset: number): Alignment {
  // Milliseconds, like the hosted API; rounding a non-decreasing sequence keeps it non-decreasing.
  const ms = (s: number) => Math.round((offset + s) * 1000) / 1000;
  return { characters: a.characters, character_start_times_seconds: a.starts.map(ms), character_end_times_seconds: a.ends.map(ms) };
}

/** Splits the request into chunk jobs; exported for tests. */
export function planJobs(req: SynthesisRequest): Array<{ offset: number; job: ChunkJob }> {
  const text = req.text;
  const spans = (req.phonemeSpans ?? []).filter((s) => s.start >= 0 && s.end <= text.length && s.end > s.start);
  // Escapes and phoneme mnemonics take more room in the line than the characters they replace;
  // a span's extra is counted at its start (a chunk holds all of a span or none of it).
  const spanExtra = new Map<number, number>();
  for (const s of spans) spanExtra.set(s.start, (spanExtra.get(s.start) ?? 0) + 2 * utf8Length(s.phonemes) + 8);
  const unitCost = (i: number) => {
    const c = text.charCodeAt(i);
    return utf8UnitLength(text, i) + (c === 38 || c === 60 || c === 62 ? 4 : 0) + (spanExtra.get(i) ?? 0);
  };
  const chunks = splitForSynthesis(text, {
    maxCost: MAX_CHUNK_COST,
    firstMaxCost: FIRST_CHUNK_COST[req.model.quality],
    keepTogether: spans,
    unitCost,
  });
  const continues = !!req.nextText?.trim();
  return chunks.map((c, i) => ({
    offset: c.start,
    job: {
      text: text.slice(c.start, c.end),
      index: i,
      voice: req.voice,
      settings: req.settings,
      seed: req.seed,
      model: req.model,
      languageCode: req.languageCode ?? null,
      // The domain decides which spans a model honours; the engine speaks whatever it is given.
      phonemeSpans: spans.filter((s) => s.start >= c.start && s.end <= c.end).map((s) => ({ ...s, start: s.start - c.start, end: s.end - c.start })),
      // Every chunk but the last continues into the next; the last one if next_text follows.
      continuation: i < chunks.length - 1 || continues,
    },
  }));
}
