/**
 * How a workspace's own remote engines speak (issue 25 §3). Their voices are voice records of the
 * workspace (listed and picked like any of its voices, seen by no other workspace); a request
 * through one is resolved here, from the caller's workspace only, into the engine port's
 * `SynthesisRequest.remote` with the key unsealed in memory for that request. A workspace with a
 * reference-audio engine (kind "xtts"), or on a server whose operator configured one
 * (REMOTE_ENGINES), has its own clones speak through it, one stored sample of the clone (bounded)
 * sent as the reference.
 */
import type { AppContext } from "../../platform/context.js";
import { unseal } from "../../platform/domain/sealed.js";
import { EVERYONE_GROUP_ID } from "../../platform/domain/permissions.js";
import { premadeVoiceId, systemVoiceFields } from "../../platform/domain/premadeVoices.js";
import { ApiError } from "../../platform/http/errors.js";
import { WorkspaceEngines, type WorkspaceEngineRecord } from "../../platform/stores/workspaceEngines.js";
import type { VoiceRecord, VoiceSampleRecord } from "../../platform/stores/voices.js";
import { EngineVoiceUnavailableError, type VoiceProfile } from "../../media/engine/port.js";
import { parseRemoteEngines, RemoteEngineError, type RemoteEngineConfig, type RemoteTarget, type RemoteVoice } from "../../media/engine/remote/index.js";

export const SEAL_PURPOSE = "remote-engine-keys";

/** The reference a clone sends: one sample of at most this size and length. */
export const MAX_REFERENCE_BYTES = 10 * 1024 * 1024;
export const MAX_REFERENCE_SECONDS = 60;

/** A workspace engine's voice as a profile names it: "@ENGINE/VOICE" (the operator's are "ENGINE/VOICE"). */
export const workspaceEngineVoice = (engineId: string, voice: string) => `@${engineId}/${voice}`;

export function workspaceRemoteVoiceId(workspaceId: string, engineId: string, voice: string): string {
  return premadeVoiceId(`remote:${workspaceId}:${engineId}/${voice}`);
}

const KIND_NAMES = { openai: "OpenAI-compatible", elevenlabs: "ElevenLabs-compatible", xtts: "reference-audio (XTTS)" } as const;

/** The engine's settings as the engine port takes them, the key unsealed (kept in memory for one request). */
export function configOf(ctx: AppContext, r: WorkspaceEngineRecord): RemoteEngineConfig {
  const [cfg] = parseRemoteEngines(JSON.stringify([{ id: r.engine_id, kind: r.kind, url: r.url, model: r.model, language: r.language, firstByteTimeoutMs: r.first_byte_timeout_ms, totalTimeoutMs: r.total_timeout_ms }]));
  return { ...cfg, key: r.key_enc ? unseal(ctx.secrets.session, SEAL_PURPOSE, r.key_enc) : undefined };
}

export const breakerKeyOf = (r: Pick<WorkspaceEngineRecord, "workspace_id" | "engine_id">) => `${r.workspace_id}/${r.engine_id}`;

/** A voice of a workspace engine as the workspace's voice record: everyone in the workspace may use it. */
export function workspaceRemoteVoiceRecord(r: WorkspaceEngineRecord, remote: RemoteVoice, nowUnix: number): VoiceRecord {
  const [language, region] = r.language.split("-");
  return {
    voice_id: workspaceRemoteVoiceId(r.workspace_id, r.engine_id, remote.id),
    workspace_id: r.workspace_id,
    owner_user_id: null,
    name: `${remote.name} (${r.engine_id})`.slice(0, 100),
    description: `A voice of the workspace's remote engine ${r.engine_id} (${KIND_NAMES[r.kind]} server).`,
    category: "premade",
    labels: { language, ...(region ? { accent: region } : {}), engine: "remote", remote_engine: r.engine_id, use_case: "remote" },
    created_at_unix: nowUnix,
    profile: { language: r.language, gender: "neutral", age: "middle_aged", pitch: 50, pitchRange: 50, rate: 170, timbre: 0, seed: 0, engine: "remote", engineVoice: workspaceEngineVoice(r.engine_id, remote.id) },
    ...systemVoiceFields(language),
    role_to_group_ids: { viewer: [EVERYONE_GROUP_ID] },
  };
}

/** Whether a voice speaks through one of its workspace's engines ("@ENGINE/VOICE"). */
export const isWorkspaceEngineVoice = (v: Pick<VoiceRecord, "profile">) => v.profile.engine === "remote" && v.profile.engineVoice?.startsWith("@") === true;

/** A remote engine's failure as the caller's error: a voice it cannot speak a 400, the engine's failure its 502/503/504. */
export function remoteFailure(e: unknown): unknown {
  if (e instanceof EngineVoiceUnavailableError) return new ApiError(400, "voice_unavailable", e.message);
  if (e instanceof RemoteEngineError) return new ApiError(e.statusCode, e.code, e.message, e.retryAfterSeconds ? { "retry-after": String(e.retryAfterSeconds) } : {});
  return e;
}

/** Whether a voice is one of a workspace engine's (removed with the engine). */
export const isEngineVoice = (v: VoiceRecord, engineId: string) => v.profile.engine === "remote" && v.profile.engineVoice?.startsWith(`@${engineId}/`) === true;

/** The sample a clone sends as its reference: the first within the bounds (the denoised one when there is one). */
export function referenceSample(v: VoiceRecord): VoiceSampleRecord | undefined {
  return v.samples.find((s) => s.size_bytes > 0 && s.size_bytes <= MAX_REFERENCE_BYTES && (s.duration_secs === null || s.duration_secs <= MAX_REFERENCE_SECONDS));
}

/** A clone of the workspace's own (not a library copy: its samples are another workspace's). */
const ownClone = (v: VoiceRecord, ws: string) => v.workspace_id === ws && (v.category === "cloned" || v.category === "professional") && !v.sharing?.original_voice_id && v.samples.length > 0;

export interface RemotePart {
  profile: VoiceProfile;
  remote?: RemoteTarget;
}

let operatorEngines: { json: string | undefined; engines: RemoteEngineConfig[] } | undefined;

/**
 * The operator's reference-audio engine (the first REMOTE_ENGINES entry of kind "xtts" by id), for
 * every workspace without one of its own; the conditioning it answers is cached per workspace.
 */
function operatorXtts(ctx: AppContext, workspaceId: string) {
  const json = ctx.config.remoteEngines;
  if (!json?.trim()) return undefined;
  if (operatorEngines?.json !== json) {
    let engines: RemoteEngineConfig[] = [];
    try {
      engines = parseRemoteEngines(json);
    } catch {
      // A broken REMOTE_ENGINES stops the start (platform checks it); here it is none.
    }
    operatorEngines = { json, engines };
  }
  const cfg = operatorEngines.engines.filter((e) => e.kind === "xtts").sort((a, b) => a.id.localeCompare(b.id))[0];
  return cfg && { id: cfg.id, config: () => cfg, breakerKey: cfg.id, cacheAs: (voice: string) => `${workspaceId}/${voice}` };
}

/**
 * For each voice of a request, the profile it speaks with and, for a workspace engine, the
 * engine. Only the caller's workspace's engines are read: a voice naming an engine the workspace
 * does not have is a 400.
 */
export async function resolveRemoteParts(ctx: AppContext, workspaceId: string, voices: readonly VoiceRecord[]): Promise<RemotePart[]> {
  const needs = voices.some((v) => (v.profile.engine === "remote" && v.profile.engineVoice?.startsWith("@")) || ownClone(v, workspaceId));
  if (!needs) return voices.map((v) => ({ profile: v.profile }));
  const engines = await new WorkspaceEngines(ctx.stores.tables.main).list(workspaceId);
  const byId = new Map(engines.map((e) => [e.engine_id, e]));
  const own = engines.filter((e) => e.kind === "xtts").sort((a, b) => a.engine_id.localeCompare(b.engine_id))[0];
  // The workspace's own reference-audio engine, else the operator's (REMOTE_ENGINES kind "xtts").
  const xtts: { id: string; config: () => RemoteEngineConfig; breakerKey: string; cacheAs: (voice: string) => string } | undefined = own
    ? { id: own.engine_id, config: () => config(own), breakerKey: breakerKeyOf(own), cacheAs: (voice) => voice }
    : operatorXtts(ctx, workspaceId);
  const configs = new Map<string, RemoteEngineConfig>();
  const config = (r: WorkspaceEngineRecord) => {
    let c = configs.get(r.engine_id);
    if (!c) configs.set(r.engine_id, (c = configOf(ctx, r)));
    return c;
  };
  return voices.map((v): RemotePart => {
    const ev = v.profile.engine === "remote" ? v.profile.engineVoice : undefined;
    if (ev?.startsWith("@")) {
      const i = ev.indexOf("/");
      const engineId = ev.slice(1, i);
      const r = byId.get(engineId);
      if (!r || i < 0) throw new ApiError(400, "voice_unavailable", `The remote engine of the voice "${v.name}" (${engineId}) is not in this workspace any more.`);
      return { profile: v.profile, remote: { config: config(r), breakerKey: breakerKeyOf(r), voice: ev.slice(i + 1) } };
    }
    if (xtts && ownClone(v, workspaceId)) {
      const sample = referenceSample(v);
      if (!sample) throw new ApiError(400, "voice_unavailable", `The voice "${v.name}" speaks through the reference-audio engine ${xtts.id}, and none of its samples is within ${MAX_REFERENCE_SECONDS} s and ${MAX_REFERENCE_BYTES / 1024 / 1024} MB.`);
      return {
        profile: { ...v.profile, engine: "remote", engineVoice: own ? workspaceEngineVoice(xtts.id, v.voice_id) : `${xtts.id}/${v.voice_id}` },
        remote: {
          config: xtts.config(),
          breakerKey: xtts.breakerKey,
          // Its version and sample: a changed clone is sent again.
          voice: xtts.cacheAs(`${v.voice_id}@${v.version}#${sample.sample_id}`),
          reference: async () => {
            const o = await ctx.blobs.getBytes(sample.object_key);
            if (!o || o.bytes.length > MAX_REFERENCE_BYTES) throw new ApiError(400, "voice_unavailable", `The reference sample of the voice "${v.name}" could not be read.`);
            return { bytes: o.bytes, fileName: sample.file_name || "reference.wav", mimeType: sample.mime_type || o.contentType };
          },
        },
      };
    }
    return { profile: v.profile };
  });
}
