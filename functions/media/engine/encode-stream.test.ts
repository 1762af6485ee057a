import { describe, expect, it } from "vitest";
import { concatBytes } from "../audio/bytes.js";
import { encodeAll } from "../audio/encoder.js";
import { Resampler } from "../audio/resample.js";
import { encodeChunks, sequence } from "./encode-stream.js";
import type { SynthesisChunk, SynthesisRequest } from "./port.js";

function chunk(pcm: Int16Array, textOffset: number, text: string): SynthesisChunk {
  return {
    pcm,
    sampleRate: 22050,
    textOffset,
    alignment: { characters: [...text], character_start_times_seconds: [...text].map(() => 0), character_end_times_seconds: [...text].map(() => 0) },
  };
}

async function* stream(chunks: SynthesisChunk[]): AsyncIterable<SynthesisChunk> {
  for (const c of chunks) yield c;
}

describe("encodeChunks", () => {
  const a = Int16Array.from({ length: 5000 }, (_, i) => Math.round(9000 * Math.sin(i / 5)));
  const b = Int16Array.from({ length: 7000 }, (_, i) => Math.round(9000 * Math.sin(i / 9)));

  it("yields one encoded chunk per input chunk, the flush in the last, bytes equal to a one-shot encode", async () => {
    const out: Array<{ audio: Uint8Array; textOffset: number }> = [];
    for await (const e of encodeChunks(stream([chunk(a, 0, "Hi. "), chunk(b, 4, "Yo.")]), "mp3_44100_64")) out.push(e);
    expect(out.map((e) => e.textOffset)).toEqual([0, 4]);
    const whole = new Int16Array(a.length + b.length);
    whole.set(a);
    whole.set(b, a.length);
    expect(concatBytes(out.map((e) => e.audio))).toEqual(encodeAll("mp3_44100_64", whole, 22050));
  });

  it("says how many samples at the format's rate each chunk encodes: their sum is the PCM's length (a whole MP3's Info frame)", async () => {
    for (const id of ["mp3_44100_64", "mp3_24000_48", "pcm_16000"] as const) {
      const out: Array<{ samples?: number }> = [];
      for await (const e of encodeChunks(stream([chunk(a, 0, "Hi. "), chunk(b, 4, "Yo.")]), id)) out.push(e);
      const rate = Number(id.split("_")[1]);
      expect(out.reduce((n, e) => n + e.samples!, 0)).toBe(Resampler.outputLength(a.length + b.length, 22050, rate));
    }
  });

  it("yields nothing for an empty stream", async () => {
    const out = [];
    for await (const e of encodeChunks(stream([]), "pcm_16000")) out.push(e);
    expect(out).toEqual([]);
  });
});

describe("sequence", () => {
  it("puts requests on one timeline and tags each chunk with its request", async () => {
    const fake = (req: SynthesisRequest) =>
      stream([
        {
          ...chunk(new Int16Array(22050), 0, req.text),
          alignment: { characters: [...req.text], character_start_times_seconds: [...req.text].map((_, i) => i * 0.1), character_end_times_seconds: [...req.text].map((_, i) => i * 0.1 + 0.1) },
        },
      ]);
    const reqs = ["ab", "cd"].map((text) => ({ text }) as SynthesisRequest);
    const out = [];
    for await (const c of sequence(fake, reqs)) out.push(c);
    expect(out.map((c) => c.requestIndex)).toEqual([0, 1]);
    expect(out[1].alignment.character_start_times_seconds).toEqual([1, 1.1]);
    const encoded = [];
    for await (const e of encodeChunks(sequence(fake, reqs), "pcm_22050")) encoded.push(e);
    expect(encoded.map((e) => [e.requestIndex, e.audio.length])).toEqual([[0, 44100], [1, 44100]]);
  });
});
