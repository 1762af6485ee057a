import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { ApiKeyRecord } from "../../platform/stores/credentials.js";
import { newId } from "../../platform/adapters/ids.js";
import { ApiError } from "../../platform/http/errors.js";
import { createApiKey, ONBOARDING_STEP_IDS } from "../../platform/domain/accounts.js";
import { PERMISSION_IDS } from "../../platform/domain/permissions.js";
import { currentUsage } from "../../platform/domain/credits.js";

/**
 * Service accounts: non-human members that own API keys, for programs. A service account is a
 * user without a password and a member of one workspace, so everything that scopes by user
 * (sharing, permissions, history) works for it unchanged. It takes no seat and is not listed
 * among members. Its keys may be narrowed to some permission ids.
 */
export const MAX_SERVICE_ACCOUNTS = 50;
export const MAX_KEYS_PER_SERVICE_ACCOUNT = 20;

export const serviceAccountNotFound = (id: string) => new ApiError(404, "service_account_not_found", `No service account with the id ${id} exists in this workspace.`);

export async function listServiceAccounts(ctx: AppContext, workspaceId: string) {
  return (await ctx.stores.workspaces.members(workspaceId)).filter((m) => m.service_account);
}

/** Every service account key of the workspace, named "<account> · <key>". */
export async function listServiceAccountKeys(ctx: AppContext, workspaceId: string): Promise<Array<{ key_id: string; name: string; service_account_user_id: string }>> {
  const accounts = await listServiceAccounts(ctx, workspaceId);
  const keys = await Promise.all(accounts.map((a) => ctx.stores.apiKeys.list(workspaceId, a.user_id)));
  return accounts.flatMap((a, i) => keys[i].map((k) => ({ key_id: k.key_id, name: `${a.service_account!.name} · ${k.name}`, service_account_user_id: a.user_id })));
}

/** What each capped key has used in the workspace's current period. */
async function keyUse(ctx: AppContext, workspaceId: string, keys: ApiKeyRecord[]): Promise<Map<string, number>> {
  const capped = keys.filter((k) => typeof k.character_limit === "number");
  if (capped.length === 0) return new Map();
  const period = (await currentUsage(ctx, workspaceId)).period_start_unix;
  return new Map(await Promise.all(capped.map(async (k) => [k.key_id, await ctx.stores.ledger.capUsed(workspaceId, `key:${k.key_id}`, period)] as const)));
}

/** `used`: the key's credits this period, counted against its character_limit (null without one). */
export function serviceKeyWire(k: ApiKeyRecord, used: number | null = null) {
  return {
    name: k.name,
    hint: `${k.prefix}…`,
    key_id: k.key_id,
    service_account_user_id: k.user_id,
    created_at_unix: k.created_at,
    is_disabled: k.is_disabled === true,
    // Our permission ids where the key is narrowed; null means all.
    permissions: k.permissions && k.permissions !== "all" ? k.permissions : null,
    character_limit: k.character_limit ?? null,
    character_count: typeof k.character_limit === "number" ? used ?? 0 : null,
    // Only a hash of the key is stored; this is it (never the key).
    hashed_xi_api_key: k.key_hash,
  };
}

export async function serviceAccountsWire(ctx: AppContext, caller: Caller) {
  await caller.requireAdmin();
  const accounts = await listServiceAccounts(ctx, caller.workspaceId);
  const keys = await Promise.all(accounts.map((a) => ctx.stores.apiKeys.list(caller.workspaceId, a.user_id)));
  const used = await keyUse(ctx, caller.workspaceId, keys.flat());
  return {
    "service-accounts": accounts.map((a, i) => ({
      service_account_user_id: a.user_id,
      name: a.service_account!.name,
      created_at_unix: a.joined_at,
      "api-keys": keys[i].map((k) => serviceKeyWire(k, used.get(k.key_id) ?? null)),
      default_sharing_groups: [],
    })),
  };
}

export async function createServiceAccount(ctx: AppContext, caller: Caller, name: string): Promise<string> {
  await caller.requireAdmin();
  if ((await listServiceAccounts(ctx, caller.workspaceId)).length >= MAX_SERVICE_ACCOUNTS) {
    throw new ApiError(400, "service_account_limit_reached", `A workspace can have at most ${MAX_SERVICE_ACCOUNTS} service accounts.`);
  }
  const userId = newId();
  const now = Math.floor(ctx.now() / 1000);
  // An address no one can receive mail at or sign in with: service accounts use keys only.
  const email = `service-account-${userId.toLowerCase()}@service-accounts.invalid`;
  await ctx.stores.users.create({
    user_id: userId,
    email,
    first_name: name,
    photo_url: null,
    password_hash: "",
    created_at: now,
    default_workspace_id: caller.workspaceId,
    is_producer: false,
    is_onboarding_completed: true,
    onboarding_checklist: { checklist_id: "getting-started", hidden: true, items: ONBOARDING_STEP_IDS.map((id) => ({ onboarding_checklist_item_id: id, is_completed: false })) },
  });
  await ctx.stores.workspaces.addMember({
    workspace_id: caller.workspaceId,
    user_id: userId,
    email,
    seat_type: "workspace_member",
    joined_at: now,
    is_locked: false,
    service_account: { name, created_by: caller.userId },
  });
  return userId;
}

async function account(ctx: AppContext, caller: Caller, id: string) {
  await caller.requireAdmin();
  const m = await ctx.stores.workspaces.member(caller.workspaceId, id);
  if (!m?.service_account) throw serviceAccountNotFound(id);
  return m;
}

/** Permission ids a key is narrowed to: "all", or the subset of ours it names (other ids have no effect here). */
export function keyPermissions(p: "all" | string[]): "all" | string[] {
  return p === "all" ? "all" : PERMISSION_IDS.filter((x) => p.includes(x));
}

export async function serviceAccountKeys(ctx: AppContext, caller: Caller, id: string) {
  await account(ctx, caller, id);
  const keys = await ctx.stores.apiKeys.list(caller.workspaceId, id);
  const used = await keyUse(ctx, caller.workspaceId, keys);
  return { "api-keys": keys.map((k) => serviceKeyWire(k, used.get(k.key_id) ?? null)) };
}

export async function createServiceAccountKey(ctx: AppContext, caller: Caller, id: string, input: { name: string; permissions: "all" | string[]; character_limit?: number | null }) {
  await account(ctx, caller, id);
  if ((await ctx.stores.apiKeys.list(caller.workspaceId, id)).length >= MAX_KEYS_PER_SERVICE_ACCOUNT) {
    throw new ApiError(400, "api_key_limit_reached", `A service account can have at most ${MAX_KEYS_PER_SERVICE_ACCOUNT} API keys.`);
  }
  const { value, record } = await createApiKey(ctx, { workspaceId: caller.workspaceId, userId: id, name: input.name });
  await ctx.stores.apiKeys.patch(record.key_hash, { permissions: keyPermissions(input.permissions), character_limit: input.character_limit ?? null });
  return { "xi-api-key": value, key_id: record.key_id };
}

async function keyOf(ctx: AppContext, caller: Caller, id: string, keyId: string) {
  await account(ctx, caller, id);
  const key = (await ctx.stores.apiKeys.list(caller.workspaceId, id)).find((k) => k.key_id === keyId);
  if (!key) throw new ApiError(404, "api_key_not_found", "No such API key.");
  return key;
}

export async function updateServiceAccountKey(
  ctx: AppContext,
  caller: Caller,
  id: string,
  keyId: string,
  input: { name?: string; is_enabled?: boolean | "no_update"; permissions?: "all" | "no_update" | string[]; character_limit?: number | "clear" | "no_update" | null },
) {
  const key = await keyOf(ctx, caller, id, keyId);
  await ctx.stores.apiKeys.patch(key.key_hash, {
    name: input.name,
    is_disabled: typeof input.is_enabled === "boolean" ? !input.is_enabled : undefined,
    permissions: input.permissions && input.permissions !== "no_update" ? keyPermissions(input.permissions) : undefined,
    character_limit: input.character_limit === "clear" ? null : typeof input.character_limit === "number" ? input.character_limit : undefined,
  });
}

export async function deleteServiceAccountKey(ctx: AppContext, caller: Caller, id: string, keyId: string) {
  await keyOf(ctx, caller, id, keyId);
  await ctx.stores.apiKeys.revoke(caller.workspaceId, id, keyId);
}
