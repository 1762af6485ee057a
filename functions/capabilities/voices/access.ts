import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";
import type { ResourceRole } from "../../platform/contract/dictionaries.js";
import { EVERYONE_GROUP_ID } from "../../platform/domain/permissions.js";
import { resourceRole } from "../dictionaries/roles.js";

/**
 * Who may see and use a workspace's voice (workspace resource sharing, issue 13): its creator
 * ("owner"), workspace admins ("admin"), and whoever it is shared with, directly or through a
 * group (the default group is every member). A voice nobody shared stays private to its creator.
 * Premade voices are everyone's to use.
 */
export type VoiceAccess = "owner" | ResourceRole;

export async function voiceAccess(caller: Caller, v: VoiceRecord): Promise<VoiceAccess | null> {
  if (v.workspace_id === null) return "viewer";
  if (v.workspace_id !== caller.workspaceId) return null;
  if (v.owner_user_id === caller.userId) return "owner";
  const [admin, groups] = await Promise.all([caller.isAdmin(), caller.groups()]);
  const groupIds = [EVERYONE_GROUP_ID, ...groups.filter((g) => g.member_user_ids.includes(caller.userId)).map((g) => g.group_id)];
  return resourceRole(
    { created_by: v.owner_user_id ?? "", role_to_group_ids: v.role_to_group_ids ?? {}, user_roles: v.user_roles ?? {} },
    { userId: caller.userId, isWorkspaceAdmin: admin, groupIds },
  );
}

/** A voice the caller may use (premade, or one of the workspace's they have a role on), else undefined. */
export async function accessibleVoice(ctx: AppContext, caller: Caller, voiceId: string): Promise<VoiceRecord | undefined> {
  const v = await ctx.stores.voices.visibleTo(caller.workspaceId, voiceId);
  return v && (await voiceAccess(caller, v)) ? v : undefined;
}

export const canEditVoice = (a: VoiceAccess | null) => a === "owner" || a === "admin" || a === "editor";
