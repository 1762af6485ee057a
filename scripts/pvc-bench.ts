/**
 * Professional voice clone figures (issue 11), separate from `npm run bench` (whose structure
 * another change owns) and callable from it: `benchSeparation()` and `benchFineTuning()`.
 *
 *   node --import tsx scripts/pvc-bench.ts [separation] [fine-tuning] [--minutes N]
 *
 * Separation: a held-out two-speaker engine conversation of about `minutes` (default 10) through
 * the speaker-separation workflow's work (frame features, clustering, resegmentation), timed, with
 * its diarization error rate. Fine-tuning: `minutes` (default 30) of one engine voice as samples
 * of a professional clone on an embedded stack, through the voice-fine-tuning workflow, timed.
 * Wall-clock figures on a shared machine: read them with the load average printed beside them.
 */
import { loadavg } from "node:os";
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { HELD_OUT_LINES, distinctHeldOutPairs, makeConversation } from "../functions/media/separation/fixtures/conversation.js";
import { diarize } from "../functions/media/separation/diarize.js";
import { frameFeatures } from "../functions/media/separation/features.js";
import { diarizationErrorRate } from "../functions/media/separation/der.js";

export interface SeparationFigure {
  audio_minutes: number;
  seconds: number;
  speakers: number;
  der: number;
}

export async function benchSeparation(minutes = 10): Promise<SeparationFigure> {
  const engine = new EspeakEngine();
  try {
    const [a, b] = distinctHeldOutPairs().find(([x, y]) => x.gender !== y.gender)!;
    const once = await makeConversation(engine, [a, b], HELD_OUT_LINES, { seed: 7 });
    const rounds = Math.max(1, Math.round((minutes * 60 * 16_000) / once.samples.length));
    const c = rounds === 1 ? once : await makeConversation(engine, [a, b], HELD_OUT_LINES, { seed: 7, rounds });
    const t0 = performance.now();
    const speakers = diarize(frameFeatures(c.samples));
    const seconds = (performance.now() - t0) / 1000;
    const der = diarizationErrorRate(c.reference, Object.fromEntries(speakers.map((s) => [s.speaker_id, s.utterances]))).der;
    return { audio_minutes: Math.round((c.samples.length / 16_000 / 60) * 10) / 10, seconds: Math.round(seconds * 10) / 10, speakers: speakers.length, der: Math.round(der * 1000) / 1000 };
  } finally {
    await engine.close();
  }
}

export interface FineTuningFigure {
  audio_minutes: number;
  seconds: number;
  state: string;
}

export async function benchFineTuning(minutes = 30): Promise<FineTuningFigure> {
  const { startTestStack, createTestAccount } = await import("../test/support/stack.js");
  const { speechWav } = await import("../test/pvc/support.js");
  const { premadeVoices } = await import("../functions/media/voice-analysis/fixtures/voices.js");
  const stack = await startTestStack();
  const engine = new EspeakEngine();
  try {
    const key = (await createTestAccount(stack, "business")).apiKey;
    const call = (path: string, init: RequestInit = {}) => fetch(new URL(path, stack.url), { ...init, headers: { "xi-api-key": key, ...(typeof init.body === "string" ? { "content-type": "application/json" } : {}) } });
    const { voice_id } = (await (await call("/v1/voices/pvc", { method: "POST", body: JSON.stringify({ name: "Bench", language: "en" }) })).json()) as { voice_id: string };
    const voice = premadeVoices().find((v) => v.name === "Marcus")!.profile;
    // Five-minute samples, each read with its own seed.
    for (let i = 0; i * 5 < minutes; i++) {
      const form = new FormData();
      form.append("files", new Blob([Buffer.from(await speechWav(engine, voice, Math.min(5, minutes - i * 5) * 60, 100 + i))], { type: "audio/wav" }), `part-${i}.wav`);
      const r = await call(`/v1/voices/pvc/${voice_id}/samples`, { method: "POST", body: form });
      if (!r.ok) throw new Error(`sample ${i}: ${r.status} ${await r.text()}`);
    }
    const t0 = performance.now();
    const started = await call(`/v1/voices/pvc/${voice_id}/train`, { method: "POST", body: JSON.stringify({ model_id: "eleven_multilingual_v2" }) });
    if (!started.ok) throw new Error(`train: ${started.status} ${await started.text()}`);
    await stack.workflows.idle();
    const seconds = (performance.now() - t0) / 1000;
    const v = (await (await call(`/v1/voices/${voice_id}`)).json()) as { fine_tuning: { state: Record<string, string> } };
    return { audio_minutes: minutes, seconds: Math.round(seconds), state: v.fine_tuning.state.eleven_multilingual_v2 };
  } finally {
    await engine.close();
    await stack.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--minutes");
  const minutes = at >= 0 ? Number(args[at + 1]) : undefined;
  const all = !args.includes("separation") && !args.includes("fine-tuning");
  console.log(`load average at start: ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  if (all || args.includes("separation")) console.log("separation", await benchSeparation(minutes ?? 10));
  if (all || args.includes("fine-tuning")) console.log("fine-tuning", await benchFineTuning(minutes ?? 30));
  console.log(`load average at end: ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
}
