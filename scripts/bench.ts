import "./lib/quiet.js";
/**
 * `npm run bench`: the platform's speed on the embedded stack, printed as figures and as ratios
 * against baselines measured in the same run (the machine is shared and noisy). Asserts nothing.
 *
 *  - /stream with a 1,000-character text: time to first audio byte p50/p95 over 60 requests,
 *    real-time factor;
 *  - end-to-end /convert time over the bare engine synthesis + encoding of the same text;
 *  - the stall of GET /v1/voices while 4 syntheses run, against the same calls on an idle stack;
 *  - throughput with 4 concurrent clients.
 */
import { parseConfig } from "../functions/config.js";
import { startEmbedded } from "../infra/local/stack.js";
import { createAccount, createApiKey } from "../functions/domain/accounts.js";
import { premadeVoiceId } from "../functions/domain/premadeVoices.js";
import { createLogger } from "../functions/adapters/log.js";
import type { SynthesisRequest } from "../functions/engine/port.js";
import { findModel } from "../functions/domain/models.js";
import { BENCH_TEXT as TEXT } from "./lib/bench-text.js";



const FORMAT = "mp3_44100_128";
const q = (v: number[], p: number) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(p * v.length))];
const f1 = (x: number) => x.toFixed(1);
const verdict = (ok: boolean) => (ok ? "meets target" : "MISSES target");

async function main(): Promise<void> {
  const stack = await startEmbedded({ config: parseConfig({ PORT: "0", LOG_LEVEL: "error" }), web: false, log: createLogger("error") });
  try {
    const { user, workspace } = await createAccount(stack.ctx, { email: `bench-${Date.now()}@example.test`, password: "bench password", tier: "business" });
    const { value: key } = await createApiKey(stack.ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "bench" });
    const voiceId = premadeVoiceId("Avery");
    const engine = await stack.ctx.engine();
    const warmStart = performance.now();
    await engine.warm();
    console.log(`Timbre bench: ${TEXT.length} characters, ${FORMAT}, engine ${engine.id}; engine warm-up ${f1(performance.now() - warmStart)} ms`);

    let n = 0;
    const post = (path: string, body: unknown) =>
      fetch(`${stack.url}${path}?output_format=${FORMAT}`, {
        method: "POST",
        headers: { "xi-api-key": key, "content-type": "application/json" },
        // A distinct seed per request: no free regenerations, every request is charged and synthesised.
        body: JSON.stringify({ ...(body as object), seed: ++n }),
      });

    // Warm the HTTP path once.
    await (await post(`/v1/text-to-speech/${voiceId}/stream`, { text: TEXT })).arrayBuffer();

    // 1. Time to first audio byte on /stream.
    const RUNS = 60;
    const ttfb: number[] = [];
    const totals: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = await post(`/v1/text-to-speech/${voiceId}/stream`, { text: TEXT });
      const reader = res.body!.getReader();
      let first = 0;
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!first && value.byteLength) first = performance.now() - t0;
        size += value.byteLength;
      }
      ttfb.push(first);
      totals.push(performance.now() - t0);
      bytes = size;
    }
    const audioSeconds = (bytes * 8) / 128_000;
    const p50 = q(ttfb, 0.5);
    console.log(`\n/stream time to first audio byte (n=${RUNS}): p50 ${f1(p50)} ms, p95 ${f1(q(ttfb, 0.95))} ms  [target p50 <= 100 ms: ${verdict(p50 <= 100)}]`);
    console.log(`/stream whole response: p50 ${f1(q(totals, 0.5))} ms for ${f1(audioSeconds)} s of audio: real-time factor ${(q(totals, 0.5) / 1000 / audioSeconds).toFixed(4)} (${f1(audioSeconds / (q(totals, 0.5) / 1000))}x real time)`);

    // 2. End-to-end /convert against the bare engine synthesis + encoding, interleaved so noise hits both.
    const model = findModel("eleven_multilingual_v2")!;
    const voice = (await stack.ctx.stores.voices.visibleTo(workspace.workspace_id, voiceId))!;
    const bare: SynthesisRequest = {
      text: TEXT,
      voice: voice.profile,
      settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 },
      seed: 1,
      model: { id: model.model_id, quality: model.engine.quality, supportsPhonemes: model.engine.supportsPhonemes },
    };
    const engineMs: number[] = [];
    const convertMs: number[] = [];
    for (let i = 0; i < 25; i++) {
      let t = performance.now();
      for await (const c of engine.synthesizeEncoded({ ...bare, seed: 1000 + i }, FORMAT)) void c;
      engineMs.push(performance.now() - t);
      t = performance.now();
      await (await post(`/v1/text-to-speech/${voiceId}`, { text: TEXT })).arrayBuffer();
      convertMs.push(performance.now() - t);
    }
    const ratio = q(convertMs, 0.5) / q(engineMs, 0.5);
    console.log(`\n/convert end to end: p50 ${f1(q(convertMs, 0.5))} ms; bare engine synthesis + encoding: p50 ${f1(q(engineMs, 0.5))} ms`);
    console.log(`ratio /convert : bare engine = ${ratio.toFixed(3)}  (platform overhead ${f1((ratio - 1) * 100)}%)  [target <= 1.15: ${verdict(ratio <= 1.15)}]`);

    // 3. GET /v1/voices while 4 syntheses run, against an idle baseline.
    const voicesCall = async () => {
      const t = performance.now();
      await (await fetch(`${stack.url}/v1/voices`, { headers: { "xi-api-key": key } })).arrayBuffer();
      return performance.now() - t;
    };
    const idle: number[] = [];
    for (let i = 0; i < 30; i++) idle.push(await voicesCall());
    const busy: number[] = [];
    let running = true;
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (running) await (await post(`/v1/text-to-speech/${voiceId}/stream`, { text: TEXT })).arrayBuffer();
      }),
    );
    await new Promise((r) => setTimeout(r, 200));
    for (let i = 0; i < 30; i++) {
      busy.push(await voicesCall());
      await new Promise((r) => setTimeout(r, 20));
    }
    running = false;
    await load;
    const stall = q(busy, 0.95) - q(idle, 0.5);
    const maxStall = Math.max(...busy) - q(idle, 0.5);
    console.log(`\nGET /v1/voices idle: p50 ${f1(q(idle, 0.5))} ms; during 4 syntheses: p50 ${f1(q(busy, 0.5))} ms, p95 ${f1(q(busy, 0.95))} ms, max ${f1(Math.max(...busy))} ms`);
    console.log(`delay added by synthesis: p95 ${f1(stall)} ms, max ${f1(maxStall)} ms  [target never > 20 ms: ${verdict(maxStall <= 20)}]`);

    // 4. Throughput with 4 concurrent clients for a fixed number of requests.
    const PER_CLIENT = 8;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < PER_CLIENT; i++) await (await post(`/v1/text-to-speech/${voiceId}`, { text: TEXT })).arrayBuffer();
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const requests = 4 * PER_CLIENT;
    console.log(`\nthroughput, 4 concurrent clients: ${requests} requests in ${f1(seconds)} s = ${(requests / seconds).toFixed(2)} requests/s, ${f1((requests * audioSeconds) / seconds)} s of audio per second, ${Math.round((requests * TEXT.length) / seconds)} characters/s`);
  } finally {
    await stack.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
