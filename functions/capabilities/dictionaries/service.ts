import { z } from "zod";
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { DictionaryRecord, DictionaryVersionRecord } from "../../platform/stores/dictionaries.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { newId } from "../../platform/adapters/ids.js";
import { ApiError } from "../../platform/http/errors.js";
import { EVERYONE_GROUP_ID } from "../../platform/domain/permissions.js";
import { MAX_RULES_PER_DICTIONARY, canEdit, dictionaryMessages, type PronunciationRule, type ResourceRole } from "../../platform/contract/dictionaries.js";
import { compileRules, type CompiledDictionary } from "./apply.js";
import { resourceRole } from "./roles.js";

/**
 * Dictionaries as the API and speech use them: access by role, immutable versions (rules in S3,
 * one object per version), publishing a new version, and a per-process cache of versions'
 * rules (safe because a version never changes).
 */
export const dictionaryNotFound = (id: string) => new ApiError(404, "pronunciation_dictionary_not_found", dictionaryMessages.unableToRetrieve(id));
export const versionNotFound = (id: string, versionId: string) =>
  new ApiError(404, "pronunciation_dictionary_version_not_found", `The version ${versionId} of pronunciation dictionary ${id} was not found.`);
export const viewerCannotSave = () => new ApiError(403, "insufficient_dictionary_permissions", dictionaryMessages.viewerCannotSave);

const StoredRule = z.discriminatedUnion("type", [
  z.object({ type: z.literal("alias"), string_to_replace: z.string(), alias: z.string(), case_sensitive: z.boolean(), word_boundaries: z.boolean() }),
  z.object({ type: z.literal("phoneme"), string_to_replace: z.string(), phoneme: z.string(), alphabet: z.enum(["ipa", "cmu-arpabet"]), case_sensitive: z.boolean(), word_boundaries: z.boolean() }),
]);
const StoredRules = z.object({ rules: z.array(StoredRule) });

const rulesKey = (ws: string, id: string, versionId: string) => workspaceKey(ws, "dictionaries", id, `${versionId}.json`);

/** Versions' rules, compiled, newest use last out (versions are immutable, so never stale). */
const CACHE_SIZE = 256;
const cache = new Map<string, Promise<{ rules: PronunciationRule[]; compiled: CompiledDictionary }>>();

export function versionRules(ctx: AppContext, ws: string, id: string, versionId: string): Promise<{ rules: PronunciationRule[]; compiled: CompiledDictionary }> {
  const key = `${ctx.config.aws.bucket}/${rulesKey(ws, id, versionId)}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const load = (async () => {
    const got = await ctx.blobs.getBytes(rulesKey(ws, id, versionId));
    if (!got) throw versionNotFound(id, versionId);
    const { rules } = StoredRules.parse(JSON.parse(Buffer.from(got.bytes).toString("utf8")));
    return { rules, compiled: compileRules(rules) };
  })();
  cache.set(key, load);
  load.catch(() => cache.delete(key));
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return load;
}

export async function callerRole(caller: Caller, d: DictionaryRecord): Promise<ResourceRole | null> {
  const [admin, groups] = await Promise.all([caller.isAdmin(), caller.groups()]);
  const groupIds = [EVERYONE_GROUP_ID, ...groups.filter((g) => g.member_user_ids.includes(caller.userId)).map((g) => g.group_id)];
  return resourceRole(d, { userId: caller.userId, isWorkspaceAdmin: admin, groupIds });
}

/** A dictionary the caller may at least view; anything else (another workspace's, no role) is not found. */
export async function readableDictionary(ctx: AppContext, caller: Caller, id: string): Promise<{ dict: DictionaryRecord; role: ResourceRole }> {
  const dict = await ctx.stores.dictionaries.get(caller.workspaceId, id);
  const role = dict ? await callerRole(caller, dict) : null;
  if (!dict || !role) throw dictionaryNotFound(id);
  return { dict, role };
}

export async function editableDictionary(ctx: AppContext, caller: Caller, id: string): Promise<{ dict: DictionaryRecord; role: ResourceRole }> {
  const r = await readableDictionary(ctx, caller, id);
  if (!canEdit(r.role)) throw viewerCannotSave();
  return r;
}

/** The version a locator names (or the latest), checked to exist. */
export async function resolveVersion(ctx: AppContext, dict: DictionaryRecord, versionId: string | null | undefined): Promise<string> {
  if (!versionId || versionId === dict.latest_version_id) return dict.latest_version_id;
  const v = await ctx.stores.dictionaries.version(dict.workspace_id, dict.dictionary_id, versionId);
  if (!v) throw versionNotFound(dict.dictionary_id, versionId);
  return v.version_id;
}

async function writeVersion(ctx: AppContext, caller: Caller, dict: Pick<DictionaryRecord, "dictionary_id" | "workspace_id">, seq: number, rules: PronunciationRule[]): Promise<DictionaryVersionRecord> {
  if (rules.length > MAX_RULES_PER_DICTIONARY) {
    throw new ApiError(400, "too_many_rules", `A dictionary can hold at most ${MAX_RULES_PER_DICTIONARY} rules; this change would make ${rules.length}.`);
  }
  const versionId = newId();
  const version: DictionaryVersionRecord = {
    dictionary_id: dict.dictionary_id,
    workspace_id: dict.workspace_id,
    version_id: versionId,
    seq,
    rules_num: rules.length,
    rules_key: rulesKey(dict.workspace_id, dict.dictionary_id, versionId),
    created_by: caller.userId,
    created_at_unix: Math.floor(ctx.now() / 1000),
  };
  await ctx.blobs.put(version.rules_key, JSON.stringify({ rules }), "application/json");
  await ctx.stores.dictionaries.putVersion(version);
  return version;
}

export async function createDictionary(
  ctx: AppContext,
  caller: Caller,
  input: { name: string; description: string | null; workspaceAccess: ResourceRole | null; rules: PronunciationRule[]; language: string | null },
): Promise<{ dict: DictionaryRecord; version: DictionaryVersionRecord }> {
  const id = newId();
  const version = await writeVersion(ctx, caller, { dictionary_id: id, workspace_id: caller.workspaceId }, 1, input.rules);
  const dict: DictionaryRecord = {
    dictionary_id: id,
    workspace_id: caller.workspaceId,
    name: input.name,
    description: input.description,
    created_by: caller.userId,
    creation_time_unix: version.created_at_unix,
    archived_time_unix: null,
    latest_version_id: version.version_id,
    latest_version_rules_num: version.rules_num,
    latest_version_seq: 1,
    language: input.language,
    // "If not provided, defaults to no access": only the creator (and workspace admins).
    role_to_group_ids: input.workspaceAccess ? { [input.workspaceAccess]: [EVERYONE_GROUP_ID] } : {},
    user_roles: {},
  };
  await ctx.stores.dictionaries.create(dict, version);
  return { dict, version };
}

/**
 * Publishes a new version computed from the latest rules. If another change was published in
 * between, the change is recomputed on top of it (a few times, then 409).
 */
export async function changeRules(
  ctx: AppContext,
  caller: Caller,
  dict: DictionaryRecord,
  change: (rules: PronunciationRule[]) => PronunciationRule[],
): Promise<{ dict: DictionaryRecord; version: DictionaryVersionRecord }> {
  let current = dict;
  for (let attempt = 0; attempt < 5; attempt++) {
    const { rules } = await versionRules(ctx, current.workspace_id, current.dictionary_id, current.latest_version_id);
    const version = await writeVersion(ctx, caller, current, current.latest_version_seq + 1, change(rules));
    const published = await ctx.stores.dictionaries.publish(current.workspace_id, current.dictionary_id, current.latest_version_id, version);
    if (published) return { dict: published, version };
    const fresh = await ctx.stores.dictionaries.get(current.workspace_id, current.dictionary_id);
    if (!fresh) throw dictionaryNotFound(current.dictionary_id);
    current = fresh;
  }
  throw new ApiError(409, "pronunciation_dictionary_conflict", "The dictionary was changed by someone else at the same time. Please try again.");
}
