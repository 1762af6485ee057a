/**
 * Port helpers for engines without workers of their own (a remote neural engine adapter, for
 * instance): a request sequence on one timeline, and encoding on the current thread.
 */
import { concatBytes } from "../audio/bytes.js";
import { createEncoder } from "../audio/encoder.js";
import type { OutputFormat, OutputFormatId } from "../audio/formats.js";
import type { EncodedChunk, SequenceChunk, SynthesisChunk, SynthesisRequest } from "./port.js";

/** Runs requests one after another, shifting each request's times by the audio before it. */
export async function* sequence(
  synthesize: (req: SynthesisRequest, signal?: AbortSignal) => AsyncIterable<SynthesisChunk>,
  reqs: readonly SynthesisRequest[],
  signal?: AbortSignal,
): AsyncIterable<SequenceChunk> {
  let seconds = 0;
  for (let requestIndex = 0; requestIndex < reqs.length; requestIndex++) {
    for await (const c of synthesize(reqs[requestIndex], signal)) {
      const shift = (t: number) => Math.round((t + seconds) * 1000) / 1000;
      const alignment = {
        characters: c.alignment.characters,
        character_start_times_seconds: c.alignment.character_start_times_seconds.map(shift),
        character_end_times_seconds: c.alignment.character_end_times_seconds.map(shift),
      };
      yield { ...c, alignment, requestIndex };
      seconds += c.pcm.length / c.sampleRate;
    }
  }
}

/**
 * Encodes a chunk stream; one chunk is held back so the last can carry the encoder's flush.
 * Extra fields of the chunks (such as `requestIndex`) are passed through.
 */
export async function* encodeChunks<C extends SynthesisChunk>(
  chunks: AsyncIterable<C>,
  format: OutputFormat | OutputFormatId,
): AsyncIterable<EncodedChunk & Omit<C, keyof SynthesisChunk>> {
  type Out = EncodedChunk & Omit<C, keyof SynthesisChunk>;
  let encoder: ReturnType<typeof createEncoder> | null = null;
  let held: { chunk: C; audio: Uint8Array; samples: number } | null = null;
  let done = false;
  const encoded = (chunk: C, audio: Uint8Array, samples: number): Out => {
    const { pcm: _pcm, sampleRate: _rate, ...rest } = chunk;
    return { ...rest, audio, samples } as Out;
  };
  try {
    for await (const chunk of chunks) {
      encoder ??= createEncoder(format, chunk.sampleRate);
      const before = encoder.samples;
      const audio = encoder.write(chunk.pcm);
      if (held) yield encoded(held.chunk, held.audio, held.samples);
      held = { chunk, audio, samples: encoder.samples - before };
    }
    if (held && encoder) {
      const before = encoder.samples;
      const audio = concatBytes([held.audio, encoder.end()]);
      done = true;
      yield encoded(held.chunk, audio, held.samples + encoder.samples - before);
    }
  } finally {
    if (!done) encoder?.close();
  }
}
