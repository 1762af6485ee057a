/**
 * The embedded VoiceAnalyzer: every decode and analysis runs on the worker pool; the request
 * loop only checks the byte bound and copies the bytes it hands over.
 *
 *   const analyzer = createVoiceAnalyzer();
 *   const a = await analyzer.analyze(bytes, { maxBytes: 10_000_000, maxSeconds: 300 });
 *   await analyzer.close();
 */
import { AudioLimitError, DEFAULT_DECODE_LIMITS } from "../audio/decode/index.js";
import { AnalysisPool, type AnalysisPoolOptions } from "./pool.js";
import type { VoiceAnalyzer } from "./port.js";

/** A copy in a buffer of its own, so it can be moved to a worker without detaching the caller's. */
function own(bytes: Uint8Array): Uint8Array {
  return bytes.slice();
}

function checkBytes(bytes: Uint8Array, maxBytes = DEFAULT_DECODE_LIMITS.maxBytes): void {
  if (bytes.length > maxBytes) throw new AudioLimitError("bytes", maxBytes, bytes.length);
}

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
    async analyzeSamples(samples, sampleRate, o = {}) {
      const copy = samples.slice();
      return pool.run({ kind: "analyze-samples", samples: copy, sampleRate }, [copy.buffer as ArrayBuffer], o.signal);
    },
    async detectSpeech(samples, sampleRate, o = {}) {
      const copy = samples.slice();
      return pool.run({ kind: "detect", samples: copy, sampleRate }, [copy.buffer as ArrayBuffer], o.signal);
    },
    async embedSegments(samples, sampleRate, segments, o = {}) {
      const copy = samples.slice();
      return pool.run({ kind: "embed", samples: copy, sampleRate, segments: segments.map((s) => ({ start: s.start, end: s.end })) }, [copy.buffer as ArrayBuffer], o.signal);
    },
    close: () => pool.close(),
  };
}
