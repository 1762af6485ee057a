/**
 * Micro benchmark of the embedded speech engine: `node --import tsx scripts/engine-bench.ts`.
 * Prints figures and ratios for a 1,000-character English text; asserts nothing.
 */
import { availableParallelism } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Mp3Stream } from "../functions/media/audio/mp3.js";
import { Resampler, int16ToFloat } from "../functions/media/audio/resample.js";
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { profileFromLabels } from "../functions/media/engine/espeak/voices.js";
import type { SynthesisRequest } from "../functions/media/engine/port.js";
import { BENCH_TEXT as TEXT } from "./lib/bench-text.js";



const RUNS = 40;
const q = (v: number[], p: number) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(p * v.length))];
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function main(): Promise<void> {
  const engine = new EspeakEngine();
  const voice = profileFromLabels({ language: "en", accent: "american", gender: "female", age: "middle_aged" }, 11);
  const req: SynthesisRequest = {
    text: TEXT,
    voice,
    settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 },
    seed: 42,
    model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false },
  };
  console.log(`engine bench: ${TEXT.length} characters, ${engine.workers} workers on ${availableParallelism()} cores`);

  let t = performance.now();
  await engine.warm();
  console.log(`warm-up (compile + start workers + JIT): ${ms(performance.now() - t)}`);

  const pcmFirst: number[] = [];
  const pcmTotal: number[] = [];
  let audioSeconds = 0;
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    let first = 0;
    let samples = 0;
    for await (const c of engine.synthesize({ ...req, seed: i })) {
      first ||= performance.now() - t;
      samples += c.pcm.length;
    }
    pcmTotal.push(performance.now() - t);
    pcmFirst.push(first);
    audioSeconds = samples / engine.sampleRate;
  }
  const mp3First: number[] = [];
  const mp3Total: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    let first = 0;
    for await (const c of engine.synthesizeEncoded({ ...req, seed: i }, "mp3_44100_128")) {
      if (!first && c.audio.length) first = performance.now() - t;
    }
    mp3Total.push(performance.now() - t);
    mp3First.push(first);
  }
  console.log(`audio per run: ${audioSeconds.toFixed(1)} s`);
  console.log(`time to first chunk, PCM   (n=${RUNS}): p50 ${ms(q(pcmFirst, 0.5))}  p95 ${ms(q(pcmFirst, 0.95))}`);
  console.log(`time to first chunk, MP3   (n=${RUNS}): p50 ${ms(q(mp3First, 0.5))}  p95 ${ms(q(mp3First, 0.95))}  (mp3_44100_128, encoded in the workers)`);
  console.log(`whole text, PCM: p50 ${ms(q(pcmTotal, 0.5))}  real-time factor ${(q(pcmTotal, 0.5) / 1000 / audioSeconds).toFixed(4)} (${(audioSeconds / (q(pcmTotal, 0.5) / 1000)).toFixed(0)}x real time)`);
  console.log(`whole text, MP3: p50 ${ms(q(mp3Total, 0.5))}  real-time factor ${(q(mp3Total, 0.5) / 1000 / audioSeconds).toFixed(4)} (${(audioSeconds / (q(mp3Total, 0.5) / 1000)).toFixed(0)}x real time)`);

  // MP3 encoder speed on this thread, 60 s of 44.1 kHz mono speech-like audio.
  const pcm: Int16Array[] = [];
  for await (const c of engine.synthesize(req)) pcm.push(c.pcm);
  const speech = new Int16Array(pcm.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of pcm) {
    speech.set(p, o);
    o += p.length;
  }
  const r = new Resampler(22050, 44100);
  const at44 = r.process(int16ToFloat(speech));
  const sixty = new Float32Array(44100 * 60);
  for (let i = 0; i < sixty.length; i++) sixty[i] = at44[i % at44.length];
  t = performance.now();
  const enc = new Mp3Stream(44100, 128);
  for (let i = 0; i < sixty.length; i += 4410) enc.encode(sixty.subarray(i, i + 4410));
  enc.finish();
  const wasmMs = performance.now() - t;
  console.log(`MP3 encoder (LAME in WebAssembly, @mediabunny/mp3-encoder's build): 60 s in ${ms(wasmMs)} = ${(60000 / wasmMs).toFixed(0)}x real time`);
  const lamejs = await import("lamejs" as string).catch(() => null);
  if (lamejs && typeof lamejs.Mp3Encoder === "function") {
    const ints = Int16Array.from(sixty, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32768))));
    t = performance.now();
    const l = new lamejs.Mp3Encoder(1, 44100, 128);
    for (let i = 0; i < ints.length; i += 1152) l.encodeBuffer(ints.subarray(i, i + 1152));
    l.flush();
    const lameMs = performance.now() - t;
    console.log(`MP3 encoder (lamejs): 60 s in ${ms(lameMs)} = ${(60000 / lameMs).toFixed(0)}x real time; wasm is ${(lameMs / wasmMs).toFixed(2)}x faster`);
  } else {
    console.log("MP3 encoder (lamejs): not installed; the issue measured ~38x real time on this machine");
  }

  // Event-loop delay on this (the request) thread while four syntheses run.
  const h = monitorEventLoopDelay({ resolution: 1 });
  let timerLate = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    timerLate = Math.max(timerLate, now - last - 5);
    last = now;
  }, 5);
  h.enable();
  t = performance.now();
  await Promise.all([0, 1, 2, 3].map(async (seed) => {
    for await (const _ of engine.synthesizeEncoded({ ...req, seed }, "mp3_44100_128")) void _;
  }));
  const elapsed = performance.now() - t;
  h.disable();
  clearInterval(timer);
  console.log(`4 concurrent MP3 syntheses: ${ms(elapsed)}; event-loop delay max ${ms(h.max / 1e6)}, p99 ${ms(h.percentile(99) / 1e6)}; 5 ms timer late by at most ${ms(timerLate)}`);
  console.log(`  max loop delay / one synthesis = ${(h.max / 1e6 / q(mp3Total, 0.5)).toFixed(3)}`);
  await engine.close();
}

await main();
