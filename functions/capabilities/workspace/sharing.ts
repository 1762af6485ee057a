import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { MemberRecord } from "../../platform/stores/workspaces.js";
import type { ResourceRole } from "../../platform/contract/dictionaries.js";
import { ApiError } from "../../platform/http/errors.js";
import { EVERYONE_GROUP_ID } from "../../platform/domain/permissions.js";
import { callerRole as dictionaryRole } from "../dictionaries/service.js";
import { resourceRole, shareWithGroup, type SharedResource } from "../dictionaries/roles.js";
import { voiceAccess } from "../voices/access.js";
import { memberByEmail } from "./members.js";
import { listServiceAccountKeys } from "./serviceAccounts.js";

/**
 * Workspace resource sharing (contract §11 `workspace.resources`): pronunciation dictionaries,
 * voices and voice collections carry roles per group (the default group is every member) and
 * per user. Viewers use, editors and admins edit, only admins (the creator, workspace admins,
 * or someone given admin) share further. The creator is the owner and cannot be changed.
 */
export const SHAREABLE_TYPES = ["pronunciation_dictionary", "voice", "voice_collection"] as const;
export type ShareableType = (typeof SHAREABLE_TYPES)[number];

export const sharingMessages = {
  notFound: (type: string, id: string) => `No ${type.replace(/_/g, " ")} with the id ${id} exists in this workspace.`,
  adminRequired: "Only admins of this resource can change who it is shared with.",
  ownerFixed: "The owner's access cannot be changed.",
  selfFixed: "You cannot change your own access.",
  oneTarget: "Give exactly one of user_email, group_id or workspace_api_key_id.",
  keyNotFound: (id: string) => `No service account API key with the id ${id} exists in this workspace.`,
};

interface Shareable extends SharedResource {
  id: string;
  name: string;
  /** The caller's role, "owner" for the creator. */
  role: "owner" | ResourceRole | null;
  save(sharing: Pick<SharedResource, "role_to_group_ids" | "user_roles">): Promise<void>;
}

async function load(ctx: AppContext, caller: Caller, type: ShareableType, id: string): Promise<Shareable> {
  const ws = caller.workspaceId;
  const missing = () => new ApiError(404, "resource_not_found", sharingMessages.notFound(type, id));
  if (type === "pronunciation_dictionary") {
    const d = await ctx.stores.dictionaries.get(ws, id);
    if (!d) throw missing();
    const role = await dictionaryRole(caller, d);
    return {
      id, name: d.name, created_by: d.created_by, role_to_group_ids: d.role_to_group_ids, user_roles: d.user_roles,
      role: d.created_by === caller.userId ? "owner" : role,
      save: async (s) => void (await ctx.stores.dictionaries.patch(ws, id, s)),
    };
  }
  if (type === "voice") {
    const v = await ctx.stores.voices.get(ws, id);
    if (!v) throw missing();
    return {
      id, name: v.name, created_by: v.owner_user_id ?? "", role_to_group_ids: v.role_to_group_ids ?? {}, user_roles: v.user_roles ?? {},
      role: await voiceAccess(caller, v),
      save: async (s) => void (await ctx.stores.voices.patch(ws, id, s)),
    };
  }
  const c = await ctx.stores.collections.get(ws, id);
  if (!c) throw missing();
  const [admin, groups] = await Promise.all([caller.isAdmin(), caller.groups()]);
  const groupIds = [EVERYONE_GROUP_ID, ...groups.filter((g) => g.member_user_ids.includes(caller.userId)).map((g) => g.group_id)];
  const role = resourceRole(c, { userId: caller.userId, isWorkspaceAdmin: admin, groupIds });
  return {
    id, name: c.title, created_by: c.created_by, role_to_group_ids: c.role_to_group_ids, user_roles: c.user_roles,
    role: c.created_by === caller.userId ? "owner" : role,
    save: async (s) => void (await ctx.stores.collections.patchSharing(ws, id, s)),
  };
}

const RANK: Record<string, number> = { owner: 5, admin: 4, editor: 3, commenter: 2, viewer: 1 };

/** Someone given access: a member, a group, or a service account (under "key"). */
export interface Principal {
  id: string;
  name: string;
  type: "user" | "group" | "key";
  role: "owner" | ResourceRole;
  email?: string;
  is_owner: boolean;
  is_self: boolean;
}

interface Directory {
  members: MemberRecord[];
  names: Map<string, string>;
  groups: Array<{ id: string; name: string }>;
  keys: Array<{ key_id: string; name: string; service_account_user_id: string }>;
}

async function directory(ctx: AppContext, caller: Caller): Promise<Directory> {
  const [members, groups, keys] = await Promise.all([ctx.stores.workspaces.members(caller.workspaceId), caller.groups(), listServiceAccountKeys(ctx, caller.workspaceId)]);
  const users = await ctx.stores.users.many(members.filter((m) => !m.service_account).map((m) => m.user_id));
  const names = new Map<string, string>();
  for (const m of members) names.set(m.user_id, m.service_account?.name ?? m.email);
  for (const u of users) if (u.first_name) names.set(u.user_id, u.first_name);
  return {
    members,
    names,
    groups: groups.filter((g) => g.group_id !== EVERYONE_GROUP_ID).map((g) => ({ id: g.group_id, name: g.name })),
    keys,
  };
}

/** workspace.resources.get: roles by group (users and service accounts count as their own "group"), share options, and Timbre's principals list. */
export async function resourceMetadata(ctx: AppContext, caller: Caller, type: ShareableType, id: string) {
  const r = await load(ctx, caller, type, id);
  if (!r.role) throw new ApiError(404, "resource_not_found", sharingMessages.notFound(type, id));
  const dir = await directory(ctx, caller);
  const roleToGroupIds: Record<string, string[]> = { admin: [], editor: [], commenter: [], viewer: [] };
  for (const [role, groups] of Object.entries(r.role_to_group_ids)) roleToGroupIds[role] = [...(groups ?? [])];
  for (const [userId, role] of Object.entries(r.user_roles)) roleToGroupIds[role] = [...(roleToGroupIds[role] ?? []), userId];

  const principals: Principal[] = [];
  const owner = dir.members.find((m) => m.user_id === r.created_by);
  if (owner) principals.push({ id: owner.user_id, name: dir.names.get(owner.user_id) ?? owner.email, type: "user", role: "owner", email: owner.email, is_owner: true, is_self: owner.user_id === caller.userId });
  for (const [role, groups] of Object.entries(r.role_to_group_ids) as Array<[ResourceRole, string[]]>) {
    for (const g of groups ?? []) {
      const group = dir.groups.find((x) => x.id === g);
      if (group) principals.push({ id: g, name: group.name, type: "group", role, is_owner: false, is_self: false });
    }
  }
  for (const [userId, role] of Object.entries(r.user_roles)) {
    if (userId === r.created_by) continue;
    const m = dir.members.find((x) => x.user_id === userId);
    if (!m) continue;
    principals.push(
      m.service_account
        ? { id: userId, name: m.service_account.name, type: "key", role, email: m.email, is_owner: false, is_self: false }
        : { id: userId, name: dir.names.get(userId) ?? m.email, type: "user", role, email: m.email, is_owner: false, is_self: userId === caller.userId },
    );
  }
  principals.sort((a, b) => Number(b.is_owner) - Number(a.is_owner) || RANK[b.role] - RANK[a.role] || a.name.localeCompare(b.name, undefined, { sensitivity: "base" }));

  const holders = new Set(principals.map((p) => p.id));
  const shareOptions = [
    ...dir.groups.filter((g) => !holders.has(g.id)).map((g) => ({ id: g.id, name: g.name, type: "group" as const })),
    ...dir.members
      .filter((m) => !m.service_account && !holders.has(m.user_id))
      .map((m) => ({ id: m.user_id, name: dir.names.get(m.user_id) ?? m.email, type: "user" as const, email: m.email })),
    ...dir.keys.filter((k) => !holders.has(k.service_account_user_id)).map((k) => ({ id: k.key_id, name: k.name, type: "key" as const })),
  ];
  const defaultRole = (Object.entries(r.role_to_group_ids) as Array<[ResourceRole, string[]]>).find(([, g]) => g?.includes(EVERYONE_GROUP_ID))?.[0] ?? null;
  return {
    resource_id: r.id,
    resource_name: r.name,
    resource_type: type,
    creator_user_id: r.created_by || null,
    anonymous_access_level_override: null,
    role_to_group_ids: roleToGroupIds,
    share_options: shareOptions,
    // Timbre's: what the sharing dialog shows without more calls.
    default_access: defaultRole ?? "restricted",
    principals,
    permission_on_resource: r.role,
    // Timbre's: whether the caller may change who has access (canShare).
    can_share: await canShare(caller, type, r.role),
  };
}

export interface ShareTarget {
  user_email?: string | null;
  group_id?: string | null;
  workspace_api_key_id?: string | null;
}

type ResolvedTarget = { kind: "group"; id: string } | { kind: "user"; id: string };

async function resolveTarget(ctx: AppContext, caller: Caller, r: Shareable, t: ShareTarget): Promise<ResolvedTarget> {
  const given = [t.user_email, t.group_id, t.workspace_api_key_id].filter((x) => x !== undefined && x !== null && x !== "");
  if (given.length !== 1) throw new ApiError(400, "invalid_share_target", sharingMessages.oneTarget);
  if (t.group_id) {
    if (t.group_id !== EVERYONE_GROUP_ID && !(await caller.groups()).some((g) => g.group_id === t.group_id)) {
      throw new ApiError(404, "group_not_found", `No group with the id ${t.group_id} exists in this workspace.`);
    }
    return { kind: "group", id: t.group_id };
  }
  let userId: string;
  if (t.workspace_api_key_id) {
    const key = (await listServiceAccountKeys(ctx, caller.workspaceId)).find((k) => k.key_id === t.workspace_api_key_id);
    if (!key) throw new ApiError(404, "api_key_not_found", sharingMessages.keyNotFound(t.workspace_api_key_id));
    userId = key.service_account_user_id;
  } else userId = (await memberByEmail(ctx, caller.workspaceId, t.user_email!)).user_id;
  if (userId === r.created_by) throw new ApiError(400, "owner_access_fixed", sharingMessages.ownerFixed);
  if (userId === caller.userId) throw new ApiError(400, "own_access_fixed", sharingMessages.selfFixed);
  return { kind: "user", id: userId };
}

/**
 * Who may share: the resource's owner and admins; for a dictionary, while the workspace stores
 * shared files on the user (storing_shared_files_on_user), its editors too (app-shell.md §8:
 * "Sharing a dictionary needs resource permission admin while the workspace does not store shared
 * files on the user"; the spec does not say which role suffices then: Timbre takes the role that
 * may change the dictionary anyway, never a viewer or commenter).
 */
export async function canShare(caller: Caller, type: ShareableType, role: string | null): Promise<boolean> {
  if (role === "owner" || role === "admin") return true;
  return type === "pronunciation_dictionary" && role === "editor" && (await caller.workspace()).storing_shared_files_on_user === true;
}

/** share (role) or unshare (null) for one target, by someone who may share the resource (canShare). */
export async function setShare(ctx: AppContext, caller: Caller, type: ShareableType, id: string, target: ShareTarget, role: ResourceRole | null): Promise<void> {
  const r = await load(ctx, caller, type, id);
  if (!r.role) throw new ApiError(404, "resource_not_found", sharingMessages.notFound(type, id));
  if (!(await canShare(caller, type, r.role))) throw new ApiError(403, "resource_admin_required", sharingMessages.adminRequired);
  const t = await resolveTarget(ctx, caller, r, target);
  if (t.kind === "group") {
    await r.save({ role_to_group_ids: shareWithGroup(r, t.id, role), user_roles: r.user_roles });
    return;
  }
  const users = { ...r.user_roles };
  if (role) users[t.id] = role;
  else delete users[t.id];
  await r.save({ role_to_group_ids: r.role_to_group_ids, user_roles: users });
}
