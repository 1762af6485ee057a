import type { ResourceRole } from "../../platform/contract/dictionaries.js";

/**
 * Resource roles on a dictionary, least to most access: viewer, commenter, editor, admin. The
 * creator (owner) and workspace admins are admin; everyone else gets the highest role granted
 * to them directly or to a group they belong to (the default group is every member).
 */
const RANK: Record<ResourceRole, number> = { viewer: 0, commenter: 1, editor: 2, admin: 3 };

export interface SharedResource {
  created_by: string;
  role_to_group_ids: Partial<Record<ResourceRole, string[]>>;
  user_roles: Record<string, ResourceRole>;
}

export interface Member {
  userId: string;
  isWorkspaceAdmin: boolean;
  /** Every group the member belongs to, the default group included. */
  groupIds: string[];
}

export function resourceRole(resource: SharedResource, member: Member): ResourceRole | null {
  if (resource.created_by === member.userId || member.isWorkspaceAdmin) return "admin";
  let best: ResourceRole | null = resource.user_roles[member.userId] ?? null;
  for (const [role, groups] of Object.entries(resource.role_to_group_ids) as Array<[ResourceRole, string[] | undefined]>) {
    if (!groups?.some((g) => member.groupIds.includes(g))) continue;
    if (best === null || RANK[role] > RANK[best]) best = role;
  }
  return best;
}

/** The sharing after giving `groupId` the role `role` (or none): a group holds at most one role. */
export function shareWithGroup(resource: SharedResource, groupId: string, role: ResourceRole | null): SharedResource["role_to_group_ids"] {
  const out: SharedResource["role_to_group_ids"] = {};
  for (const [r, groups] of Object.entries(resource.role_to_group_ids) as Array<[ResourceRole, string[] | undefined]>) {
    const rest = (groups ?? []).filter((g) => g !== groupId);
    if (rest.length) out[r] = rest;
  }
  if (role) out[role] = [...(out[role] ?? []), groupId];
  return out;
}
