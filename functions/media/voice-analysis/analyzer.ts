/**
 * The embedded VoiceAnalyzer: every decode and analysis runs on the worker pool; the request
 * loop only checks the byte bound and copies the bytes it hands over.
 *
 *   const analyzer = createVoiceAnalyzer();
 *   const a = await analyzer.analyze(bytes, { maxBytes: 10_000_000, maxSeconds: 300 });
 *   await analyzer.close();
 */
// Not the decode index: the request loop must not load the WebAssembly codecs only workers use.
import { AudioLimitError } from "../audio/decode/errors.js";
import { DEFAULT_DECODE_LIMITS } from "../audio/decode/types.js";
import { AnalysisPool, type AnalysisPoolOptions } from "./pool.js";
import type { SpeechSegment, VoiceAnalyzer } from "./port.js";
import { isPieces } from "../audio/pieces.js";

/**
 * A copy in a buffer of its own, so it can be moved to a worker without detaching the caller's.
 * (Not `bytes.slice()`: on a Node Buffer that is a view of the same memory, and moving it would
 * detach the caller's Buffer and the pool it was cut from.)
 */
function own(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

/** The bytes themselves when they fill a buffer of their own (moved, not copied), else a copy. */
function movable(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? bytes : own(bytes);
}

function checkBytes(bytes: Uint8Array, maxBytes = DEFAULT_DECODE_LIMITS.maxBytes): void {
  if (bytes.length > maxBytes) throw new AudioLimitError("bytes", maxBytes, bytes.length);
}

/** Segments are caller data: bound their number and their total length (overlaps would multiply the work). */
export const MAX_SEGMENTS = 2000;

function checkSegments(segments: readonly SpeechSegment[], seconds: number): void {
  if (segments.length > MAX_SEGMENTS) throw new RangeError(`at most ${MAX_SEGMENTS} segments per call`);
  let total = 0;
  for (const s of segments) {
    if (!(Number.isFinite(s.start) && Number.isFinite(s.end) && s.end >= s.start)) throw new RangeError("a segment needs finite start <= end");
    total += Math.min(s.end, seconds) - Math.max(0, s.start);
  }
  if (total > 2 * seconds + 1) throw new RangeError("segments cover more than twice the audio");
}

/** The sentence and four decoys, each read by up to five voices (functions/capabilities/voice-verification/scoring.ts), with room. */
export const MAX_SENTENCE_CANDIDATES = 32;
export const MAX_SENTENCE_SECONDS = 40;

export function createVoiceAnalyzer(opts: AnalysisPoolOptions = {}): VoiceAnalyzer {
  const pool = new AnalysisPool(opts);
  return {
    async analyze(bytes, o = {}) {
      checkBytes(bytes, o.maxBytes);
      const copy = own(bytes);
      return pool.run({ kind: "analyze", bytes: copy, limits: { maxBytes: o.maxBytes, maxSeconds: o.maxSeconds } }, [copy.buffer as ArrayBuffer], o.signal);
    },
    async probe(bytes, o = {}) {
      checkBytes(bytes, o.maxBytes);
      const copy = own(bytes);
      return pool.run({ kind: "probe", bytes: copy }, [copy.buffer as ArrayBuffer], o.signal);
    },
    async decode(bytes, o = {}) {
      checkBytes(bytes, o.maxBytes);
      const copy = own(bytes);
      return pool.run({ kind: "decode", bytes: copy, limits: { maxBytes: o.maxBytes, maxSeconds: o.maxSeconds }, sampleRate: o.sampleRate }, [copy.buffer as ArrayBuffer], o.signal);
    },
    async decodeUpload(bytes, o = {}) {
      checkBytes(bytes, o.maxBytes);
      const moved = movable(bytes);
      return pool.run({ kind: "decode-upload", bytes: moved, limits: { maxBytes: o.maxBytes, maxSeconds: o.maxSeconds }, sampleRate: o.sampleRate }, [moved.buffer as ArrayBuffer], o.signal);
    },
    async measure(bytes, o) {
      checkBytes(bytes, o.maxBytes);
      const copy = own(bytes);
      return pool.run({ kind: "measure", bytes: copy, limits: { maxBytes: o.maxBytes, maxSeconds: o.maxSeconds }, sampleRate: o.sampleRate, points: o.points }, [copy.buffer as ArrayBuffer], o.signal);
    },
    async analyzeSamples(samples, sampleRate, o = {}) {
      const copy = samples.slice();
      return pool.run({ kind: "analyze-samples", samples: copy, sampleRate, ...(o.budget ? { budget: { windows: o.budget.windows, windowSecs: o.budget.windowSecs } } : {}) }, [copy.buffer as ArrayBuffer], o.signal);
    },
    async detectSpeech(samples, sampleRate, o = {}) {
      const copy = samples.slice();
      return pool.run({ kind: "detect", samples: copy, sampleRate }, [copy.buffer as ArrayBuffer], o.signal);
    },
    async embedSegments(samples, sampleRate, segments, o = {}) {
      checkSegments(segments, samples.length / sampleRate);
      const copy = samples.slice();
      return pool.run({ kind: "embed", samples: copy, sampleRate, segments: segments.map((s) => ({ start: s.start, end: s.end })) }, [copy.buffer as ArrayBuffer], o.signal);
    },
    async denoise(samples, sampleRate, o = {}) {
      const copy = samples.slice();
      return pool.run({ kind: "denoise", samples: copy, sampleRate, keepOriginal: o.keepOriginal ?? 0 }, [copy.buffer as ArrayBuffer], o.signal);
    },
    async sentenceCosts(recording, recordingRate, candidates, candidateRate, o = {}) {
      // Caller data: a bounded number of bounded utterances (the band keeps the warping linear in their length).
      if (candidates.length > MAX_SENTENCE_CANDIDATES) throw new RangeError(`at most ${MAX_SENTENCE_CANDIDATES} candidate readings`);
      if (recording.length > MAX_SENTENCE_SECONDS * recordingRate || candidates.some((c) => c.length > MAX_SENTENCE_SECONDS * candidateRate)) {
        throw new RangeError(`utterances are limited to ${MAX_SENTENCE_SECONDS} s`);
      }
      const rec = recording.slice();
      const cands = candidates.map((c) => c.slice());
      return pool.run({ kind: "sentence-costs", recording: rec, recordingRate, candidates: cands, candidateRate }, [rec.buffer as ArrayBuffer, ...cands.map((c) => c.buffer as ArrayBuffer)], o.signal);
    },
    async toWav(bytes, o = {}) {
      checkBytes(bytes, o.maxBytes);
      const copy = own(bytes);
      return pool.run({ kind: "wav", bytes: copy, limits: { maxBytes: o.maxBytes, maxSeconds: o.maxSeconds } }, [copy.buffer as ArrayBuffer], o.signal);
    },
    async joinAudio(sources, sampleRate, o) {
      if (o.wav && o.wav.length !== sources.length) throw new RangeError("one wav flag per source");
      // The arrays move: whole buffers are transferred as they are, views are copied first.
      const seen = new Set<ArrayBufferLike>();
      const own = (y: Float32Array) => {
        const whole = y.byteOffset === 0 && y.byteLength === y.buffer.byteLength && !seen.has(y.buffer) && y.buffer instanceof ArrayBuffer;
        const out = whole ? y : y.slice();
        seen.add(out.buffer);
        return out;
      };
      const moved = sources.map((a) => (isPieces(a) ? { ...a, parts: a.parts.map((p) => ({ from: p.from, y: own(p.y) })) } : own(a)));
      const transfer = [...seen] as ArrayBuffer[];
      return pool.run({ kind: "join", sources: moved, sampleRate, wav: o.wav ? [...o.wav] : sources.map(() => false), analyse: o.analyse ?? null }, transfer, o.signal);
    },
    close: () => pool.close(),
  };
}
