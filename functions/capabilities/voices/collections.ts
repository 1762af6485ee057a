import type { AppContext } from "../../platform/context.js";
import { accessibleVoice } from "./access.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { CollectionRecord } from "../../platform/stores/collections.js";
import { newId } from "../../platform/adapters/ids.js";
import { ApiError } from "../../platform/http/errors.js";
import { EVERYONE_GROUP_ID } from "../../platform/domain/permissions.js";
import { canEdit, type ResourceRole } from "../../platform/contract/dictionaries.js";
import { MAX_COLLECTIONS, MAX_VOICES_PER_COLLECTION } from "../../platform/contract/voices.js";
import { resourceRole } from "../dictionaries/roles.js";
import { voiceNotFound } from "./records.js";

/**
 * Voice collections: named sets of the voices a workspace sees. Roles follow the shared-resource
 * model of dictionaries: the creator and workspace admins are admin, others get what the
 * collection is shared with them (nothing until it is shared). Editors change it; admins delete it.
 */
export const collectionNotFound = (id: string) => new ApiError(404, "collection_not_found", `A voice collection with the collection_id ${id} was not found.`);

async function roleOf(caller: Caller, c: CollectionRecord): Promise<ResourceRole | null> {
  const [admin, groups] = await Promise.all([caller.isAdmin(), caller.groups()]);
  const groupIds = [EVERYONE_GROUP_ID, ...groups.filter((g) => g.member_user_ids.includes(caller.userId)).map((g) => g.group_id)];
  return resourceRole(c, { userId: caller.userId, isWorkspaceAdmin: admin, groupIds });
}

export async function readableCollection(ctx: AppContext, caller: Caller, id: string): Promise<{ collection: CollectionRecord; role: ResourceRole }> {
  const collection = await ctx.stores.collections.get(caller.workspaceId, id);
  const role = collection ? await roleOf(caller, collection) : null;
  if (!collection || !role) throw collectionNotFound(id);
  return { collection, role };
}

async function editableCollection(ctx: AppContext, caller: Caller, id: string) {
  const r = await readableCollection(ctx, caller, id);
  if (!canEdit(r.role)) throw new ApiError(403, "insufficient_collection_permissions", "Editor access to the collection is required.");
  return r;
}

/** Every collection the caller may see, sorted by title. */
export async function listCollections(ctx: AppContext, caller: Caller): Promise<Array<{ collection: CollectionRecord; role: ResourceRole }>> {
  const all = await ctx.stores.collections.list(caller.workspaceId);
  const withRoles = await Promise.all(all.map(async (collection) => ({ collection, role: await roleOf(caller, collection) })));
  return withRoles
    .filter((c): c is { collection: CollectionRecord; role: ResourceRole } => c.role !== null)
    .sort((a, b) => a.collection.title.localeCompare(b.collection.title, undefined, { sensitivity: "base" }) || a.collection.collection_id.localeCompare(b.collection.collection_id));
}

export async function createCollection(ctx: AppContext, caller: Caller, input: { title: string; icon: string }): Promise<CollectionRecord> {
  if ((await ctx.stores.collections.list(caller.workspaceId)).length >= MAX_COLLECTIONS) {
    throw new ApiError(400, "collection_limit_reached", `A workspace can have at most ${MAX_COLLECTIONS} voice collections.`);
  }
  const c: CollectionRecord = {
    collection_id: newId(),
    workspace_id: caller.workspaceId,
    title: input.title,
    icon: input.icon,
    created_by: caller.userId,
    created_at_unix: Math.floor(ctx.now() / 1000),
    role_to_group_ids: {},
    user_roles: {},
  };
  await ctx.stores.collections.create(c);
  return c;
}

export async function updateCollection(ctx: AppContext, caller: Caller, id: string, input: { title?: string | null; icon?: string | null }) {
  const { role } = await editableCollection(ctx, caller, id);
  const updated = await ctx.stores.collections.patch(caller.workspaceId, id, { title: input.title ?? undefined, icon: input.icon ?? undefined });
  if (!updated) throw collectionNotFound(id);
  return { collection: updated, role };
}

export async function deleteCollection(ctx: AppContext, caller: Caller, id: string): Promise<void> {
  const { role } = await readableCollection(ctx, caller, id);
  if (role !== "admin") throw new ApiError(403, "insufficient_collection_permissions", "Admin access to the collection is required to delete it.");
  await ctx.stores.collections.delete(caller.workspaceId, id);
}

/** Adding a voice already in the collection succeeds without changes. */
export async function addVoiceToCollection(ctx: AppContext, caller: Caller, id: string, voiceId: string): Promise<void> {
  await editableCollection(ctx, caller, id);
  if (!(await accessibleVoice(ctx, caller, voiceId))) throw voiceNotFound(voiceId);
  const members = await ctx.stores.collections.members(caller.workspaceId, id);
  if (members.some((m) => m.voice_id === voiceId)) return;
  if (members.length >= MAX_VOICES_PER_COLLECTION) {
    throw new ApiError(400, "collection_full", `A voice collection can hold at most ${MAX_VOICES_PER_COLLECTION} voices.`);
  }
  await ctx.stores.collections.addVoice(caller.workspaceId, { collection_id: id, voice_id: voiceId, added_at_unix: Math.floor(ctx.now() / 1000) });
}

export async function removeVoiceFromCollection(ctx: AppContext, caller: Caller, id: string, voiceId: string): Promise<void> {
  await editableCollection(ctx, caller, id);
  await ctx.stores.collections.removeVoice(caller.workspaceId, id, voiceId);
}
