import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { GroupRecord, MemberRecord } from "../../platform/stores/workspaces.js";
import { newId } from "../../platform/adapters/ids.js";
import { ApiError } from "../../platform/http/errors.js";
import { EVERYONE_GROUP_ID, PERMISSION_IDS, type PermissionId } from "../../platform/domain/permissions.js";
import { workspaceMessages as m } from "../../platform/contract/workspace.js";
import { humanMembers, memberByEmail } from "./members.js";

/**
 * Groups: Everyone (every member, id "default") and custom groups, each granting permission ids
 * (speech-generation.md §3). A custom group may only grant what Everyone does not (§6): anything
 * Everyone grants, every member already has.
 */
export const MAX_GROUPS = 100;

const everyoneFirst = () => new ApiError(400, "permission_granted_to_everyone", m.disableInEveryoneFirst);
export const groupNotFound = (id: string) => new ApiError(404, "group_not_found", m.groupNotFound(id));

/** Permissions a custom group cannot grant while the Everyone group grants them. */
export function grantableByCustomGroups(everyone: readonly PermissionId[]): PermissionId[] {
  return PERMISSION_IDS.filter((p) => !everyone.includes(p));
}

export interface GroupWire {
  id: string;
  name: string;
  /** E-mails of the members (every human member for Everyone). */
  members: string[];
  member_user_ids: string[];
  permissions: PermissionId[];
  is_everyone: boolean;
}

export function groupWire(g: GroupRecord, members: MemberRecord[]): GroupWire {
  const everyone = g.group_id === EVERYONE_GROUP_ID;
  const inGroup = everyone ? members : members.filter((x) => g.member_user_ids.includes(x.user_id));
  return {
    id: g.group_id,
    name: g.name,
    members: inGroup.map((x) => x.email),
    member_user_ids: inGroup.map((x) => x.user_id),
    permissions: g.permissions,
    is_everyone: everyone,
  };
}

/** Everyone first, then custom groups by name. */
export async function listGroups(ctx: AppContext, caller: Caller): Promise<GroupWire[]> {
  const [groups, members] = await Promise.all([caller.groups(), humanMembers(ctx, caller.workspaceId)]);
  return groups
    .map((g) => groupWire(g, members))
    .sort((a, b) => Number(b.is_everyone) - Number(a.is_everyone) || a.name.localeCompare(b.name, undefined, { sensitivity: "base" }));
}

async function customGroup(ctx: AppContext, caller: Caller, groupId: string): Promise<GroupRecord> {
  if (groupId === EVERYONE_GROUP_ID) throw new ApiError(400, "everyone_group", m.everyoneIsEveryone);
  const g = await ctx.stores.workspaces.group(caller.workspaceId, groupId);
  if (!g) throw groupNotFound(groupId);
  return g;
}

function checkGrantable(everyone: GroupRecord | undefined, permissions: readonly PermissionId[]): void {
  const allowed = grantableByCustomGroups(everyone?.permissions ?? []);
  if (permissions.some((p) => !allowed.includes(p))) throw everyoneFirst();
}

export async function createGroup(ctx: AppContext, caller: Caller, input: { name: string; permissions?: PermissionId[] }): Promise<GroupWire> {
  await caller.requireAdmin();
  const groups = await caller.groups();
  if (groups.length >= MAX_GROUPS) throw new ApiError(400, "group_limit_reached", `A workspace can have at most ${MAX_GROUPS} groups.`);
  if (groups.some((g) => g.name.toLowerCase() === input.name.toLowerCase())) throw new ApiError(409, "group_name_taken", m.groupNameTaken(input.name));
  const permissions = [...new Set(input.permissions ?? [])];
  checkGrantable(groups.find((g) => g.group_id === EVERYONE_GROUP_ID), permissions);
  const g: GroupRecord = {
    workspace_id: caller.workspaceId,
    group_id: newId(),
    name: input.name,
    permissions,
    member_user_ids: [],
    created_at: Math.floor(ctx.now() / 1000),
  };
  await ctx.stores.workspaces.createGroup(g);
  return groupWire(g, []);
}

/**
 * Changes a group's permissions (Timbre's `PATCH /v1/workspace/groups/{id}`) or name. For the
 * Everyone group any set is allowed; for a custom group only what Everyone leaves out.
 */
export async function updateGroup(ctx: AppContext, caller: Caller, groupId: string, input: { name?: string; permissions?: PermissionId[] }): Promise<GroupWire> {
  await caller.requireAdmin();
  const groups = await caller.groups();
  const g = groups.find((x) => x.group_id === groupId);
  if (!g) throw groupNotFound(groupId);
  const permissions = input.permissions ? PERMISSION_IDS.filter((p) => input.permissions!.includes(p)) : undefined;
  if (permissions && groupId !== EVERYONE_GROUP_ID) {
    // Keeping a permission the group already had is not "enabling" it.
    checkGrantable(
      groups.find((x) => x.group_id === EVERYONE_GROUP_ID),
      permissions.filter((p) => !g.permissions.includes(p)),
    );
  }
  if (input.name && groupId === EVERYONE_GROUP_ID) throw new ApiError(400, "everyone_group", "The Everyone group cannot be renamed.");
  if (input.name && groups.some((x) => x.group_id !== groupId && x.name.toLowerCase() === input.name!.toLowerCase())) {
    throw new ApiError(409, "group_name_taken", m.groupNameTaken(input.name));
  }
  const next = await ctx.stores.workspaces.patchGroup(caller.workspaceId, groupId, { name: input.name, permissions });
  if (!next) throw groupNotFound(groupId);
  return groupWire(next, await humanMembers(ctx, caller.workspaceId));
}

export async function deleteGroup(ctx: AppContext, caller: Caller, groupId: string): Promise<void> {
  await caller.requireAdmin();
  if (groupId === EVERYONE_GROUP_ID) throw new ApiError(400, "everyone_group", m.everyoneCannotBeDeleted);
  await customGroup(ctx, caller, groupId);
  await ctx.stores.workspaces.deleteGroup(caller.workspaceId, groupId);
}

export async function setGroupMembership(ctx: AppContext, caller: Caller, groupId: string, email: string, member: boolean): Promise<void> {
  await caller.requireAdmin();
  await customGroup(ctx, caller, groupId);
  const target = await memberByEmail(ctx, caller.workspaceId, email);
  await ctx.stores.workspaces.setGroupMember(caller.workspaceId, groupId, target.user_id, member);
}
