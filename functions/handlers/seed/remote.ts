/**
 * The voices of the remote engines (REMOTE_ENGINES) as system voices, listed for every workspace
 * like the premade ones (category "premade", labels `engine: remote`, `remote_engine: ID`). Ids come
 * from the engine's id and the voice name, so they stay across restarts; records of voices no longer
 * offered are removed. A server that cannot be reached at start-up is logged and its voices kept.
 */
import type { AppContext } from "../../platform/context.js";
import type { Logger } from "../../platform/adapters/log.js";
import { premadeVoiceId, systemVoiceFields } from "../../platform/domain/premadeVoices.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";
import { checkedFetch } from "../../platform/net/fetch.js";
import { fetchRemoteVoices, parseRemoteEngines, splitEngineVoice, type RemoteEngineConfig, type RemoteVoice } from "../../media/engine/remote/index.js";

const SEED_EPOCH = 1_735_689_600;

export function remoteVoiceId(engine: string, voice: string): string {
  return premadeVoiceId(`remote:${engine}/${voice}`);
}

const KIND_NAMES = { openai: "OpenAI-compatible", elevenlabs: "ElevenLabs-compatible", xtts: "reference-audio (XTTS)" } as const;

export function remoteVoiceRecord(cfg: RemoteEngineConfig, remote: RemoteVoice | string): VoiceRecord {
  const { id: voice, name } = typeof remote === "string" ? { id: remote, name: remote } : remote;
  const [language, region] = cfg.language.split("-");
  return {
    voice_id: remoteVoiceId(cfg.id, voice),
    workspace_id: null,
    owner_user_id: null,
    name: `${name} (${cfg.id})`.slice(0, 100),
    description: `A voice of the remote engine ${cfg.id} (${KIND_NAMES[cfg.kind]} server).`,
    category: "premade",
    labels: { language, ...(region ? { accent: region } : {}), engine: "remote", remote_engine: cfg.id, use_case: "remote" },
    created_at_unix: SEED_EPOCH,
    profile: { language: cfg.language, gender: "neutral", age: "middle_aged", pitch: 50, pitchRange: 50, rate: 170, timbre: 0, seed: 0, engine: "remote", engineVoice: `${cfg.id}/${voice}` },
    ...systemVoiceFields(language),
  };
}

/** Writes the configured engines' voices and removes the others; never throws (a server down must not stop the product). */
export async function loadRemoteVoices(ctx: AppContext, log: Logger, fetchImpl: typeof fetch = checkedFetch(ctx.config.webhooks)): Promise<number> {
  let engines: RemoteEngineConfig[];
  try {
    engines = parseRemoteEngines(ctx.config.remoteEngines);
  } catch (e) {
    log.error("remote engines not loaded", { error: (e as Error).message });
    return 0;
  }
  const existing = (await ctx.stores.voices.premade()).filter((v) => v.profile.engine === "remote");
  const wanted = new Map<string, VoiceRecord>();
  const unreachable = new Set<string>();
  for (const cfg of engines) {
    try {
      for (const v of await fetchRemoteVoices(cfg, fetchImpl)) wanted.set(remoteVoiceId(cfg.id, v.id), remoteVoiceRecord(cfg, v));
    } catch (e) {
      unreachable.add(cfg.id);
      log.error(`remote engine ${cfg.id}: voices not listed`, { engine: cfg.id, reason: (e as Error).message });
    }
  }
  for (const old of existing) {
    if (wanted.has(old.voice_id) || unreachable.has(splitEngineVoice(old.profile.engineVoice)?.engine ?? "")) continue;
    await ctx.stores.voices.delete(null, old.voice_id);
  }
  const have = new Map(existing.map((v) => [v.voice_id, v]));
  for (const r of wanted.values()) {
    const old = have.get(r.voice_id);
    if (old && old.name === r.name && JSON.stringify(old.profile) === JSON.stringify(r.profile) && JSON.stringify(old.labels) === JSON.stringify(r.labels)) continue;
    await ctx.stores.voices.put({ ...r, preview_object_key: old?.preview_object_key ?? null });
  }
  if (engines.length) log.info("remote engines", { engines: engines.map((e) => e.id), voices: wanted.size });
  return wanted.size;
}
