import type { AppContext } from "../context.js";
import { sha256Hex } from "../adapters/ids.js";
import { verifyToken } from "../domain/tokens.js";
import { Caller, type Principal } from "../domain/caller.js";
import { ApiError } from "./errors.js";
import { API_KEY_PREFIX } from "../domain/accounts.js";
import type { ApiRequest } from "./types.js";

const invalid = (message: string) => new ApiError(401, "invalid_api_key", message);

/**
 * Each process's key-use records on their way (key hash -> the write). The store's copy of a key
 * says when it was last used, and requests that read it at once (a wave of a key this process has
 * not seen: `byHash` shares one read among them) all found it stale: each wrote, one write won and
 * the others failed their condition. They now wait for the one on its way (issue 24's first wave).
 */
const touching = new WeakMap<AppContext, Map<string, Promise<void>>>();

function touchOnce(ctx: AppContext, hash: string, now: number): Promise<void> {
  const mine = touching.get(ctx) ?? new Map<string, Promise<void>>();
  touching.set(ctx, mine);
  const pending = mine.get(hash);
  if (pending) return pending;
  const started = ctx.stores.apiKeys.touch(hash, now).finally(() => mine.delete(hash));
  mine.set(hash, started);
  return started;
}

/**
 * Who is calling: an API key in `xi-api-key`, or a short-lived session token from the web
 * in `Authorization: Bearer` (where an API key, `sk_...`, is accepted too, as OpenAI's clients
 * send it). Missing or invalid credentials are a 401 invalid_api_key.
 */
export async function authenticateRequest(ctx: AppContext, req: ApiRequest): Promise<Caller> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  // OpenAI's clients send the API key as a bearer token (/openai/v1); session tokens start tt_.
  const apiKey = req.headers["xi-api-key"]?.trim() || (bearer?.startsWith(API_KEY_PREFIX) ? bearer : undefined);
  const now = Math.floor(ctx.now() / 1000);
  if (apiKey) {
    const hash = sha256Hex(apiKey);
    const record = await ctx.stores.apiKeys.byHash(hash);
    if (!record) throw invalid("Invalid API key");
    if (!record.last_used_at || record.last_used_at < now - 60) await touchOnce(ctx, hash, now);
    if (record.is_disabled) throw invalid("This API key is disabled.");
    const principal: Principal = {
      userId: record.user_id,
      workspaceId: record.workspace_id,
      via: "api_key",
      apiKeyPrefix: record.prefix,
      apiKeyId: record.key_id,
      apiKeyCharacterLimit: record.character_limit ?? null,
      keyPermissions: record.permissions ?? "all",
    };
    return new Caller(ctx, principal);
  }
  if (bearer) {
    const claims = verifyToken(ctx.secrets.session, bearer, now);
    if (!claims) throw invalid("Your session token is invalid or has expired. Please sign in again.");
    const session = await ctx.stores.sessions.get(claims.sid, now);
    if (!session || session.user_id !== claims.uid || session.workspace_id !== claims.ws) throw invalid("Your session has ended. Please sign in again.");
    return new Caller(ctx, { userId: claims.uid, workspaceId: claims.ws, via: "session", sessionHash: claims.sid });
  }
  throw invalid("Missing API key. Send it in the xi-api-key header.");
}
