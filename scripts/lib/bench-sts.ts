/**
 * Speech to speech and the voice isolator in `npm run bench` (issue 12), on their own embedded
 * stack. Self-contained: `benchSpeechToSpeech()` prints its figures and returns them.
 *
 *  - conversion real-time factor: POST /v1/speech-to-speech (whole answer) for a 30 s input,
 *    processing time / audio duration; baseline in the same run: the bare conversion of the same
 *    samples on this thread (no HTTP, decoding, worker hop or encoding);
 *  - time to first audio byte of /stream for the same input; baseline: text to speech /stream's
 *    first byte for a 1,000-character text in the same run;
 *  - isolation real-time factor: POST /v1/audio-isolation for the same input; baseline: RNNoise
 *    alone over the same audio at 48 kHz on this thread.
 */
import { parseConfig } from "../../functions/platform/config.js";
import { startEmbedded } from "../../infra/local/stack.js";
import { createAccount, createApiKey } from "../../functions/platform/domain/accounts.js";
import { premadeVoiceId, premadeVoiceRecords } from "../../functions/platform/domain/premadeVoices.js";
import { createLogger } from "../../functions/platform/adapters/log.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { floatToInt16, resample } from "../../functions/media/audio/resample.js";
import { DEFAULT_VOICE_SETTINGS, type VoiceProfile } from "../../functions/media/engine/port.js";
import { PASSAGES } from "../../functions/media/voice-analysis/fixtures/texts.js";
import { convertAll } from "../../functions/media/voice-conversion/convert.js";
import { voiceTarget } from "../../functions/capabilities/speech/voiceTargets.js";
import { loadFastRnnoise } from "../../functions/media/audio/denoise/rnnoise-fast.js";
import { RNNOISE_FRAME } from "../../functions/media/audio/denoise/rnnoise.js";
import { BENCH_TEXT } from "./bench-text.js";

const q = (v: number[], p: number) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(p * v.length))];
const f2 = (x: number) => x.toFixed(2);
const f3 = (x: number) => x.toFixed(3);
const verdict = (ok: boolean) => (ok ? "meets target" : "MISSES target");

export interface StsBenchFigures {
  inputSeconds: number;
  conversionRtf: number;
  bareConversionRtf: number;
  streamTtfbP50Ms: number;
  streamTtfbP95Ms: number;
  ttsTtfbP50Ms: number;
  isolationRtf: number;
  bareRnnoiseRtf: number;
}

export async function benchSpeechToSpeech(opts: { runs?: number } = {}): Promise<StsBenchFigures> {
  const runs = opts.runs ?? 5;
  const stack = await startEmbedded({ config: parseConfig({ PORT: "0", LOG_LEVEL: "error" }), web: false, log: createLogger("error") });
  try {
    const { user, workspace } = await createAccount(stack.ctx, { email: `bench-sts-${Date.now()}@example.test`, password: "bench password", tier: "business" });
    const { value: key } = await createApiKey(stack.ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "bench" });
    const engine = await stack.ctx.engine();
    await engine.warm();
    const marcus = premadeVoiceRecords().find((v) => v.name === "Marcus")!;
    const avery = premadeVoiceRecords().find((v) => v.name === "Avery")!;

    // A 30 s recording of one speaker: the engine reading passages until 30 s are filled.
    const parts: Int16Array[] = [];
    let total = 0;
    const texts = [...PASSAGES.en.heldOut, ...PASSAGES.en.tuning];
    for (let i = 0; total < 30 * engine.sampleRate; i++) {
      for await (const c of engine.synthesize({ text: texts[i % texts.length], voice: marcus.profile as VoiceProfile, settings: DEFAULT_VOICE_SETTINGS, seed: i, model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false } })) {
        parts.push(c.pcm);
        total += c.pcm.length;
      }
    }
    const samples = new Float32Array(30 * engine.sampleRate);
    let o = 0;
    for (const p of parts) for (let i = 0; i < p.length && o < samples.length; i++) samples[o++] = p[i] / 32768;
    const seconds = samples.length / engine.sampleRate;
    const wav = encodeWav(floatToInt16(samples), engine.sampleRate);
    const form = () => {
      const f = new FormData();
      f.append("audio", new File([new Uint8Array(wav)], "bench.wav", { type: "audio/wav" }));
      return f;
    };
    const post = (path: string, body: FormData | string) =>
      fetch(`${stack.url}${path}`, { method: "POST", headers: { "xi-api-key": key, ...(typeof body === "string" ? { "content-type": "application/json" } : {}) }, body });
    const sts = `/v1/speech-to-speech/${premadeVoiceId("Avery")}`;
    console.log(`\nspeech to speech: a ${f2(seconds)} s input (${(wav.byteLength / 1024 / 1024).toFixed(1)} MB WAV), Marcus into Avery, mp3_44100_128`);

    // Warm: the target's measurement (cached afterwards), the workers, the HTTP path.
    const target = await voiceTarget(stack.ctx, workspace.workspace_id, avery);
    // The bare runs block this process's event loop, which also serves the stack: run between
    // requests they let the server's keep-alive timer close a socket the client then reuses
    // (ECONNRESET, seen on a slow machine even with a pause after them), so they run before
    // this process has made a request.
    const bare: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t1 = performance.now();
      convertAll(samples, { target, settings: DEFAULT_VOICE_SETTINGS, seed: i });
      bare.push((performance.now() - t1) / 1000 / seconds);
    }
    await (await post(`${sts}?output_format=mp3_44100_128`, form())).arrayBuffer();
    await (await post("/v1/audio-isolation", form())).arrayBuffer();

    // 1. Conversion real-time factor, end to end, against the bare conversion.
    const whole: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = await post(`${sts}?output_format=mp3_44100_128`, form());
      await r.arrayBuffer();
      whole.push((performance.now() - t0) / 1000 / seconds);
    }
    const conversionRtf = q(whole, 0.5);
    const bareConversionRtf = q(bare, 0.5);
    console.log(`conversion real-time factor (30 s input, 2 cores): p50 ${f3(conversionRtf)} (${f2(1 / conversionRtf)}x real time), ${f2(conversionRtf / bareConversionRtf)}x the bare conversion on one thread (${f3(bareConversionRtf)}) -> ${verdict(conversionRtf <= 0.2)} (<= 0.2)`);

    // 2. Time to first audio byte of /stream, against text to speech's in the same run.
    const ttfb: number[] = [];
    for (let i = 0; i < runs * 3; i++) {
      const t0 = performance.now();
      const r = await post(`${sts}/stream?output_format=mp3_44100_128`, form());
      const reader = r.body!.getReader();
      await reader.read();
      ttfb.push(performance.now() - t0);
      while (!(await reader.read()).done);
    }
    const tts: number[] = [];
    for (let i = 0; i < runs * 3; i++) {
      const t0 = performance.now();
      const r = await post(`/v1/text-to-speech/${premadeVoiceId("Avery")}/stream?output_format=mp3_44100_128`, JSON.stringify({ text: BENCH_TEXT, seed: 100 + i }));
      const reader = r.body!.getReader();
      await reader.read();
      tts.push(performance.now() - t0);
      while (!(await reader.read()).done);
    }
    const [p50, p95, ttsP50] = [q(ttfb, 0.5), q(ttfb, 0.95), q(tts, 0.5)];
    console.log(`/v1/speech-to-speech/.../stream time to first audio byte: p50 ${Math.round(p50)} ms, p95 ${Math.round(p95)} ms (upload of ${(wav.byteLength / 1024 / 1024).toFixed(1)} MB included), ${f2(p50 / ttsP50)}x text to speech /stream's ${Math.round(ttsP50)} ms -> ${verdict(p50 <= 500)} (<= 500 ms)`);

    // 3. Isolation real-time factor, against RNNoise alone.
    const iso: number[] = [];
    const rn: number[] = [];
    const at48 = resample(samples, engine.sampleRate, 48_000);
    const rnnoise = await loadFastRnnoise();
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await (await post("/v1/audio-isolation", form())).arrayBuffer();
      iso.push((performance.now() - t0) / 1000 / seconds);
    }
    for (let i = 0; i < runs; i++) {
      const t1 = performance.now();
      const state = rnnoise.createDenoiseState();
      const frame = new Float32Array(RNNOISE_FRAME);
      for (let s = 0; s + RNNOISE_FRAME <= at48.length; s += RNNOISE_FRAME) {
        for (let j = 0; j < RNNOISE_FRAME; j++) frame[j] = at48[s + j] * 32768;
        state.processFrame(frame);
      }
      state.destroy();
      rn.push((performance.now() - t1) / 1000 / seconds);
    }
    const isolationRtf = q(iso, 0.5);
    const bareRnnoiseRtf = q(rn, 0.5);
    console.log(`isolation real-time factor (30 s input): p50 ${f3(isolationRtf)} (${f2(1 / isolationRtf)}x real time), ${f2(isolationRtf / bareRnnoiseRtf)}x RNNoise alone on one thread (${f3(bareRnnoiseRtf)}) -> ${verdict(isolationRtf <= 0.1)} (<= 0.1)`);
    return { inputSeconds: seconds, conversionRtf, bareConversionRtf, streamTtfbP50Ms: p50, streamTtfbP95Ms: p95, ttsTtfbP50Ms: ttsP50, isolationRtf, bareRnnoiseRtf };
  } finally {
    await stack.close();
  }
}
