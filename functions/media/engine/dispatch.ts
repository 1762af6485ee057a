/**
 * The engine the product talks to when it has several embedded engines: each request goes to the
 * engine its voice profile names (`VoiceProfile.engine`, absent = eSpeak). A sequence (dialogue)
 * whose lines all use one engine goes to it whole; a mixed one is run line by line on each
 * line's engine, on one timeline, and encoded as one stream here.
 *
 * Engines other than the default are created by warm() or on their first request.
 */
import { parseOutputFormat, type OutputFormat, type OutputFormatId } from "../audio/formats.js";
import { encodeChunks, sequence } from "./encode-stream.js";
import type { EncodedChunk, EncodedSequenceChunk, EngineId, SequenceChunk, SpeechEngine, SynthesisChunk, SynthesisRequest } from "./port.js";

export type EngineCreators = Record<EngineId, () => SpeechEngine>;

export class DispatchingEngine implements SpeechEngine {
  readonly id = "timbre";
  readonly sampleRate: number;
  private readonly made = new Map<EngineId, SpeechEngine>();

  /** `defaultEngine` serves profiles without an engine field; every engine must run at its sample rate. */
  constructor(
    private readonly defaultEngine: SpeechEngine,
    private readonly creators: Partial<EngineCreators>,
  ) {
    this.sampleRate = defaultEngine.sampleRate;
    this.made.set("espeak", defaultEngine);
  }

  /** The engine a request is spoken by. */
  engineFor(req: SynthesisRequest): SpeechEngine {
    const id = req.voice.engine ?? "espeak";
    const have = this.made.get(id);
    if (have) return have;
    const create = this.creators[id];
    if (!create) throw new Error(`no engine ${id}`);
    const engine = create();
    if (engine.sampleRate !== this.sampleRate) throw new Error(`engine ${id} runs at ${engine.sampleRate} Hz, not ${this.sampleRate}`);
    this.made.set(id, engine);
    return engine;
  }

  synthesize(req: SynthesisRequest, signal?: AbortSignal): AsyncIterable<SynthesisChunk> {
    return this.engineFor(req).synthesize(req, signal);
  }

  synthesizeEncoded(req: SynthesisRequest, format: OutputFormat | OutputFormatId, signal?: AbortSignal): AsyncIterable<EncodedChunk> {
    return this.engineFor(req).synthesizeEncoded(req, format, signal);
  }

  synthesizeSequence(reqs: readonly SynthesisRequest[], signal?: AbortSignal): AsyncIterable<SequenceChunk> {
    const one = this.single(reqs);
    if (one) return one.synthesizeSequence(reqs, signal);
    return sequence((r, s) => this.synthesize(r, s), reqs, signal);
  }

  synthesizeSequenceEncoded(reqs: readonly SynthesisRequest[], format: OutputFormat | OutputFormatId, signal?: AbortSignal): AsyncIterable<EncodedSequenceChunk> {
    const one = this.single(reqs);
    if (one) return one.synthesizeSequenceEncoded(reqs, format, signal);
    // Mixed engines: PCM from each, one encoder for the whole stream (on this thread).
    const f = typeof format === "string" ? parseOutputFormat(format) : format;
    return encodeChunks(this.synthesizeSequence(reqs, signal), f);
  }

  /** Makes every engine ready (the premade English voices speak with flite: it is warmed at boot too). */
  async warm(): Promise<void> {
    for (const id of Object.keys(this.creators) as EngineId[]) this.engineFor({ voice: { engine: id } } as SynthesisRequest);
    await Promise.all([...this.made.values()].map((e) => e.warm()));
  }

  async close(): Promise<void> {
    await Promise.all([...this.made.values()].map((e) => e.close()));
  }

  languages(): Array<{ language_id: string; name: string }> {
    return this.defaultEngine.languages();
  }

  private single(reqs: readonly SynthesisRequest[]): SpeechEngine | null {
    const engines = new Set(reqs.map((r) => this.engineFor(r)));
    return engines.size <= 1 ? (engines.values().next().value ?? this.defaultEngine) : null;
  }
}
