/**
 * The remote engines an operator configures (REMOTE_ENGINES, a JSON array; README "Remote
 * engines"). Parsed and checked once at start-up: a broken entry stops the server with its reason.
 */
export interface RemoteEngineConfig {
  /** Short name: in voice ids, labels and error messages. */
  id: string;
  /**
   * "openai": an OpenAI-compatible speech server (POST /v1/audio/speech, voices from
   * GET /v1/audio/voices); "elevenlabs": an ElevenLabs-compatible one, another Timbre or the hosted
   * API (POST /v1/text-to-speech/{voice_id}/stream, voices from GET /v1/voices); "xtts": a server
   * that clones from reference audio (the XTTS streaming server's API: POST /clone_speaker with the
   * reference as `wav_file`, then POST /tts_stream with the conditioning it answered): it has no
   * voices of its own, the workspace's cloned voices speak through it.
   */
  kind: RemoteEngineKind;
  /** Base URL without /v1 (e.g. http://tts.internal:8880). */
  url: string;
  /** Sent as a bearer token (openai) or as xi-api-key (elevenlabs); a secret: never returned, never logged. */
  key?: string;
  /** The model of the requests (default "tts-1"; elevenlabs: "eleven_multilingual_v2"). */
  model: string;
  /** Voices to list (names; elevenlabs: voice ids); absent: asked from the server at start-up. */
  voices?: string[];
  /** The first byte of audio (headers and first bytes) within this many ms (default 15000). */
  firstByteTimeoutMs: number;
  /** The whole answer within this many ms (default 120000). */
  totalTimeoutMs: number;
  /** Language of its voices (default "en"). */
  language: string;
  /** Failures in a row that open the circuit breaker (default 5). */
  breakerFailures: number;
  /** How long an open breaker refuses before one trial request (default 30000 ms). */
  breakerCooldownMs: number;
}

export type RemoteEngineKind = "openai" | "elevenlabs" | "xtts";
export const REMOTE_ENGINE_KINDS: readonly RemoteEngineKind[] = ["openai", "elevenlabs", "xtts"];
const KINDS = REMOTE_ENGINE_KINDS;

const ID = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const MAX_ENGINES = 32;
const MAX_VOICES = 500;

export function parseRemoteEngines(json: string | undefined): RemoteEngineConfig[] {
  if (!json?.trim()) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new Error(`REMOTE_ENGINES is not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(raw)) throw new Error("REMOTE_ENGINES must be a JSON array of engines");
  if (raw.length > MAX_ENGINES) throw new Error(`REMOTE_ENGINES has ${raw.length} engines; at most ${MAX_ENGINES}`);
  const seen = new Set<string>();
  return raw.map((e: Record<string, unknown>, i) => {
    const where = `REMOTE_ENGINES[${i}]`;
    if (!e || typeof e !== "object") throw new Error(`${where} must be an object`);
    const id = e.id;
    if (typeof id !== "string" || !ID.test(id)) throw new Error(`${where}.id must be 1-32 of a-z 0-9 _ - (got ${JSON.stringify(id)})`);
    if (seen.has(id)) throw new Error(`${where}.id ${id} is used twice`);
    seen.add(id);
    const kind = (e.kind ?? "openai") as RemoteEngineKind;
    if (!KINDS.includes(kind)) throw new Error(`${where}.kind must be "openai", "elevenlabs" or "xtts" (got ${JSON.stringify(kind)})`);
    let url: URL;
    try {
      url = new URL(String(e.url));
    } catch {
      throw new Error(`${where}.url is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${where}.url must be http or https`);
    if (url.username || url.password) throw new Error(`${where}.url must not carry credentials: use "key"`);
    if (e.key !== undefined && (typeof e.key !== "string" || !e.key || e.key.length > 512)) throw new Error(`${where}.key must be a string of 1-512 characters`);
    const voices = e.voices;
    if (voices !== undefined && (!Array.isArray(voices) || voices.length > MAX_VOICES || !voices.every((v) => typeof v === "string" && v.length > 0 && v.length <= 100)))
      throw new Error(`${where}.voices must be up to ${MAX_VOICES} voice names (1-100 characters)`);
    const int = (name: string, dflt: number, max: number, unit: string) => {
      const v = e[name] ?? dflt;
      if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > max) throw new Error(`${where}.${name} must be 1..${max}${unit}`);
      return v;
    };
    const ms = (name: string, dflt: number) => int(name, dflt, 600_000, " ms");
    const model = e.model ?? (kind === "elevenlabs" ? "eleven_multilingual_v2" : kind === "xtts" ? "xtts_v2" : "tts-1");
    if (typeof model !== "string" || !model || model.length > 100) throw new Error(`${where}.model must be a string of 1-100 characters`);
    const language = e.language ?? "en";
    if (typeof language !== "string" || !/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i.test(language)) throw new Error(`${where}.language must be a language code such as en or pt-br`);
    return {
      id,
      kind,
      url: url.href.replace(/\/+$/, "").replace(/\/v1$/, ""),
      key: e.key as string | undefined,
      model,
      voices: voices as string[] | undefined,
      firstByteTimeoutMs: ms("firstByteTimeoutMs", 15_000),
      totalTimeoutMs: ms("totalTimeoutMs", 120_000),
      language: language.toLowerCase(),
      breakerFailures: int("breakerFailures", 5, 100, ""),
      breakerCooldownMs: int("breakerCooldownMs", 30_000, 3_600_000, " ms"),
    } satisfies RemoteEngineConfig;
  });
}

/** The headers that carry an engine's key: a bearer token (openai) or xi-api-key (elevenlabs). */
export function keyHeaders(cfg: Pick<RemoteEngineConfig, "kind" | "key">): Record<string, string> {
  if (!cfg.key) return {};
  return cfg.kind === "elevenlabs" ? { "xi-api-key": cfg.key } : { authorization: `Bearer ${cfg.key}` };
}

/** Where a server lists its voices (xtts: none; its languages answer a probe). */
export const voicesPath = (kind: RemoteEngineKind) => (kind === "elevenlabs" ? "/v1/voices" : kind === "xtts" ? "/languages" : "/v1/audio/voices");

/** A voice a remote server offers: the id it is asked by, the name it is shown with. */
export interface RemoteVoice {
  id: string;
  name: string;
}

const text = (v: unknown) => (typeof v === "string" && v.length > 0 && v.length <= 100 ? v : undefined);

/**
 * The voices a server offers. openai: `GET {url}/v1/audio/voices` (a list of names, or of objects
 * with id/voice_id/name, bare or under "voices"/"data"); elevenlabs: `GET {url}/v1/voices`
 * (`{voices: [{voice_id, name}]}`).
 */
export async function fetchRemoteVoices(cfg: RemoteEngineConfig, fetchImpl: typeof fetch = fetch): Promise<RemoteVoice[]> {
  if (cfg.voices) return cfg.voices.map((v) => ({ id: v, name: v }));
  // A reference-audio server speaks the workspace's clones: it offers no voices of its own.
  if (cfg.kind === "xtts") return [];
  const path = voicesPath(cfg.kind);
  const res = await fetchImpl(`${cfg.url}${path}`, { headers: keyHeaders(cfg), signal: AbortSignal.timeout(cfg.firstByteTimeoutMs) });
  if (!res.ok) throw new Error(`GET ${path} answered HTTP ${res.status}`);
  const body = (await res.json()) as unknown;
  const list = Array.isArray(body) ? body : ((body as { voices?: unknown; data?: unknown })?.voices ?? (body as { data?: unknown })?.data);
  if (!Array.isArray(list)) throw new Error(`GET ${path} gave no list of voices`);
  const voices: RemoteVoice[] = [];
  for (const v of list.slice(0, MAX_VOICES) as unknown[]) {
    if (typeof v === "string") {
      if (text(v)) voices.push({ id: v, name: v });
      continue;
    }
    if (!v || typeof v !== "object") continue;
    const o = v as Record<string, unknown>;
    const id = cfg.kind === "elevenlabs" ? text(o.voice_id) : (text(o.id) ?? text(o.voice_id) ?? text(o.name));
    if (id) voices.push({ id, name: text(o.name) ?? id });
  }
  return voices;
}

/** Reference audio a clone speaks from (xtts): one stored sample, bounded by the product before it is read. */
export interface ReferenceAudio {
  bytes: Uint8Array;
  fileName: string;
  mimeType: string;
}

/**
 * A workspace's own engine for one request, resolved by the product from its store (the key
 * unsealed only here, in memory): the engine port carries it so the engine needs no store.
 */
export interface RemoteTarget {
  config: RemoteEngineConfig;
  /** Names the circuit breaker the engine's requests share ("WORKSPACE/ENGINE"). */
  breakerKey: string;
  /** The server's voice; xtts: the clone's id and version (what its conditioning is cached under). */
  voice: string;
  /** xtts: the clone's reference audio, read only when the server's conditioning is not cached. */
  reference?: () => Promise<ReferenceAudio>;
}
