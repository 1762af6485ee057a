import type { AppContext } from "../../platform/context.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { DEFAULT_VOICE_SETTINGS, type VoiceProfile } from "../../media/engine/port.js";
import { VOICE_STATS_VERSION, type VoiceStats } from "../../media/voice-conversion/mapping.js";
import { referenceText } from "../../media/voice-conversion/reference.js";

/**
 * What speech to speech aims at: a voice's pitch and timbre, measured by letting the engine read
 * a reference passage with the voice and analysing the result (voice-conversion/mapping.ts).
 * Measured once per voice version, engine and measurement version: kept in memory and in the
 * caller's workspace folder, so a restart (or another Lambda container) reads it back.
 */
const MEMORY_LIMIT = 256;
const memory = new Map<string, VoiceStats>();
const inFlight = new Map<string, Promise<VoiceStats>>();
/** The engine's seed for reference readings: fixed, so a measurement is reproducible. */
const REFERENCE_SEED = 1;

/**
 * Per voice version, measurement version and the engine that speaks the voice (the profile's
 * `engine` and base voice: a target is measured as that engine sounds, not as eSpeak would).
 */
const cacheName = (v: VoiceRecord, engineId: string) => {
  const p = v.profile as VoiceProfile;
  const speaker = [engineId, p.engine ?? "espeak", p.engineVoice ?? ""].filter(Boolean).join("-");
  return `${v.voice_id}-v${v.version}-s${VOICE_STATS_VERSION}-${speaker.replace(/[^\w.-]+/g, "_")}.json`;
};

function remember(key: string, stats: VoiceStats): void {
  memory.delete(key);
  memory.set(key, stats);
  while (memory.size > MEMORY_LIMIT) memory.delete(memory.keys().next().value!);
}

async function measure(ctx: AppContext, profile: VoiceProfile): Promise<VoiceStats> {
  const engine = await ctx.engine();
  const chunks: Int16Array[] = [];
  for await (const c of engine.synthesize({
    text: referenceText(profile.language),
    voice: profile,
    settings: DEFAULT_VOICE_SETTINGS,
    seed: REFERENCE_SEED,
    model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false },
  }))
    chunks.push(c.pcm);
  const samples = new Float32Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) for (let i = 0; i < c.length; i++) samples[o++] = c[i] / 32768;
  return ctx.converter().measure(samples, engine.sampleRate);
}

export async function voiceTarget(ctx: AppContext, workspaceId: string, voice: VoiceRecord): Promise<VoiceStats> {
  const engine = await ctx.engine();
  const name = cacheName(voice, engine.id);
  const key = workspaceKey(workspaceId, "sts", "targets", name);
  const hit = memory.get(key);
  if (hit) {
    remember(key, hit);
    return hit;
  }
  let pending = inFlight.get(key);
  if (!pending) {
    pending = (async () => {
      const stored = await ctx.blobs.getBytes(key).catch(() => undefined);
      if (stored) {
        try {
          const parsed = JSON.parse(Buffer.from(stored.bytes).toString("utf8")) as VoiceStats;
          if (parsed.version === VOICE_STATS_VERSION && Array.isArray(parsed.meanLogEnv)) return parsed;
        } catch {
          // A damaged cache entry is measured again.
        }
      }
      const stats = await measure(ctx, voice.profile as VoiceProfile);
      await ctx.blobs.put(key, JSON.stringify(stats), "application/json").catch((e: unknown) => ctx.log.warn("voice target not cached", { error: e }));
      return stats;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  const stats = await pending;
  remember(key, stats);
  return stats;
}
