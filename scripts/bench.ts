import "./lib/quiet.js";
/**
 * `npm run bench`: the platform's speed on the embedded stack, printed as figures and as ratios
 * against baselines measured in the same run (the machine is shared and noisy). Asserts nothing.
 *
 *  - /stream with a 1,000-character text: time to first audio byte p50/p95 over 60 requests,
 *    real-time factor;
 *  - end-to-end /convert time over the bare engine synthesis + encoding of the same text;
 *  - the stall of GET /v1/voices while 4 syntheses run, against the same calls on an idle stack;
 *  - throughput with 4 concurrent clients;
 *  - GET /v1/shared-voices with three filters over 10,000 published voices, against the plain
 *    first page of the same library (benchSharedVoices, its own stack).
 *
 *  - speech to speech and the voice isolator (benchSpeechToSpeech in ./lib/bench-sts.ts, its own
 *    stack): conversion and isolation real-time factors for a 30 s input, /stream's first byte.
 *
 * `npm run bench -- --only=shared-voices` runs just the library figure; `--only=sts` just speech to speech.
 */
import { parseConfig } from "../functions/config.js";
import { startEmbedded } from "../infra/local/stack.js";
import { createAccount, createApiKey } from "../functions/domain/accounts.js";
import { premadeVoiceId } from "../functions/domain/premadeVoices.js";
import { createLogger } from "../functions/adapters/log.js";
import type { SynthesisRequest } from "../functions/engine/port.js";
import { findModel } from "../functions/domain/models.js";
import { BENCH_TEXT as TEXT } from "./lib/bench-text.js";
import type { LibraryListing } from "../functions/adapters/dynamo/library.js";
import { planLibrarySearch } from "../functions/voices/libraryQuery.js";
import { addActivity } from "../functions/voices/counters.js";
import { benchSpeechToSpeech } from "./lib/bench-sts.js";



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

// ---------------------------------------------------------------------------------------------
// The voice library: GET /v1/shared-voices over 10,000 published voices.

const LIBRARY_SIZE = 10_000;
const LANGS = ["en", "de", "fr", "es", "it", "pt", "pl", "nl", "sv", "hi"];
const GENDERS = ["male", "female", "neutral"];
const AGES = ["young", "middle_aged", "old"];
const USE_CASES = ["narrative_story", "conversational", "characters_animation", "social_media", "entertainment_tv", "advertisement", "informative_educational"];
const DESCRIPTIVES = ["calm", "warm", "deep", "bright", "crisp", "raspy", "soft", "upbeat", "wise", "playful"];

/** A deterministic library: every combination of language, gender and age well represented. */
function benchListings(now: number): LibraryListing[] {
  let s = 12345;
  const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)];
  return Array.from({ length: LIBRARY_SIZE }, (_, i) => {
    const language = LANGS[i % LANGS.length];
    const gender = pick(GENDERS);
    const age = pick(AGES);
    const date = now - Math.floor(rnd() * 365 * 86_400);
    const use_case = pick(USE_CASES);
    return {
      voice_id: `bench${String(i).padStart(15, "0")}`,
      owner_workspace_id: `bench-ws-${i % 500}`,
      owner_user_id: `bench-user-${i % 500}`,
      public_owner_id: `benchowner${i % 500}`,
      owner_name: null,
      made_by_timbre: false,
      status: "listed",
      date_unix: date,
      updated_at_unix: date,
      name: `Bench voice ${i}`,
      description: `A ${gender} ${age} voice for ${use_case}`,
      category: "generated",
      language,
      accent: "standard",
      locale: null,
      gender,
      age,
      use_case,
      descriptives: [pick(DESCRIPTIVES)],
      labels: { language, gender, age, use_case },
      preview_object_key: null,
      profile: { language, gender: gender as "male", age: age as "young", pitch: 50, pitchRange: 50, rate: 170, timbre: 0, seed: i },
      high_quality_base_model_ids: [],
      rate: rnd() < 0.1 ? 2 : null,
      notice_period: pick([30, 90, 180, 365, 730]),
      disable_at_unix: null,
      free_users_allowed: true,
      live_moderation_enabled: false,
      featured: rnd() < 0.05,
      reader_app_enabled: false,
      cloned_by_count: Math.floor(rnd() * 1000),
      usage_days: {},
      usage_months: {},
      usage_character_count_1y: Math.floor(rnd() * 1e6),
      trend: addActivity(null, 1 + rnd() * 1e5, date),
      rev: 1,
    } satisfies LibraryListing;
  });
}

export async function benchSharedVoices(): Promise<void> {
  const stack = await startEmbedded({ config: parseConfig({ PORT: "0", LOG_LEVEL: "error" }), web: false, log: createLogger("error") });
  try {
    const { user, workspace } = await createAccount(stack.ctx, { email: `bench-lib-${Date.now()}@example.test`, password: "bench password", tier: "business" });
    const { value: key } = await createApiKey(stack.ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "bench" });
    const t0 = performance.now();
    await stack.ctx.stores.library.bulkInsert(benchListings(Math.floor(Date.now() / 1000)));
    console.log(`\n/v1/shared-voices: seeded ${LIBRARY_SIZE.toLocaleString("en-US")} published voices (plus the community library) in ${f1((performance.now() - t0) / 1000)} s`);

    const get = async (query: string) => {
      const t = performance.now();
      const r = await fetch(`${stack.url}/v1/shared-voices?${query}`, { headers: { "xi-api-key": key } });
      const body = (await r.json()) as { voices: unknown[] };
      if (r.status !== 200 || body.voices.length === 0) throw new Error(`shared-voices ${query}: ${r.status}`);
      return performance.now() - t;
    };
    const baselineQuery = "page_size=30";
    const filteredQuery = "page_size=30&language=en&gender=female&age=young";
    const fallbackQuery = "page_size=30&search=young&descriptives=calm";
    for (let i = 0; i < 20; i++) await Promise.all([get(baselineQuery), get(filteredQuery), get(fallbackQuery)]);
    const baseline: number[] = [];
    const filtered: number[] = [];
    const fallback: number[] = [];
    // Interleaved, so load from other jobs on the machine hits both alike.
    for (let i = 0; i < 200; i++) {
      baseline.push(await get(baselineQuery));
      filtered.push(await get(filteredQuery));
      if (i % 4 === 0) fallback.push(await get(fallbackQuery));
    }
    const plan = planLibrarySearch({ language: "en", gender: "female", age: "young" });
    const p50 = q(filtered, 0.5);
    console.log(`  unfiltered first page (baseline): p50 ${f1(q(baseline, 0.5))} ms, p95 ${f1(q(baseline, 0.95))} ms`);
    console.log(`  language + gender + age (index ${plan.index}, ${plan.filters.length} filter expressions): p50 ${f1(p50)} ms, p95 ${f1(q(filtered, 0.95))} ms  [target p50 <= 20 ms: ${verdict(p50 <= 20)}]`);
    console.log(`  ratio three filters : unfiltered = ${(p50 / q(baseline, 0.5)).toFixed(2)}`);
    console.log(`  for comparison, a filtered Query (search + descriptives on lib_all): p50 ${f1(q(fallback, 0.5))} ms, p95 ${f1(q(fallback, 0.95))} ms`);
  } finally {
    await stack.close();
  }
}

const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
const run =
  only === "shared-voices" ? benchSharedVoices() : only === "sts" ? benchSpeechToSpeech().then(() => undefined) : main().then(benchSharedVoices).then(() => benchSpeechToSpeech()).then(() => undefined);
run.catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
