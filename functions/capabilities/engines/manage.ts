/**
 * Remote engines a workspace's administrators add over HTTP (issue 25 §3): checked like
 * REMOTE_ENGINES entries (media/engine/remote/config.ts), their URL like a webhook target at save
 * (the literal address, then every address the host resolves to), the key sealed and shown only
 * as a masked hint. Members are refused (403).
 */
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import { seal } from "../../platform/domain/sealed.js";
import { ApiError } from "../../platform/http/errors.js";
import { AddressRefused, literalHostRefused, resolveAllowed } from "../../platform/net/addresses.js";
import { WorkspaceEngines, type WorkspaceEngineRecord } from "../../platform/stores/workspaceEngines.js";
import { parseRemoteEngines } from "../../media/engine/remote/config.js";

export const MAX_WORKSPACE_ENGINES = 10;
const SEAL_PURPOSE = "remote-engine-keys";

export interface NewEngine {
  engine_id: string;
  kind?: "openai" | "elevenlabs";
  url: string;
  key?: string | null;
  model?: string | null;
  language?: string | null;
}

const store = (ctx: AppContext) => new WorkspaceEngines(ctx.stores.tables.main);

export function engineWire(r: WorkspaceEngineRecord) {
  return { engine_id: r.engine_id, kind: r.kind, url: r.url, model: r.model, language: r.language, key_hint: r.key_hint, created_at_unix: r.created_at_unix };
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
    [cfg] = parseRemoteEngines(JSON.stringify([{ id: body.engine_id, kind: body.kind ?? "openai", url: body.url, key: body.key ?? undefined, model: body.model ?? undefined, language: body.language ?? undefined }]));
  } catch (e) {
    throw new ApiError(400, "invalid_engine", (e as Error).message.replace(/^REMOTE_ENGINES\[0\]\.(id|kind|url|key|model|language)/, "$1").replace(/^REMOTE_ENGINES\[0\]/, "engine"));
  }
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
  };
  if (!(await s.create(record))) throw new ApiError(409, "engine_exists", `This workspace already has an engine named "${cfg.id}".`);
  return record;
}

export async function removeEngine(ctx: AppContext, caller: Caller, engineId: string): Promise<void> {
  await caller.requireAdmin();
  if (!(await store(ctx).delete(caller.workspaceId, engineId))) throw new ApiError(404, "engine_not_found", `This workspace has no engine named "${engineId}".`);
}
