/**
 * Remote engines a workspace's administrators add over HTTP (issue 25 §3): checked like
 * REMOTE_ENGINES entries (media/engine/remote/config.ts), their URL like a webhook target at save
 * (the literal address, then every address the host resolves to), the key sealed and shown only
 * as a masked hint. Members are refused (403). Adding one lists its server's voices as voices of
 * the workspace (speak.ts); removing it removes them.
 */
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import { seal } from "../../platform/domain/sealed.js";
import { ApiError } from "../../platform/http/errors.js";
import { AddressRefused, literalHostRefused, resolveAllowed } from "../../platform/net/addresses.js";
import { WorkspaceEngines, type WorkspaceEngineRecord } from "../../platform/stores/workspaceEngines.js";
import { checkedFetch } from "../../platform/net/fetch.js";
import { fetchRemoteVoices, parseRemoteEngines } from "../../media/engine/remote/config.js";
import type { BreakerSnapshot } from "../../media/engine/remote/breaker.js";
import { breakerKeyOf, configOf, isEngineVoice, SEAL_PURPOSE, workspaceRemoteVoiceRecord } from "./speak.js";
import { remoteEngine } from "./health.js";

export const MAX_WORKSPACE_ENGINES = 10;

export interface NewEngine {
  engine_id: string;
  kind?: "openai" | "elevenlabs" | "xtts";
  /** Voices to offer (names); absent: the server's list. */
  voices?: string[] | null;
  url: string;
  key?: string | null;
  model?: string | null;
  language?: string | null;
  /** Seconds to the first byte of audio (1-60, default 15) and to the whole answer (5-600, default 120). */
  first_byte_timeout_s?: number | null;
  total_timeout_s?: number | null;
}

/** The bounds of a workspace engine's timeouts, in seconds (the engine port takes ms). */
export const TIMEOUT_BOUNDS = { firstByte: { min: 1, max: 60, dflt: 15 }, total: { min: 5, max: 600, dflt: 120 } } as const;

/** The timeouts asked for, checked (whole seconds within the bounds, the total not shorter than the first byte), in ms. */
export function checkedTimeouts(id: string, firstByteS: number | null | undefined, totalS: number | null | undefined, current?: { first: number; total: number }) {
  const one = (v: number | null | undefined, b: { min: number; max: number; dflt: number }, name: string, had?: number) => {
    if (v === null || v === undefined) return had ?? b.dflt * 1000;
    if (!Number.isInteger(v) || v < b.min || v > b.max) throw new ApiError(400, "invalid_engine", `${name} of the engine "${id}" must be a whole number of seconds from ${b.min} to ${b.max} (got ${v}).`);
    return v * 1000;
  };
  const first = one(firstByteS, TIMEOUT_BOUNDS.firstByte, "first_byte_timeout_s", current?.first);
  const total = one(totalS, TIMEOUT_BOUNDS.total, "total_timeout_s", current?.total);
  if (total < first) throw new ApiError(400, "invalid_engine", `total_timeout_s of the engine "${id}" (${total / 1000} s) must not be shorter than its first_byte_timeout_s (${first / 1000} s).`);
  return { first_byte_timeout_ms: first, total_timeout_ms: total };
}

const store = (ctx: AppContext) => new WorkspaceEngines(ctx.stores.tables.main);

export function engineWire(r: WorkspaceEngineRecord, extra: { voice_ids?: string[]; voices_error?: string | null; state?: BreakerSnapshot } = {}) {
  return {
    engine_id: r.engine_id,
    kind: r.kind,
    url: r.url,
    model: r.model,
    language: r.language,
    key_hint: r.key_hint,
    first_byte_timeout_s: (r.first_byte_timeout_ms ?? TIMEOUT_BOUNDS.firstByte.dflt * 1000) / 1000,
    total_timeout_s: (r.total_timeout_ms ?? TIMEOUT_BOUNDS.total.dflt * 1000) / 1000,
    created_at_unix: r.created_at_unix,
    ...extra,
  };
}

const notAllowed = (id: string, what: string) =>
  new ApiError(
    400,
    "engine_target_not_allowed",
    `The engine "${id}" points to ${what}. Remote engines may not reach private, loopback or link-local addresses; the server's operator can allow loopback with WEBHOOK_ALLOW_LOCAL_TARGETS=true, private networks with WEBHOOK_ALLOW_PRIVATE=true.`,
  );

export async function listEngines(ctx: AppContext, caller: Caller): Promise<WorkspaceEngineRecord[]> {
  await caller.requireAdmin();
  return store(ctx).list(caller.workspaceId);
}

export async function addEngine(ctx: AppContext, caller: Caller, body: NewEngine): Promise<WorkspaceEngineRecord> {
  await caller.requireAdmin();
  const s = store(ctx);
  if ((await s.list(caller.workspaceId)).length >= MAX_WORKSPACE_ENGINES) throw new ApiError(400, "engine_limit_reached", `A workspace can add at most ${MAX_WORKSPACE_ENGINES} remote engines. Remove one first.`);
  let cfg;
  try {
    [cfg] = parseRemoteEngines(JSON.stringify([{ id: body.engine_id, kind: body.kind ?? "openai", url: body.url, key: body.key ?? undefined, model: body.model ?? undefined, language: body.language ?? undefined, voices: body.voices ?? undefined }]));
  } catch (e) {
    throw new ApiError(400, "invalid_engine", (e as Error).message.replace(/^REMOTE_ENGINES\[0\]\.(id|kind|url|key|model|language)/, "$1").replace(/^REMOTE_ENGINES\[0\]/, "engine"));
  }
  const timeouts = checkedTimeouts(cfg.id, body.first_byte_timeout_s, body.total_timeout_s);
  const url = new URL(cfg.url);
  const literal = literalHostRefused(url, ctx.config.webhooks);
  if (literal) throw notAllowed(cfg.id, `a ${literal} address`);
  try {
    await resolveAllowed(url.hostname, ctx.config.webhooks);
  } catch (e) {
    if (!(e instanceof AddressRefused)) throw e;
    throw e.addressClass === "unresolvable" ? new ApiError(400, "invalid_engine", `The engine's host ${url.hostname} does not resolve.`) : notAllowed(cfg.id, `a host that resolves to a ${e.addressClass} address`);
  }
  const record: WorkspaceEngineRecord = {
    engine_id: cfg.id,
    workspace_id: caller.workspaceId,
    created_by_user_id: caller.userId,
    kind: cfg.kind,
    url: cfg.url,
    model: cfg.model,
    language: cfg.language,
    key_enc: cfg.key ? seal(ctx.secrets.session, SEAL_PURPOSE, cfg.key) : null,
    key_hint: cfg.key ? `••••${cfg.key.slice(-4)}` : null,
    created_at_unix: Math.floor(ctx.now() / 1000),
    ...timeouts,
  };
  if (!(await s.create(record))) throw new ApiError(409, "engine_exists", `This workspace already has an engine named "${cfg.id}".`);
  return record;
}

/** Changes an engine's timeouts (what may change without adding it again). */
export async function editEngine(ctx: AppContext, caller: Caller, engineId: string, body: { first_byte_timeout_s?: number | null; total_timeout_s?: number | null }): Promise<WorkspaceEngineRecord> {
  await caller.requireAdmin();
  const s = store(ctx);
  const r = await s.get(caller.workspaceId, engineId);
  if (!r) throw new ApiError(404, "engine_not_found", `This workspace has no engine named "${engineId}".`);
  const now = { first: r.first_byte_timeout_ms ?? TIMEOUT_BOUNDS.firstByte.dflt * 1000, total: r.total_timeout_ms ?? TIMEOUT_BOUNDS.total.dflt * 1000 };
  const next = { ...r, ...checkedTimeouts(engineId, body.first_byte_timeout_s, body.total_timeout_s, now) };
  if (!(await s.replace(next))) throw new ApiError(404, "engine_not_found", `This workspace has no engine named "${engineId}".`);
  return next;
}

/**
 * Writes the voices the engine's server offers now as the workspace's voices (and removes those it
 * no longer offers). A server that does not answer keeps the voices it had: the error says why.
 */
export async function refreshEngineVoices(ctx: AppContext, r: WorkspaceEngineRecord, voices?: string[] | null): Promise<{ voice_ids: string[]; voices_error: string | null }> {
  const cfg = { ...configOf(ctx, r), ...(voices ? { voices } : {}) };
  const existing = (await ctx.stores.voices.ofWorkspace(r.workspace_id)).filter((v) => isEngineVoice(v, r.engine_id));
  let offered;
  try {
    offered = await fetchRemoteVoices(cfg, checkedFetch(ctx.config.webhooks));
  } catch (e) {
    const why = (e as Error).name === "TimeoutError" ? "it did not answer in time" : (e as Error).name === "AddressRefused" ? "its address is refused" : (e as Error).message.startsWith("GET ") ? (e as Error).message : "it could not be reached";
    return { voice_ids: existing.map((v) => v.voice_id), voices_error: `The voices of ${r.engine_id} could not be listed: ${why}.` };
  }
  const now = Math.floor(ctx.now() / 1000);
  const wanted = new Map(offered.map((v) => [workspaceRemoteVoiceRecord(r, v, now).voice_id, workspaceRemoteVoiceRecord(r, v, now)]));
  for (const old of existing) if (!wanted.has(old.voice_id)) await ctx.stores.voices.delete(r.workspace_id, old.voice_id);
  const had = new Set(existing.map((v) => v.voice_id));
  for (const v of wanted.values()) if (!had.has(v.voice_id)) await ctx.stores.voices.create(v);
  return { voice_ids: [...wanted.keys()], voices_error: null };
}

/** An engine with its breaker's state and, with `probe`, whether its server answers now. */
export async function engineStatus(ctx: AppContext, caller: Caller, engineId: string, probe: boolean) {
  await caller.requireAdmin();
  const r = await store(ctx).get(caller.workspaceId, engineId);
  if (!r) throw new ApiError(404, "engine_not_found", `This workspace has no engine named "${engineId}".`);
  const engine = await remoteEngine(ctx);
  const cfg = configOf(ctx, r);
  const target = { config: cfg, breakerKey: breakerKeyOf(r) };
  return { record: r, state: engine?.stateOf(target), probe: probe && engine ? await engine.probe(cfg) : undefined };
}

export async function removeEngine(ctx: AppContext, caller: Caller, engineId: string): Promise<void> {
  await caller.requireAdmin();
  if (!(await store(ctx).delete(caller.workspaceId, engineId))) throw new ApiError(404, "engine_not_found", `This workspace has no engine named "${engineId}".`);
  for (const v of await ctx.stores.voices.ofWorkspace(caller.workspaceId)) if (isEngineVoice(v, engineId)) await ctx.stores.voices.delete(caller.workspaceId, v.voice_id);
  (await remoteEngine(ctx))?.forget(`${caller.workspaceId}/${engineId}`);
}
