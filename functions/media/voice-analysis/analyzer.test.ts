import { createHash } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AudioDecodeError, AudioLimitError } from "../audio/decode/index.js";
import { encodeAll } from "../audio/encoder.js";
import { floatToInt16 } from "../audio/resample.js";
import { EspeakEngine } from "../engine/espeak/engine.js";
import { analyzeVoice } from "./analyze.js";
import { createVoiceAnalyzer } from "./analyzer.js";
import { PASSAGES } from "./fixtures/texts.js";
import { premadeVoices, speak } from "./fixtures/voices.js";
import { AnalysisAbortedError } from "./port.js";
import { joinPieces, joinWithGaps } from "../audio/pieces.js";
import { encodeWav } from "../audio/wav.js";

const engine = new EspeakEngine({ size: 1 });
const analyzer = createVoiceAnalyzer({ size: 2 });
const RATE = 22050;
let speech: Float32Array;
let mp3: Uint8Array;

beforeAll(async () => {
  const voice = premadeVoices().find((v) => v.name === "Lena")!.profile;
  speech = await speak(engine, voice, PASSAGES.de.heldOut.join(" "));
  mp3 = encodeAll("mp3_44100_128", floatToInt16(speech), RATE);
}, 60_000);
afterAll(async () => {
  await analyzer.close();
  await engine.close();
});

describe("createVoiceAnalyzer", () => {
  it("decodes and analyses uploaded bytes in a worker, saying what the file was", async () => {
    const a = await analyzer.analyze(mp3, { maxBytes: 5_000_000, maxSeconds: 120 });
    expect(a).toMatchObject({ container: "mp3", codec: "mp3", sampleRate: 44100, channels: 1 });
    expect(a.durationSecs).toBeCloseTo(speech.length / RATE, 1);
    expect(a.f0MedianHz!).toBeGreaterThan(150);
    expect(a.embedding).toHaveLength(60);
    expect(a.speechSecs).toBeGreaterThan(a.durationSecs * 0.6);
  });

  it("is deterministic: the same bytes give identical numbers on every worker", async () => {
    const runs = await Promise.all([analyzer.analyze(mp3), analyzer.analyze(mp3), analyzer.analyze(mp3)]);
    expect(JSON.stringify(runs[1])).toBe(JSON.stringify(runs[0]));
    expect(JSON.stringify(runs[2])).toBe(JSON.stringify(runs[0]));
    const samples = await analyzer.analyzeSamples(speech, RATE);
    expect(JSON.stringify(samples)).toBe(JSON.stringify(analyzeVoice(speech, RATE)));
  });

  it("analyses 16-bit PCM as the floats v / 32768 (engine output goes to the worker unconverted)", async () => {
    const pcm = Int16Array.from(speech, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32768))));
    const asFloats = Float32Array.from(pcm, (v) => v / 32768);
    const a = await analyzer.analyzeSamples(pcm, RATE);
    expect(a.speechSecs).toBeGreaterThan(0);
    expect(JSON.stringify(a)).toBe(JSON.stringify(analyzeVoice(asFloats, RATE)));
    // The sentence check takes the engine's readings the same way.
    const recording = asFloats.subarray(0, 4 * RATE);
    const readings = [pcm.subarray(0, 4 * RATE), pcm.subarray(4 * RATE, 8 * RATE)];
    const costs = await analyzer.sentenceCosts(recording, RATE, readings, RATE);
    expect(costs).toEqual(await analyzer.sentenceCosts(recording, RATE, readings.map((r) => Float32Array.from(r, (v) => v / 32768)), RATE));
    expect(costs[0]).toBeLessThan(costs[1]);
  });

  it("joins pieces, analyses and encodes WAVs in one worker job, with the bits of doing it here, moving the arrays", async () => {
    // Two sources: one signal in three overlapping pieces (as the denoiser returns them) and one
    // plain array given as a view (copied, since its buffer holds more).
    const length = speech.length;
    const overlap = 4000;
    const starts = [0, Math.floor(length / 3), Math.floor((2 * length) / 3)];
    const parts = starts.map((s, k) => ({ from: Math.max(0, s - overlap), y: speech.slice(Math.max(0, s - overlap), Math.min(length, (starts[k + 1] ?? length) + overlap)) }));
    const pieces = { length, starts, overlap, parts };
    const backing = speech.slice();
    const view = backing.subarray(RATE, 5 * RATE);
    const wantJoined = joinPieces(length, starts, overlap, parts);
    const wantAnalysis = analyzeVoice(joinWithGaps([wantJoined, view], 20 * RATE, Math.round(0.3 * RATE)), RATE);
    const wantWav = encodeWav(floatToInt16(wantJoined), RATE);
    const got = await analyzer.joinAudio([pieces, view], RATE, { wav: [true, false], analyse: { capSeconds: 20, gapSeconds: 0.3 } });
    expect(JSON.stringify(got.analysis)).toBe(JSON.stringify(wantAnalysis));
    expect(got.wavs[1]).toBeNull();
    expect(Buffer.from(got.wavs[0]!).equals(Buffer.from(wantWav))).toBe(true);
    // The pieces' whole buffers moved to the worker; the view's larger buffer stayed here intact.
    expect(parts.every((p) => p.y.length === 0)).toBe(true);
    expect(view.length).toBe(4 * RATE);
    expect(backing[RATE + 10]).toBe(speech[RATE + 10]);
    // Without analyse: WAVs only.
    const only = await analyzer.joinAudio([speech.slice(0, RATE)], RATE, { wav: [true] });
    expect(only.analysis).toBeNull();
    expect(Buffer.from(only.wavs[0]!).equals(Buffer.from(encodeWav(floatToInt16(speech.subarray(0, RATE)), RATE)))).toBe(true);
    await expect(analyzer.joinAudio([speech.slice(0, 10)], RATE, { wav: [true, false] })).rejects.toThrow(/one wav flag per source/);
  });

  it("decodes an upload it is handed without copying it here: the bytes go to a worker and come back, hashed there", async () => {
    const upload = Buffer.concat([Buffer.from(mp3)]);
    const buffer = upload.buffer;
    const plain = await analyzer.decode(mp3, { sampleRate: 16_000 });
    const d = await analyzer.decodeUpload(upload, { sampleRate: 16_000 });
    // Moved: the caller's Buffer was detached on the way and the same bytes came back.
    expect(buffer.byteLength).toBe(0);
    expect(Buffer.compare(Buffer.from(d.bytes), Buffer.from(mp3))).toBe(0);
    expect(d.sha256).toBe(createHash("sha256").update(mp3).digest("hex"));
    expect(d.durationSecs).toBe(plain.durationSecs);
    expect(d.samples).toEqual(plain.samples);
    // A view on a buffer it shares (a small Buffer cut from Node's pool) is copied, not moved.
    const small = Buffer.allocUnsafe(100).fill(0);
    expect(small.buffer.byteLength).toBeGreaterThan(small.byteLength);
    await expect(analyzer.decodeUpload(small)).rejects.toBeInstanceOf(AudioDecodeError);
    expect(small.byteLength).toBe(100);
  });

  it("refuses garbage with the spec's message and oversize input before any work", async () => {
    const garbage = new TextEncoder().encode("definitely not audio ".repeat(100));
    const e = await analyzer.analyze(garbage).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AudioDecodeError);
    expect((e as Error).message).toBe("Could not determine audio duration, try another file");
    const big = await analyzer.analyze(mp3, { maxBytes: 1000 }).catch((x: unknown) => x);
    expect(big).toBeInstanceOf(AudioLimitError);
    expect(big).toMatchObject({ limit: "bytes", max: 1000, actual: mp3.length });
    const long = await analyzer.analyze(mp3, { maxSeconds: 2 }).catch((x: unknown) => x);
    expect(long).toMatchObject({ name: "AudioLimitError", limit: "duration", max: 2 });
    const truncated = await analyzer.probe(mp3.subarray(0, 200)).catch((x: unknown) => x);
    expect(truncated).toBeInstanceOf(AudioDecodeError);
  });

  it("probes, decodes, finds speech and embeds segments", async () => {
    const probe = await analyzer.probe(mp3);
    expect(probe).toMatchObject({ container: "mp3", codec: "mp3" });
    const decoded = await analyzer.decode(mp3, { sampleRate: 16000 });
    expect(decoded.sampleRate).toBe(16000);
    expect(decoded.samples).toBeInstanceOf(Float32Array);
    const segments = await analyzer.detectSpeech(decoded.samples, 16000);
    expect(segments.length).toBeGreaterThan(0);
    const embeddings = await analyzer.embedSegments(decoded.samples, 16000, segments);
    expect(embeddings).toHaveLength(segments.length);
    expect(embeddings.every((e) => e.length === 60)).toBe(true);
    // Caller-given segments are bounded before any work.
    const whole = { start: 0, end: decoded.durationSecs };
    await expect(analyzer.embedSegments(decoded.samples, 16000, [whole, whole, whole])).rejects.toThrow("segments cover more than twice the audio");
    await expect(analyzer.embedSegments(decoded.samples, 16000, Array.from({ length: 2001 }, () => ({ start: 0, end: 0.1 })))).rejects.toThrow(RangeError);
  });

  it("aborts a queued or running job and keeps working afterwards", async () => {
    const controller = new AbortController();
    const jobs = [1, 2, 3].map(() => analyzer.analyzeSamples(speech, RATE, { signal: controller.signal }));
    controller.abort();
    for (const j of jobs) await expect(j).rejects.toBeInstanceOf(AnalysisAbortedError);
    await expect(analyzer.analyze(mp3, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AnalysisAbortedError);
    expect((await analyzer.analyzeSamples(speech, RATE)).embedding).toHaveLength(60);
  });

  it("runs off the request loop: the event loop stays responsive while analyses run", async () => {
    // The same work on this thread blocks the loop for the whole analysis; in the workers it does not.
    const inline = monitorEventLoopDelay({ resolution: 5 });
    inline.enable();
    await new Promise((r) => setTimeout(r, 20));
    analyzeVoice(speech, RATE);
    await new Promise((r) => setTimeout(r, 20));
    inline.disable();

    const pooled = monitorEventLoopDelay({ resolution: 5 });
    pooled.enable();
    await Promise.all([1, 2, 3, 4].map(() => analyzer.analyzeSamples(speech, RATE)));
    pooled.disable();
    // Compared with the blocked loop in the same run, not with a fixed number of milliseconds.
    expect(pooled.max).toBeLessThan(inline.max / 4);
  });

  it("refuses work once closed", async () => {
    const own = createVoiceAnalyzer({ size: 1 });
    await own.close();
    await expect(own.analyzeSamples(speech, RATE)).rejects.toThrow("voice analyzer closed");
  });
});
